import DualcamCalibrationFiles
import DualcamSupport
import Foundation
import TestSupport
import XCTest

/// Bad calibration input: every error is one line naming the file and the problem.
final class CalibrationValidationTests: XCTestCase {
    let nominal = NominalDevice.yaml
    let path = "/data/bad-calibration.yaml"

    func decode(_ text: String) throws { _ = try CalibrationFile(yaml: text, path: path) }

    func replacing(_ old: String, _ new: String) -> String {
        precondition(nominal.contains(old), "fixture text not found: \(old)")
        return nominal.replacingOccurrences(of: old, with: new)
    }

    let rotationLine = "rotation: [0.9999942585991619, 0.0005040736549721407, 0.0033509220317507952, -0.0005012661239999716, 0.9999995227197347, -0.0008386254084350778, -0.003351343161396621, 0.0008369408898517762, 0.9999940339966842]"

    func testNonOrthonormalRotation() {
        let bad = replacing(rotationLine, "rotation: [1, 0.01, 0, 0, 1, 0, 0, 0, 1]")
        assertOneLineError(path, ["extrinsics.tele_from_wide.rotation", "not orthonormal"]) { try decode(bad) }
    }

    func testReflectionIsNotARotation() {
        let bad = replacing(rotationLine, "rotation: [1, 0, 0, 0, 1, 0, 0, 0, -1]")
        assertOneLineError(path, ["extrinsics.tele_from_wide.rotation", "determinant"]) { try decode(bad) }
    }

    func testNaNAndInfinity() {
        assertOneLineError(path, ["cameras[0].intrinsics.fx", "finite", "line 18"]) { try decode(replacing("fx: 3000.0", "fx: .nan")) }
        assertOneLineError(path, ["translation[1]", "finite"]) {
            try decode(replacing("translation: [-10.0, 0.1, 0.0]", "translation: [-10.0, .inf, 0.0]"))
        }
        assertOneLineError(path, ["cameras[0].distortion.k2", "finite"]) { try decode(replacing("k2: 0.062", "k2: -.inf")) }
    }

    func testMissingField() {
        assertOneLineError(path, ["missing field 'cameras[1].intrinsics.fy'"]) { try decode(replacing("    fy: 6000.0\n", "")) }
        assertOneLineError(path, ["missing field 'provenance'"]) {
            try decode(String(nominal[..<nominal.range(of: "provenance:")!.lowerBound]))
        }
        let noExtrinsics = String(nominal[..<nominal.range(of: "extrinsics:")!.lowerBound])
            + String(nominal[nominal.range(of: "provenance:")!.lowerBound...])
        assertOneLineError(path, ["missing field 'extrinsics.tele_from_wide'"]) { try decode(noExtrinsics) }
        assertOneLineError(path, ["extrinsics.wide_from_wide", "e.g. 'tele_from_wide'"]) {
            try decode(replacing("tele_from_wide:", "wide_from_wide:"))
        }
    }

    func testWrongTypes() {
        assertOneLineError(path, ["cameras[0].intrinsics.fx", "expected a number", "'abc'"]) { try decode(replacing("fx: 3000.0", "fx: abc")) }
        assertOneLineError(path, ["cameras[0].intrinsics.fx", "quoted"]) { try decode(replacing("fx: 3000.0", "fx: \"3000\"")) }
        assertOneLineError(path, ["image_size.width", "integer"]) { try decode(replacing("width: 4032", "width: 4032.5")) }
        assertOneLineError(path, ["translation", "list of 3 numbers"]) { try decode(replacing("[-10.0, 0.1, 0.0]", "[-10.0, 0.1]")) }
        assertOneLineError(path, ["line 3: cameras: expected a list, got '3'"]) {
            try decode("dualcam_calibration: 1\nreference: wide\ncameras: 3\nprovenance: {source: nominal}\n")
        }
    }

    func testVersion() {
        assertOneLineError(path, ["unsupported format version 2"]) { try decode(replacing("dualcam_calibration: 1", "dualcam_calibration: 2")) }
        assertOneLineError(path, ["missing field 'dualcam_calibration'"]) { try decode(replacing("dualcam_calibration: 1", "version: 1")) }
    }

    func testUnknownUnitModelKindSourceAndKeys() {
        assertOneLineError(path, ["unit", "unknown unit 'furlong'", "mm"]) { try decode(replacing("unit: mm", "unit: furlong")) }
        assertOneLineError(path, ["unknown distortion model 'fisheye'", "brown_conrady"]) {
            try decode(replacing("model: brown_conrady", "model: fisheye"))
        }
        assertOneLineError(path, ["unknown camera kind 'tof'"]) { try decode(replacing("kind: camera\n  image_size: {width: 4032, height: 3024}\n  intrinsics:\n    fx: 6000.0", "kind: tof\n  image_size: {width: 4032, height: 3024}\n  intrinsics:\n    fx: 6000.0")) }
        assertOneLineError(path, ["unknown source 'guessed'"]) { try decode(replacing("source: nominal", "source: guessed")) }
        assertOneLineError(path, ["unknown field 'fz'", "fx"]) { try decode(replacing("fx: 6000.0", "fz: 6000.0")) }
        assertOneLineError(path, ["unknown field 'comment'", "extra"]) { try decode(nominal + "comment: hi\n") }
        assertOneLineError(path, ["provenance.date", "ISO-8601"]) { try decode(replacing("\"2025-01-15\"", "15/01/2025")) }
    }

    func testExtrinsicsNamingUnknownCameras() {
        assertOneLineError(path, ["extrinsics.ultra_from_wide", "unknown camera", "wide, tele"]) {
            try decode(replacing("tele_from_wide:", "ultra_from_wide:"))
        }
        assertOneLineError(path, ["extrinsics.wide_from_tele", "reference camera 'wide'"]) {
            try decode(replacing("tele_from_wide:", "wide_from_tele:"))
        }
        assertOneLineError(path, ["reference camera 'ultra'"]) { try decode(replacing("reference: wide", "reference: ultra")) }
        assertOneLineError(path, ["duplicate camera name 'wide'"]) { try decode(replacing("- name: tele", "- name: wide")) }
    }

    func testTruncatedAndEmptyYAML() {
        let cut = String(nominal[..<nominal.range(of: "0.0005040736549721407")!.upperBound])
        assertOneLineError(path, ["not valid YAML", "line"]) { try decode(cut) }
        assertOneLineError(path, ["not valid YAML"]) { try decode("cameras: [unclosed\n  - x: {") }
        assertOneLineError(path, ["empty"]) { try decode("") }
        assertOneLineError(path, ["expected a dualcam calibration mapping"]) { try decode("- just\n- a list\n") }
    }

    func testMissingFileAndDirectory() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.path("nope.yaml")
        assertOneLineError(missing.path, ["no such file"]) { _ = try CalibrationFile.read(missing) }
        assertOneLineError(dir.url.path, ["directory"]) { _ = try CalibrationFile.read(dir.url) }
        assertOneLineError(missing.path, ["no such file"]) { _ = try CalibrationImport.read(missing) }
        do {
            _ = try CalibrationFile.read(missing)
        } catch let error as DualcamError {
            guard case .io = error else { return XCTFail("expected .io, got \(error)") }
        }
    }

    func testWriteIntoMissingDirectoryFails() throws {
        let dir = try TemporaryDirectory()
        let target = dir.path("no/such/dir/rig.yaml")
        assertOneLineError(target.path, ["does not exist"]) { try NominalDevice.load().write(to: target) }
    }
}
