import DualcamCalibrationFiles
import DualcamFusion
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// The inputs that crashed or stalled `fuse` (issue 20): non-finite or huge
/// coordinates, subnormal depths, PLY headers that promise more than the
/// file holds, and many samples on one pixel.
final class HostileSampleTests: XCTestCase {
    let wideSize = PixelSize(width: 640, height: 480)

    func rig() throws -> Rig {
        var yaml = NominalDevice.yaml
        yaml = yaml.replacingOccurrences(of: "extrinsics:\n", with: "extrinsics:\n  lidar_from_wide:\n    rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]\n    translation: [-20.0, 0.0, 0.0]\n    unit: mm\n")
        yaml = yaml.replacingOccurrences(of: "extrinsics:", with: """
            - name: lidar
              kind: lidar
              image_size: {width: 256, height: 192}
              intrinsics: {fx: 200.0, fy: 200.0, cx: 128.0, cy: 96.0}
            extrinsics:
            """, options: [], range: yaml.range(of: "extrinsics:"))
        return try CalibrationFile(yaml: yaml, path: "test.yaml").rig
    }

    func file(_ text: String, _ name: String, in dir: TemporaryDirectory) throws -> URL {
        try Data(text.utf8).write(to: dir.path(name))
        return dir.path(name)
    }

    /// A point at 1e60 m (or -0.11e308 in an ASCII PLY) projected to a NaN
    /// pixel that reached Int(); now it is dropped and counted.
    func testHugeCoordinatesAreDroppedNotConverted() throws {
        let dir = try TemporaryDirectory()
        let r = try rig()
        for (text, name) in [("x,y,z\n0,0,1\n1e60,0,1\n", "cloud.csv"),
                             ("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 1\n-0.11e308 0 1\n", "cloud.ply")] {
            let loaded = try SampleSources.load(try file(text, name, in: dir), wideSize: wideSize, rig: r)
            XCTAssertEqual(loaded.samples.count, 1, name)
            XCTAssertTrue(loaded.samples.allSatisfy { $0.x.isFinite && $0.y.isFinite }, name)
            XCTAssertEqual(loaded.dropped.values.reduce(0, +), 1, "\(name): \(loaded.warnings)")
        }
    }

    func testSubnormalDepthsAreDropped() throws {
        let dir = try TemporaryDirectory()
        let loaded = try SampleSources.load(try file("x,y,depth_m\n10,10,1e-310\n20,20,1\n", "s.csv", in: dir), wideSize: wideSize, rig: try rig())
        XCTAssertEqual(loaded.samples.count, 1)
        XCTAssertEqual(loaded.warnings, ["dropped 1 sample(s) with a non-finite, non-positive or subnormal depth"])
    }

    /// A 120-byte PLY that promises 10^11 vertices: refused by the limit
    /// before any allocation (it used to reserve 2.4 TB).
    func testPLYVertexCountIsCheckedBeforeAllocating() throws {
        let dir = try TemporaryDirectory()
        for format in ["ascii", "binary_little_endian"] {
            let url = try file("ply\nformat \(format) 1.0\nelement vertex 100000000000\nproperty float x\nproperty float y\nproperty float z\nend_header\n",
                               "big-\(format).ply", in: dir)
            XCTAssertThrowsError(try PointCloudReader.read(url)) { error in
                XCTAssertTrue("\(error)".contains("100000000000 PLY vertices exceed the limit of 10000000 (InputLimits.maxSamples)"), "\(error)")
            }
        }
        // Within the limit but longer than the file: the data check, still no allocation.
        let short = try file("ply\nformat binary_little_endian 1.0\nelement vertex 9000000\nproperty double x\nproperty double y\nproperty double z\nend_header\n", "short.ply", in: dir)
        XCTAssertThrowsError(try PointCloudReader.read(short)) { XCTAssertTrue("\($0)".contains("shorter than 9000000 vertices"), "\($0)") }
        // Raw bytes of a header come out escaped.
        let raw = try file("ply\nformat \u{1B}[2Jx 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 1\n", "raw.ply", in: dir)
        XCTAssertThrowsError(try PointCloudReader.read(raw)) { XCTAssertTrue("\($0)".contains("'\\x1B[2Jx'"), "\($0)") }
    }

    func testOnePerPixelKeepsTheMedianSample() throws {
        let size = PixelSize(width: 8, height: 6)
        let samples = [
            MetricSample(x: 1, y: 1, depthMetres: 2),
            MetricSample(x: 3.2, y: 2.9, depthMetres: 1.0),
            MetricSample(x: 2.8, y: 3.1, depthMetres: 9.0),  // outlier in pixel (3, 3)
            MetricSample(x: 3.0, y: 3.0, depthMetres: 1.1),
            MetricSample(x: 5, y: 5, depthMetres: 4),
        ]
        let merged = try SampleMerging.onePerPixel(samples, size: size)
        // Pixel (3, 3): inverse depths 1/9, 1/1.1, 1/1.0 -> the median is 1/1.1.
        XCTAssertEqual(merged, [samples[0], samples[3], samples[4]])
        // Unique pixels: unchanged, same order.
        XCTAssertEqual(try SampleMerging.onePerPixel([samples[4], samples[0]], size: size), [samples[4], samples[0]])
        XCTAssertThrowsError(try SampleMerging.onePerPixel([MetricSample(x: .nan, y: 1, depthMetres: 1)], size: size)) {
            XCTAssertTrue("\($0)".contains("sample 0: expected finite coordinates"), "\($0)")
        }
        XCTAssertThrowsError(try SampleMerging.onePerPixel([MetricSample(x: 1, y: 1, depthMetres: 1e-310)], size: size))
    }

    /// 200 000 samples on one pixel made the verification quadratic (over
    /// 20 s); merged first, the fusion runs on one sample (the timing is in
    /// docs/hardening.md and the fuse benchmark, not asserted here).
    func testManySamplesOnOnePixelFuseAsOne() throws {
        let size = PixelSize(width: 64, height: 48)
        let wide = try Image(width: size.width, height: size.height, channels: 3,
                             pixels: (0..<(size.width * size.height * 3)).map { UInt8($0 % 251) })
        let k = try Intrinsics(fx: 60, fy: 60, cx: 31.5, cy: 23.5, referenceSize: size)
        var samples = (0..<200_000).map { i in DepthSample(x: 10 + Double(i % 7) * 0.01, y: 10, depthMetres: 2 + Double(i % 3) * 0.001) }
        samples += [DepthSample(x: 40, y: 30, depthMetres: 3), DepthSample(x: 20, y: 40, depthMetres: 2.5)]
        let outcome = try FusionPipeline.run(FusionRequest(wide: wide, wideIntrinsics: k, samples: samples, outputSize: size))
        XCTAssertEqual(outcome.result.verdicts.count, 3)
        XCTAssertEqual(outcome.result.filteredDepth.count, size.width * size.height)
    }
}
