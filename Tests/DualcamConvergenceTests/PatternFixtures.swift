import DualcamCalibrationFiles
import DualcamConvergence
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import Foundation

/// Patterned subjects (`PatternedSubject`) seen by the nominal rig at
/// 640x480 (tele f = 952 px, 10 mm baseline: 9.5 px of parallax per 1/m),
/// rendered with the `real` camera conditions unless asked otherwise.
///
/// To keep the tests fast in debug builds only what a tap's sweep reads is
/// rendered: the tele around the tap (the window plus 32 px) and the part of
/// the wide image that window sees over the whole sweep, 0.2 m to infinity
/// (plus 24 px); the rest stays black, and the sweep never reads it.
///
/// No pattern edge runs exactly along a pixel column: with 2 x 2 samples per
/// pixel the renderer places a sharp edge to the nearest half pixel, and a
/// pattern whose edges all share one sub-pixel phase (vertical bars at a whole
/// number of pixels) is then drawn up to 0.2 px off in one camera against the
/// other, which the sweep reads as a 1-5 % error in distance. Turned by a few
/// degrees, the phase varies along the window's rows and the error averages
/// out, as it does on a sensor, which integrates the whole pixel.
enum PatternFixtures {
    struct Case {
        var name: String
        var subject: PatternedSubject
        /// Period of the pattern in tele pixels at the subject's distance.
        var periodPixels: Double
        var conditions: CaptureConditions = .real
    }

    struct Rendered {
        var pair: Fixtures.Pair
        /// The subject's centre in the tele image (ideal = sensor pixels: the tele has no distortion).
        var tap: Vector2
        /// The subject's front face distance along the wide axis: the true convergence distance.
        var truthMetres: Double
    }

    static let telefocal = 6000.0 * 640 / 4032

    /// A subject of `pattern` whose period is `pixels` tele pixels at `distance`.
    static func subject(_ shape: PatternedSubject.Shape, _ pattern: RepetitiveTexture.Kind, pixels: Double,
                        distance: Double, orientation: Double = 0, offset: Vector2 = Vector2(0, 0)) -> PatternedSubject {
        PatternedSubject(shape: shape, distanceMetres: distance, pattern: pattern,
                         periodMetres: PatternedSubject.periodMetres(pixels: pixels, focalPixels: telefocal, distanceMetres: distance),
                         orientationDegrees: orientation, offsetMetres: offset)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: Rendered] = [:]

    static func render(_ c: Case, window: Int = 96, seed: UInt64 = 3) throws -> Rendered {
        let centre = Vector3(c.subject.offsetMetres.x, c.subject.offsetMetres.y, c.subject.distanceMetres)
        return try render(c.subject.scene, key: "\(c.subject)", centre: centre, truthMetres: c.subject.distanceMetres,
                          conditions: c.conditions, window: window, seed: seed)
    }

    /// Renders the part of `scene` a tap on the world point `centre` reads
    /// (`whole`: both views completely).
    static func render(_ scene: Scene, key name: String, centre: Vector3, truthMetres: Double,
                       conditions: CaptureConditions = .real, window: Int = 96, seed: UInt64 = 3,
                       whole: Bool = false, samplesPerAxis: Int? = nil, tapOverride: Vector2? = nil,
                       size: PixelSize = Fixtures.size) throws -> Rendered {
        let key = "\(name) \(conditions) \(window) \(seed) \(whole) \(samplesPerAxis ?? 0) \(tapOverride.map { "\($0)" } ?? "") \(size)"
        lock.lock()
        defer { lock.unlock() }
        if let hit = cache[key] { return hit }
        let rig = try Fixtures.nominalRig(size: size)
        let tele = try rig.camera(.tele).model, wide = try rig.camera(.wide).model
        let teleFromWide = try rig.transform(from: .wide, to: .tele, unit: .metre)
        guard let projected = try tele.project(teleFromWide.apply(centre)) else { throw FixtureError.notVisible }
        let tap = tapOverride ?? projected
        let half = window / 2 + 32
        let teleRegion = clip(minX: tap.x - Double(half), minY: tap.y - Double(half), maxX: tap.x + Double(half),
                              maxY: tap.y + Double(half), size: size)
        // The wide pixels the tele region sees from 0.2 m to infinity.
        let geometry = try ConvergenceGeometry(rig: rig, wideSize: size, teleSize: size)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for q in [0.0, 2.5, 5.0] {
            let wideFromTele = try XCTUnwrapInverse(try geometry.teleFromWide(inverseDistance: q))
            for corner in [Vector2(Double(teleRegion.x), Double(teleRegion.y)),
                           Vector2(Double(teleRegion.x + teleRegion.width), Double(teleRegion.y + teleRegion.height)),
                           Vector2(Double(teleRegion.x), Double(teleRegion.y + teleRegion.height)),
                           Vector2(Double(teleRegion.x + teleRegion.width), Double(teleRegion.y))] {
                let ideal = wideFromTele.applyHomography(corner)
                let p = try wide.distortion.distortPixel(ideal, intrinsics: wide.intrinsics)
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        let wideRegion = clip(minX: minX - 24, minY: minY - 24, maxX: maxX + 24, maxY: maxY + 24, size: size)
        var options = Fixtures.options
        options.seed = seed
        options.region = whole ? nil : wideRegion
        if whole { options.samplesPerAxis = 1 }  // the whole view, so keep it quick
        if let samplesPerAxis { options.samplesPerAxis = samplesPerAxis }
        let w = try Renderer.render(scene, camera: .wide, of: rig, options: options, conditions: conditions)
        options.region = whole ? nil : teleRegion
        let t = try Renderer.render(scene, camera: .tele, of: rig, options: options, conditions: conditions)
        let rendered = Rendered(pair: Fixtures.Pair(wide: w, tele: t), tap: tap, truthMetres: truthMetres)
        cache[key] = rendered
        return rendered
    }

    static func clip(minX: Double, minY: Double, maxX: Double, maxY: Double, size: PixelSize) -> PixelRect {
        let x0 = max(0, Int(minX.rounded(.down))), y0 = max(0, Int(minY.rounded(.down)))
        let x1 = min(size.width, Int(maxX.rounded(.up)) + 1), y1 = min(size.height, Int(maxY.rounded(.up)) + 1)
        return PixelRect(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
    }

    enum FixtureError: Error { case notVisible, singular }

    static func XCTUnwrapInverse(_ m: Matrix3) throws -> Matrix3 {
        guard let inverse = m.inverse else { throw FixtureError.singular }
        return inverse
    }
}
