import DualcamCalibrationFiles
import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class NominalDeviceAndSummaryTests: XCTestCase {
    func testEmbeddedProfileEqualsFileOnDisk() throws {
        let onDisk = try String(contentsOf: Fixtures.nominalURL, encoding: .utf8)
        XCTAssertEqual(NominalDevice.yaml, onDisk, "regenerate NominalDevice.yaml from \(Fixtures.nominalURL.path)")
        XCTAssertEqual(Fixtures.nominalURL.lastPathComponent, NominalDevice.fileName)
        XCTAssertEqual(try CalibrationImport.detect(Fixtures.nominalURL), .dualcam)
        XCTAssertEqual(try CalibrationImport.read(Fixtures.nominalURL), try NominalDevice.load())
    }

    func testProfileIsCanonicalYAML() throws {
        // The file is exactly what the encoder writes after its comment header.
        let text = NominalDevice.yaml
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("#") }.joined(separator: "\n")
        XCTAssertEqual(try NominalDevice.load().yamlString(), body)
    }

    func testProfileIsMarkedNominalAndPlausible() throws {
        let file = try NominalDevice.load()
        XCTAssertEqual(file.provenance.source, .nominal)
        XCTAssertTrue(NominalDevice.yaml.hasPrefix("# NOMINAL"))
        let summary = RigSummary(file)
        XCTAssertEqual(summary.reference, "wide")
        XCTAssertEqual(summary.cameras.map(\.name), ["wide", "tele"])
        XCTAssertEqual(summary.cameras.map(\.width), [4032, 4032])
        XCTAssertEqual(summary.cameras.map(\.height), [3024, 3024])
        XCTAssertClose(summary.pairs[0].focalRatio, 2, absolute: 0.05)
        XCTAssertClose(summary.pairs[0].baselineMillimetres, 10, absolute: 1)
        XCTAssertTrue((0.1...0.3).contains(summary.pairs[0].rotationDegrees), "\(summary.pairs[0].rotationDegrees)")
        XCTAssertTrue((60...75).contains(summary.cameras[0].horizontalFieldOfViewDegrees))
        XCTAssertEqual(summary.cameras[0].distortionModel, "brown_conrady")
        XCTAssertEqual(summary.cameras[1].distortionModel, "none")
        // The wide's distortion is mild: under 1% radial change at the image corner.
        let wide = try file.rig.camera(.wide).model
        let corner = Vector2(0, 0)
        let ideal = try wide.distortion.undistortPixel(corner, intrinsics: wide.intrinsics)
        XCTAssertLessThan((ideal - corner).norm, 0.01 * 2520)
    }

    func testReadmeExampleParses() throws {
        let readme = try String(contentsOf: DualcamBinary.packageRoot.appendingPathComponent("Calibration/README.md"), encoding: .utf8)
        let start = try XCTUnwrap(readme.range(of: "```yaml\n# Any comment lines.\n"))
        let end = try XCTUnwrap(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let file = try CalibrationFile(yaml: String(readme[start.upperBound..<end.lowerBound]), path: "README example")
        XCTAssertEqual(file.rig.cameraNames, ["wide", "tele", "lidar"])
        XCTAssertEqual(file.kind(of: "lidar"), .lidar)
        XCTAssertEqual(file.provenance.rms?.stereo, 0.55)
        XCTAssertEqual(file.extra["serial_number"], .string("A1B2C3"))
        XCTAssertEqual(file.extra["temperature_c"]?.number, 31.5)
        XCTAssertEqual(try CalibrationFile(yaml: try file.yamlString(), path: "x"), file)
    }

    func testSummaryTextAndJSON() throws {
        let summary = RigSummary(try NominalDevice.load())
        let text = summary.text
        XCTAssertTrue(text.contains("camera wide: 4032x3024"), text)
        XCTAssertTrue(text.contains("fx 3000.00 fy 3000.00 cx 2011.50 cy 1518.25 px"), text)
        XCTAssertTrue(text.contains("field of view 67.80 x 53.50 deg"), text)
        XCTAssertTrue(text.contains("tele from wide: baseline 10.000 mm"), text)
        XCTAssertTrue(text.contains("rotation 0.200 deg, focal ratio 2.000"), text)
        XCTAssertTrue(text.contains("source: nominal"), text)
        let json = try summary.jsonString()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let decoded = try decoder.decode(RigSummary.self, from: Data(json.utf8))
        XCTAssertEqual(decoded, summary)
    }

    func testSummaryOfThreeCamerasWithLookupTable() throws {
        var g = SeededGenerator(seed: 3)
        var rig = try Fixtures.randomRig(&g, cameraCount: 3)
        var c = try rig.camera("tele")
        c.model.distortion = .radialLookupTable(try RadialLookupTable(center: Vector2(1, 1), referenceSize: c.size, magnification: [0, 0.1, 0.2]))
        try rig.setCamera(c)
        let file = CalibrationFile(rig: rig, provenance: Provenance(source: .calibrated, rms: RMSErrors(cameras: ["wide": 0.5], stereo: 0.7)),
                                   kinds: ["lidar_depth": .lidar])
        let summary = RigSummary(file)
        XCTAssertEqual(summary.pairs.map(\.camera), ["tele", "lidar_depth"])
        XCTAssertEqual(summary.cameras[1].lookupTableSamples, 3)
        XCTAssertEqual(summary.cameras[2].kind, .lidar)
        let t = try rig.cameraFromReference("lidar_depth", unit: .millimetre)
        XCTAssertEqual(summary.pairs[1].baselineMillimetres, t.baseline)
        XCTAssertTrue(summary.text.contains("camera lidar_depth (lidar)"))
        XCTAssertTrue(summary.text.contains("RMS reprojection error: wide 0.500 px, stereo 0.700 px"))
    }
}
