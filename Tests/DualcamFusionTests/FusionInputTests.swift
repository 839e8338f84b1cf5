import DualcamCalibrationFiles
import DualcamFusion
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest

final class FusionInputTests: XCTestCase {
    let wideSize = PixelSize(width: 640, height: 480)

    func rig(withLidar: Bool) throws -> Rig {
        var yaml = NominalDevice.yaml
        if withLidar {
            // A LiDAR 20 mm to the wide camera's right (X_lidar = X_wide - (20 mm, 0, 0)).
            yaml = yaml.replacingOccurrences(of: "extrinsics:\n", with: "extrinsics:\n  lidar_from_wide:\n    rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]\n    translation: [-20.0, 0.0, 0.0]\n    unit: mm\n")
            yaml = yaml.replacingOccurrences(of: "extrinsics:", with: """
                - name: lidar
                  kind: lidar
                  image_size: {width: 256, height: 192}
                  intrinsics: {fx: 200.0, fy: 200.0, cx: 128.0, cy: 96.0}
                extrinsics:
                """, options: [], range: yaml.range(of: "extrinsics:"))
        }
        return try CalibrationFile(yaml: yaml, path: "test.yaml").rig
    }

    func write(_ text: String, _ name: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func testCSVDropsSamplesOutsideTheImageWithACount() throws {
        let dir = try TemporaryDirectory()
        let url = try write("x,y,depth_m\n10,10,1.5\n700,10,2\n-5,3,2\n", "s.csv", in: dir.url)
        let loaded = try SampleSources.load(url, wideSize: wideSize, rig: try rig(withLidar: false))
        XCTAssertEqual(loaded.samples.count, 1)
        XCTAssertEqual(loaded.warnings, ["dropped 2 sample(s) outside the 640x480 wide image"])
    }

    func testBadFilesAreOneLineErrors() throws {
        let dir = try TemporaryDirectory()
        let r = try rig(withLidar: false)
        for (text, name, expected) in [("", "empty.csv", "expected the CSV header"),
                                       ("x,y,depth_m\n", "header.csv", "contains no samples"),
                                       ("x,y,depth_m\n1,1,nan\n", "nan.csv", "finite"),
                                       ("x,y,depth_m\n1,1,-2\n", "neg.csv", "positive"),
                                       ("x,y,depth_m\n900,1,2\n", "outside.csv", "no usable samples (1 outside"),
                                       ("x,y,z\n0,0,2\n", "cloud.csv", "has no 'lidar' entry")] {
            let url = try write(text, name, in: dir.url)
            XCTAssertThrowsError(try SampleSources.load(url, wideSize: wideSize, rig: r), name) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(expected), "\(name): \(message)")
                XCTAssertFalse(message.contains("\n"))
            }
        }
    }

    func testPointCloudsProjectThroughTheLidarExtrinsics() throws {
        let dir = try TemporaryDirectory()
        let r = try rig(withLidar: true)
        let k = try r.camera(.wide).model.scaled(to: wideSize)
        // A wide-frame point at 2 m on the optical axis is at x = -0.02 m in the LiDAR frame.
        let csv = try write("x,y,z\n-0.02,0,2\n-0.02,0,-1\n", "cloud.csv", in: dir.url)
        let ascii = try write("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n-0.02 0 2\n", "cloud.ply", in: dir.url)
        var binary = Data("ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty double x\nproperty double y\nproperty double z\nend_header\n".utf8)
        for v in [-0.02, 0, 2.0] { withUnsafeBytes(of: v.bitPattern.littleEndian) { binary.append(contentsOf: $0) } }
        let binaryURL = dir.url.appendingPathComponent("binary.ply")
        try binary.write(to: binaryURL)
        let expected = try XCTUnwrap(try k.project(Vector3(0, 0, 2)))
        for url in [csv, ascii, binaryURL] {
            let loaded = try SampleSources.load(url, wideSize: wideSize, rig: r)
            let s = try XCTUnwrap(loaded.samples.first, url.lastPathComponent)
            XCTAssertEqual(loaded.samples.count, 1)
            XCTAssertClose(s.x, expected.x, absolute: 1e-6)
            XCTAssertClose(s.y, expected.y, absolute: 1e-6)
            XCTAssertClose(s.depthMetres, 2, absolute: 1e-9)
        }
        XCTAssertEqual(try SampleSources.load(csv, wideSize: wideSize, rig: r).dropped, ["behind the wide camera": 1])
    }

    func testSparseDepthImages() throws {
        let dir = try TemporaryDirectory()
        var mm = [UInt16](repeating: 0, count: 320 * 240)
        mm[10 * 320 + 20] = 1500
        let png = dir.url.appendingPathComponent("s.png")
        try ImageIO.write(try Image(width: 320, height: 240, channels: 1, pixels: mm), to: png)
        let loaded = try SampleSources.load(png, wideSize: wideSize, rig: try rig(withLidar: false))
        // Pixel (20, 10) of the half-size image covers wide pixels 40-41 x 20-21: its centre is (40.5, 20.5).
        XCTAssertEqual(loaded.samples, [DepthSample(x: 40.5, y: 20.5, depthMetres: 1.5)])
    }

    func testRobustFitRecoversScaleAndShiftDespiteOutliers() throws {
        var rng = SeededGenerator(seed: 5)
        var pairs: [InverseDepthPair] = []
        for i in 0..<400 {
            let v = Double.random(in: 0.2...2, using: &rng)
            var d = (v - 0.03) / 0.8
            if i % 5 == 0 { d = Double.random(in: 0...3, using: &rng) }  // 20 % gross stereo outliers
            pairs.append(InverseDepthPair(relative: d, inverseDepth: v * (1 + 0.002 * Double.random(in: -1...1, using: &rng)), weight: 1))
        }
        let fit = try ScaleShiftFitter.fit(pairs)
        XCTAssertClose(fit.scale, 0.8, absolute: 0.005)
        XCTAssertClose(fit.shift, 0.03, absolute: 0.005)
        XCTAssertGreaterThanOrEqual(fit.inlierCount, 310)
        XCTAssertLessThanOrEqual(fit.inlierCount, 330)
        XCTAssertThrowsError(try ScaleShiftFitter.fit([InverseDepthPair(relative: 1, inverseDepth: 1, weight: 1)]))
    }
}
