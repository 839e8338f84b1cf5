import DualcamCalibrationSolver
import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import Foundation
import TestSupport
import XCTest

/// The image path with ChArUco boards: views of a distortion-free rig made
/// with OpenCV (the board rendered once, then warped into each camera by its
/// plane homography, which is exact for a pinhole camera and fast in debug
/// builds), written as a pair directory, detected (partial views included)
/// and calibrated.
final class CharucoPairsTests: XCTestCase {
    static let size = PixelSize(width: 1008, height: 756)

    static func rig() throws -> Rig {
        func camera(_ name: FrameName, _ f: Double) throws -> RigCamera {
            RigCamera(name: name, model: CameraModel(intrinsics: try Intrinsics(fx: f, fy: f, cx: 503.2, cy: 377.9,
                                                                                referenceSize: size)))
        }
        let teleFromWide = try RigidTransform(rotation: Rotation(axis: Vector3(0.3, 1, 0.1), angle: Angle.radians(0.2)),
                                              translation: Vector3(-10, 0.1, 0), unit: .millimetre, from: .wide, to: .tele)
        return try Rig(reference: .wide, cameras: [try camera(.wide, 750), try camera(.tele, 1500)], extrinsics: [teleFromWide])
    }

    /// Writes `count` pair images of `target` into `directory`.
    static func writeViews(_ target: BoardTarget, count: Int, rig: Rig, to directory: URL) throws {
        guard case let .charuco(squaresX, squaresY, marker, dictionary) = target.kind else { return XCTFail("not ChArUco") }
        let perSquare = 60
        let board = try ImageOps.renderCharucoBoard(
            ImageOps.CharucoBoard(dictionary: dictionary, squaresX: squaresX, squaresY: squaresY,
                                  squareLength: target.squareSize, markerLength: marker),
            width: perSquare * squaresX, height: perSquare * squaresY)
        // Render pixel (u, v) -> board metres ((u + 0.5) m, (v + 0.5) m), m = square / pixels per square.
        let m = target.squareSize / Double(perSquare)
        let boardFromRender = Matrix3(rows: Vector3(m, 0, 0.5 * m), Vector3(0, m, 0.5 * m), Vector3(0, 0, 1))
        for (index, pose) in try BoardPoses.sample(count: count, target: target, rig: rig, seed: 3).enumerated() {
            for camera in [FrameName.wide, .tele] {
                let cameraFromBoard = try rig.transform(from: .wide, to: camera, unit: .metre).composed(after: pose)
                let r = cameraFromBoard.rotation.matrix, t = cameraFromBoard.translation
                let k = try rig.camera(camera).model.intrinsics.matrix
                let h = k * Matrix3(rows: Vector3(r[0, 0], r[0, 1], t.x), Vector3(r[1, 0], r[1, 1], t.y),
                                    Vector3(r[2, 0], r[2, 1], t.z)) * boardFromRender
                let view = try ImageOps.warpPerspective(board, homography: h.rowMajor, width: size.width, height: size.height,
                                                        border: .constant(value: 200))
                try ImageIO.write(view, to: directory.appendingPathComponent(String(format: "%@_%02d.png", camera.rawValue, index)))
            }
        }
    }

    func testCharucoPairDirectory() throws {
        let dir = try TemporaryDirectory()
        let target = try BoardTarget(parsing: "charuco:8x6:30mm:22mm:DICT_5X5_100")
        let rig = try Self.rig()
        try Self.writeViews(target, count: 8, rig: rig, to: dir.url)
        // Ignored and unpaired files.
        try "notes".write(to: dir.path("notes.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: dir.path("wide_00.png"), to: dir.path("wide_17.png"))

        let observations = try CalibrationSources(pairsDirectory: dir.url).observations(detector: try PatternDetector(target: target))
        XCTAssertEqual(observations.pairs.count, 8)
        XCTAssertEqual(observations.dropped, [DroppedView(view: "wide_17.png", reason: "no tele/right image with index 17")])
        let result = try RigCalibrator().calibrate(observations)
        XCTAssertEqual(result.report.pairsUsed, 8)
        XCTAssertLessThan(result.report.stereoRMS, 0.3)
        for name in [FrameName.wide, .tele] {
            let truth = try rig.camera(name).model.intrinsics, got = try result.calibration.rig.camera(name).model.intrinsics
            XCTAssertEqual(got.fx / truth.fx, 1, accuracy: 0.01, "\(name) fx \(got.fx)")
            XCTAssertEqual(got.cx, truth.cx, accuracy: 5, "\(name) cx")
        }
        let t = try result.calibration.rig.transform(from: .wide, to: .tele, unit: .millimetre)
        XCTAssertEqual(t.baseline, 10, accuracy: 0.3)
        XCTAssertLessThan((t.rotation * (try rig.transform(from: .wide, to: .tele)).rotation.inverse).angleDegrees, 0.1)
    }

    func testUnknownDictionaryFailsBeforeReadingImages() throws {
        let target = try BoardTarget(parsing: "charuco:8x6:30mm:22mm:DICT_9X9_1")
        XCTAssertThrowsError(try PatternDetector(target: target)) { error in
            XCTAssertTrue("\(error)".contains("DICT_9X9_1"), "\(error)")
            XCTAssertTrue("\(error)".contains("DICT_5X5_100"), "lists the accepted ones: \(error)")
        }
    }

    func testPairNames() throws {
        let dir = try TemporaryDirectory()
        for name in ["wide_00.png", "tele_00.png", "left1.jpg", "right01.JPG", "tele-2.tif", "wide_x.png", "wide.png",
                     "readme.txt", "tele_03.bmp"] {
            try Data().write(to: dir.path(name))
        }
        let (pairs, unpaired) = try CalibrationInput.pairs(inDirectory: dir.url)
        XCTAssertEqual(pairs.map(\.name), ["0", "1"])
        XCTAssertEqual(pairs.map(\.wide.lastPathComponent), ["wide_00.png", "left1.jpg"])
        XCTAssertEqual(pairs.map(\.tele.lastPathComponent), ["tele_00.png", "right01.JPG"])
        XCTAssertEqual(unpaired.map(\.view), ["tele-2.tif"])

        try Data().write(to: dir.path("left00.png"))
        XCTAssertThrowsError(try CalibrationInput.pairs(inDirectory: dir.url)) { error in
            XCTAssertTrue("\(error)".contains("both have index 0"), "\(error)")
        }
    }
}
