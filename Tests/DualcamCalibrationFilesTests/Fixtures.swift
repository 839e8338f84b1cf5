import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// Shared helpers: random rigs that stress exact number round trips, and an
/// assertion for one-line user-facing errors.
enum Fixtures {
    static let nominalURL = DualcamBinary.packageRoot.appendingPathComponent("Calibration/devices/nominal-phone-wide-tele.yaml")

    /// A random finite double with a random exponent in 2^lo ... 2^hi and a
    /// random 52-bit significand (so its shortest decimal form is long).
    static func wild(_ g: inout SeededGenerator, exponents: ClosedRange<Int> = -30...12, signed: Bool = true) -> Double {
        let significand = 1 + Double(UInt64.random(in: 0..<(1 << 52), using: &g)) / Double(1 << 52)
        let value = Double(sign: signed && Bool.random(using: &g) ? .minus : .plus,
                           exponent: Int.random(in: exponents, using: &g), significand: significand)
        return value
    }

    /// A plausible-size but full-precision double in `range`.
    static func value(_ g: inout SeededGenerator, _ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &g)
    }

    static func randomDistortion(_ g: inout SeededGenerator, size: PixelSize, allowLUT: Bool) throws -> LensDistortion {
        switch Int.random(in: 0..<(allowLUT ? 4 : 3), using: &g) {
        case 0: return .none
        case 1:
            return .brownConrady(try BrownConrady(k1: wild(&g), k2: wild(&g), p1: wild(&g), p2: wild(&g), k3: wild(&g)))
        case 2:
            return .brownConrady(try BrownConrady(k1: wild(&g), k2: wild(&g), p1: wild(&g), p2: wild(&g), k3: wild(&g),
                                                  k4: wild(&g), k5: wild(&g), k6: wild(&g)))
        default:
            // Small steps keep r (1 + m(r)) increasing (no fold-over).
            let n = Int.random(in: 2...12, using: &g)
            func table(_ g: inout SeededGenerator) -> [Double] {
                var m = [value(&g, -0.05...0.05)]
                while m.count < n { m.append(m.last! + value(&g, -0.02...0.02)) }
                return m
            }
            return .radialLookupTable(try RadialLookupTable(
                center: Vector2(value(&g, 0...Double(size.width)), value(&g, 0...Double(size.height))),
                referenceSize: size, magnification: table(&g),
                inverseMagnification: Bool.random(using: &g) ? table(&g) : nil))
        }
    }

    /// A rig of 1 to 3 cameras with random full-precision values; the
    /// reference is the first camera.
    static func randomRig(_ g: inout SeededGenerator, allowLUT: Bool = true, cameraCount: Int? = nil) throws -> Rig {
        let names: [FrameName] = ["wide", "tele", "lidar_depth"]
        let count = cameraCount ?? Int.random(in: 1...3, using: &g)
        var cameras: [RigCamera] = [], poses: [RigidTransform] = []
        for name in names.prefix(count) {
            let size = PixelSize(width: Int.random(in: 1...8000, using: &g), height: Int.random(in: 1...6000, using: &g))
            let k = try Intrinsics(fx: value(&g, 1...20000), fy: value(&g, 1...20000), skew: Bool.random(using: &g) ? 0 : wild(&g),
                                   cx: value(&g, -100...8100), cy: value(&g, -100...6100), referenceSize: size)
            cameras.append(RigCamera(name: name, model: CameraModel(intrinsics: k, distortion: try randomDistortion(&g, size: size, allowLUT: allowLUT))))
            if name != names[0] {
                let axis = Vector3(value(&g, -1...1), value(&g, -1...1), value(&g, -1...1))
                let rotation = Rotation(axis: axis, angle: value(&g, -3...3))
                let t = Vector3(wild(&g, exponents: -20...10), wild(&g, exponents: -20...10), wild(&g, exponents: -20...10))
                poses.append(try RigidTransform(rotation: rotation, translation: t,
                                                unit: LengthUnit.allCases.randomElement(using: &g)!, from: names[0], to: name))
            }
        }
        return try Rig(reference: names[0], cameras: cameras, extrinsics: poses)
    }

    static func randomFile(_ g: inout SeededGenerator, allowLUT: Bool = true, cameraCount: Int? = nil) throws -> CalibrationFile {
        let rig = try randomRig(&g, allowLUT: allowLUT, cameraCount: cameraCount)
        var kinds: [FrameName: CameraKind] = [:]
        for name in rig.cameraNames { kinds[name] = CameraKind.allCases.randomElement(using: &g)! }
        var rms = RMSErrors(stereo: Bool.random(using: &g) ? value(&g, 0...3) : nil)
        for name in rig.cameraNames where Bool.random(using: &g) { rms.cameras[name.rawValue] = value(&g, 0...3) }
        let provenance = Provenance(source: Provenance.Source.allCases.randomElement(using: &g)!, tool: "test tool 1.0",
                                    date: "2024-05-01T12:34:56Z", notes: "random: rig, seed-based; \"quoted\"",
                                    originalFile: "/tmp/some file.yml", rms: rms.isEmpty ? nil : rms)
        return CalibrationFile(rig: rig, provenance: provenance, kinds: kinds)
    }
}

/// Asserts that `body` throws a `DualcamError` whose message is one line,
/// names `path` and contains every string of `fragments`.
func assertOneLineError(_ path: String, _ fragments: [String], file: StaticString = #filePath, line: UInt = #line,
                        _ body: () throws -> Void) {
    do {
        try body()
        XCTFail("expected an error mentioning \(fragments)", file: file, line: line)
    } catch let error as DualcamError {
        let text = error.description
        XCTAssertFalse(text.contains("\n"), "error is not one line: \(text)", file: file, line: line)
        XCTAssertTrue(text.contains(path), "error does not name \(path): \(text)", file: file, line: line)
        for f in fragments {
            XCTAssertTrue(text.contains(f), "error does not contain '\(f)': \(text)", file: file, line: line)
        }
    } catch {
        XCTFail("expected a DualcamError, got \(type(of: error)): \(error)", file: file, line: line)
    }
}
