import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import Foundation
import TestSupport
import XCTest

/// `SynthWriter`: a small room dataset written to disk and read back with
/// the readers the rest of dualcam uses.
final class SynthWriterTests: XCTestCase {
    static let size = PixelSize(width: 320, height: 240)

    static func roomSpec() throws -> SynthSpec {
        var spec = SynthSpec(sceneName: "room", calibration: try NominalDevice.load(), size: size)
        spec.render = RenderOptions(samplesPerAxis: 1)
        spec.lidar = LidarSampling(pattern: .random(fraction: 0.02), rangeLimit: 5, noiseSigma: 0.01,
                                   outlierFraction: 0.05, seed: 3)
        return spec
    }

    /// Rendered once for all tests.
    static let room = Result { try Synthesizer.make(try roomSpec()) }

    static let expectedFiles = [
        "calibration.yaml", "lidar.csv", "lidar.depth.pfm", "lidar.depth.png", "manifest.json",
        "tele.depth.pfm", "tele.objects.png", "tele.png", "tele.png.json", "wide.covisible.png", "wide.depth.pfm", "wide.objects.png", "wide.png", "wide.png.json",
    ]

    func testEveryManifestFileExistsAndNothingElse() throws {
        let dataset = try Self.room.get()
        let dir = try TemporaryDirectory()
        let out = dir.path("room")
        let manifest = try SynthWriter.write(dataset, to: out)
        let listed = manifest.files.map(\.path).sorted()
        XCTAssertEqual(listed, Self.expectedFiles)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(), listed)
        XCTAssertEqual(try dir.fileNames(), ["room"], "no staging directory left next to the output")
        XCTAssertTrue(manifest.files.allSatisfy { !$0.units.isEmpty && !$0.kind.isEmpty })

        // manifest.json on disk is the returned manifest, with snake_case keys.
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
            as? [String: Any])
        XCTAssertEqual(json["scene"] as? String, "room")
        XCTAssertEqual(json["size"] as? [Int], [320, 240])
        XCTAssertEqual(json["samples_per_pixel"] as? Int, 1)
        XCTAssertNil(json["plane_distance_metres"], "only the plane scene has a distance")
        let files = try XCTUnwrap(json["files"] as? [[String: Any]])
        XCTAssertEqual(files.compactMap { $0["path"] as? String }.sorted(), listed)
        let lidar = try XCTUnwrap(json["lidar"] as? [String: Any])
        XCTAssertEqual(lidar["samples"] as? Int, dataset.pairs[0].lidar.count)
        XCTAssertEqual(lidar["outliers"] as? Int, dataset.pairs[0].lidar.filter(\.isOutlier).count)
        XCTAssertEqual(lidar["pattern"] as? String, "random:0.02")
        XCTAssertEqual(lidar["range_limit_metres"] as? Double, 5)
    }

    func testImagesAndDepthRoundTrip() throws {
        let dataset = try Self.room.get()
        let pair = dataset.pairs[0]
        let dir = try TemporaryDirectory()
        try SynthWriter.write(dataset, to: dir.url)
        for view in [pair.wide, pair.tele] {
            let name = view.camera.rawValue
            let depth = try PFM.read(dir.path("\(name).depth.pfm"))
            XCTAssertEqual(depth, view.depth, "\(name) depth PFM round-trips bit for bit")
            XCTAssertEqual(depth.width, 320)
            XCTAssertTrue(try depth.pixels(as: Float.self).allSatisfy(\.isFinite), "the room is closed")
            XCTAssertEqual(try ImageIO.read(dir.path("\(name).png")), view.image, "\(name) PNG round-trips")
        }
        let mask = try ImageIO.read(dir.path("wide.covisible.png"))
        XCTAssertEqual(mask.channels, 1)
        XCTAssertEqual(mask.element, .uint8)
        let values = try mask.pixels(as: UInt8.self)
        XCTAssertEqual(Set(values), [0, 255], "the mask is 0/255 with both present")
        XCTAssertEqual(values.map { $0 == 255 }, pair.covisible)
    }

    func testLidarFilesAgree() throws {
        let dataset = try Self.room.get()
        let samples = dataset.pairs[0].lidar
        let dir = try TemporaryDirectory()
        let manifest = try SynthWriter.write(dataset, to: dir.url)
        let csv = try DepthSamplesCSV.read(dir.path("lidar.csv"))
        XCTAssertEqual(csv.count, manifest.lidar.samples)
        XCTAssertEqual(csv.count, samples.count)
        XCTAssertGreaterThan(csv.count, 500, "about 2 % of the in-range pixels of 320x240")
        for (read, sample) in zip(csv, samples) {
            XCTAssertEqual(read.x, Double(sample.x))
            XCTAssertEqual(read.y, Double(sample.y))
            XCTAssertEqual(read.depthMetres, sample.depth)
            XCTAssertEqual(read.confidence, sample.confidence)
        }
        XCTAssertTrue(csv.allSatisfy { $0.x >= 0 && $0.x < 320 && $0.y >= 0 && $0.y < 240 }, "in wide pixels")

        let pfm = try PFM.read(dir.path("lidar.depth.pfm")).pixels(as: Float.self)
        let png = try DepthPNG.read(dir.path("lidar.depth.png")).pixels(as: Float.self)
        XCTAssertEqual(pfm.count, 320 * 240)
        XCTAssertEqual(pfm.map(\.isNaN), png.map(\.isNaN), "same sparse support")
        XCTAssertEqual(pfm.filter { !$0.isNaN }.count, samples.count, "one sample per pixel")
        for (a, b) in zip(pfm, png) where !a.isNaN {
            XCTAssertLessThanOrEqual(abs(Double(a) - Double(b)), 0.0005 + 1e-6, "PNG16 (mm) and PFM agree within 0.5 mm")
        }
        for s in samples { XCTAssertEqual(pfm[s.y * 320 + s.x], Float(s.depth)) }
    }

    /// calibration.yaml holds the rig at the rendered size: the nominal
    /// intrinsics scaled by 320/4032, equal to the per-frame sidecars.
    func testCalibrationMatchesSidecarsAndIsScaled() throws {
        let dataset = try Self.room.get()
        let dir = try TemporaryDirectory()
        try SynthWriter.write(dataset, to: dir.url)
        let calibration = try CalibrationFile.read(dir.path("calibration.yaml"))
        let nominal = try NominalDevice.load().rig
        for camera in [FrameName.wide, .tele] {
            let k = try calibration.rig.camera(camera).model.intrinsics
            let sidecar = try XCTUnwrap(try FrameIntrinsicsSidecar.read(besides: dir.path("\(camera.rawValue).png")))
            XCTAssertEqual(sidecar.referenceSize, Self.size)
            XCTAssertEqual(k.referenceSize, Self.size)
            XCTAssertClose([sidecar.fx, sidecar.fy, sidecar.cx, sidecar.cy, sidecar.skew], [k.fx, k.fy, k.cx, k.cy, k.skew],
                           relative: 1e-12)
            let original = try nominal.camera(camera).model.intrinsics
            let s = 320.0 / 4032
            XCTAssertClose([k.fx, k.fy, k.cx, k.cy], [original.fx * s, original.fy * s, original.cx * s, original.cy * s],
                           relative: 1e-12, "\(camera)")
            XCTAssertEqual(try calibration.rig.camera(camera).model.distortion, try nominal.camera(camera).model.distortion)
        }
        XCTAssertEqual(calibration.rig, dataset.calibration.rig)
        let a = try calibration.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        let b = try nominal.transform(from: .wide, to: .tele, unit: .millimetre)
        XCTAssertClose(a.translation.x, b.translation.x, absolute: 1e-12, "extrinsics do not scale")
    }

    /// Writing into an existing directory replaces the dataset's files (a
    /// stale wide.png and manifest.json are overwritten).
    func testWritingIntoAnExistingDirectoryReplacesFiles() throws {
        let dataset = try Self.room.get()
        let dir = try TemporaryDirectory()
        try Data("not a png".utf8).write(to: dir.path("wide.png"))
        try Data("{}".utf8).write(to: dir.path("manifest.json"))
        try SynthWriter.write(dataset, to: dir.url)
        XCTAssertEqual(try ImageIO.read(dir.path("wide.png")), dataset.pairs[0].wide.image)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.path("manifest.json"))) as? [String: Any]
        XCTAssertEqual(json?["scene"] as? String, "room")
        XCTAssertEqual(try dir.fileNames(), Self.expectedFiles)
        // And again: a second write over the first one gives the same files.
        try SynthWriter.write(dataset, to: dir.url)
        XCTAssertEqual(try dir.fileNames(), Self.expectedFiles)
    }

    /// `synth --out DIR` with a directory where one of its files goes
    /// (DIR/wide.png/) deleted that directory and everything in it (issue 20).
    /// Now nothing is moved and the error names the directory.
    func testNeverDeletesADirectoryInTheWay() throws {
        let dataset = try Self.room.get()
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.path("wide.png"), withIntermediateDirectories: false)
        try Data("precious".utf8).write(to: dir.path("wide.png/keep.txt"))
        try Data("old".utf8).write(to: dir.path("tele.png"))
        XCTAssertThrowsError(try SynthWriter.write(dataset, to: dir.url)) { error in
            XCTAssertTrue("\(error)".contains("wide.png: exists and is not a file"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOf: dir.path("wide.png/keep.txt"), encoding: .utf8), "precious")
        XCTAssertEqual(try String(contentsOf: dir.path("tele.png"), encoding: .utf8), "old", "nothing was published")
        XCTAssertEqual(try dir.fileNames().sorted(), ["tele.png", "wide.png"], "no staging directory left")
    }

    /// Failures leave nothing behind: no staging directory next to the
    /// destination, no destination, an existing destination untouched.
    func testFailuresLeaveNoStagingDirectory() throws {
        let dataset = try Self.room.get()
        let dir = try TemporaryDirectory()
        func staging() throws -> [String] { try dir.fileNames().filter { $0.hasPrefix(".") && $0.contains(".staging-") } }

        // The destination is a regular file.
        let file = dir.path("taken")
        try Data("keep".utf8).write(to: file)
        XCTAssertThrowsError(try SynthWriter.write(dataset, to: file)) { error in
            XCTAssertTrue("\(error)".contains("not a directory"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: file), Data("keep".utf8))
        XCTAssertEqual(try staging(), [])

        // The parent does not exist.
        XCTAssertThrowsError(try SynthWriter.write(dataset, to: dir.path("missing/out")))
        XCTAssertEqual(try dir.fileNames(), ["taken"])

        // A failure half way through (the mask does not fit the declared size,
        // after the images and depth maps were staged).
        var broken = dataset
        broken.spec.size = PixelSize(width: 321, height: 240)
        XCTAssertThrowsError(try SynthWriter.write(broken, to: dir.path("new")))
        XCTAssertEqual(try staging(), [])
        XCTAssertEqual(try dir.fileNames(), ["taken"], "the destination was not created")

        // The same into an existing dataset: it stays as it was.
        let existing = dir.path("existing")
        try SynthWriter.write(dataset, to: existing)
        let before = try FileManager.default.contentsOfDirectory(atPath: existing.path).sorted()
        let wideBefore = try Data(contentsOf: existing.appendingPathComponent("wide.png"))
        XCTAssertThrowsError(try SynthWriter.write(broken, to: existing))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: existing.path).sorted(), before)
        XCTAssertEqual(try Data(contentsOf: existing.appendingPathComponent("wide.png")), wideBefore)
        XCTAssertEqual(try staging(), [])
    }
}
