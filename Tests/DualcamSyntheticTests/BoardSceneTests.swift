import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import TestSupport
import XCTest

/// The `board` scene: calibration views whose rendered boards OpenCV detects
/// where `BoardGroundTruth` says the corners are, in both cameras.
final class BoardSceneTests: XCTestCase {
    static let size = PixelSize(width: 640, height: 480)

    static func dataset(board: BoardTarget, views: Int, seed: UInt64, render: RenderOptions,
                        size: PixelSize = size) throws -> SynthDataset {
        var spec = SynthSpec(sceneName: "board", calibration: try NominalDevice.load(), size: size)
        spec.board = board
        spec.boardViews = views
        spec.sceneOptions.seed = seed
        spec.render = render
        return try Synthesizer.make(spec)
    }

    static let chessboard = BoardTarget(kind: .chessboard(columns: 9, rows: 6), squareSize: 0.025)

    /// Three chessboard views, rendered once for the tests that use them.
    ///
    /// 3 x 3 *jittered* samples per pixel: with a regular n x n grid the
    /// coverage of an edge is quantised to multiples of 1/n along the whole
    /// edge when the edge is nearly parallel to a pixel axis, which biases a
    /// corner by up to 1 / (2n) px (measured: 0.2 px RMS at 2 x 2 and 0.15 px
    /// at 3 x 3 for a view rolled by a few degrees, 0.05 px for oblique ones).
    /// Jitter turns that bias into noise that the corner refinement averages:
    /// 0.08-0.12 px RMS for every pose.
    static let chessboardViews = Result {
        try dataset(board: chessboard, views: 3, seed: 1, render: RenderOptions(samplesPerAxis: 3, jitter: true))
    }

    static func rms(_ detected: [(x: Double, y: Double)], _ truth: [Vector2]) -> Double {
        let sum = zip(detected, truth).map { ($0.x - $1.x) * ($0.x - $1.x) + ($0.y - $1.y) * ($0.y - $1.y) }.reduce(0, +)
        return (sum / Double(truth.count)).squareRoot()
    }

    /// 9x6 inner corners, 25 mm squares (10 x 7 squares, top-left black): found
    /// in every view by both cameras, in the ground truth's order, within 0.15 px RMS.
    ///
    /// Order: with one even and one odd number of squares the board has no
    /// half-turn symmetry, and OpenCV orders the corners by the colouring
    /// (`ImageOps.findChessboardCorners`): corner 0 is the inner corner of the
    /// top-left black square, rows along the board's x axis, which is
    /// `BoardTarget.cornerPoints`' order whatever the pose's roll (up to 15
    /// degrees here), so no view needs its list reversed (checked: the
    /// reversed list is far off).
    func testChessboardViewsAreDetectedAtTheGroundTruthCorners() throws {
        let dataset = try Self.chessboardViews.get()
        let rig = dataset.calibration.rig
        XCTAssertEqual(dataset.pairs.count, 3)
        XCTAssertEqual(try rig.camera(.wide).size, Self.size)
        XCTAssertEqual(try rig.camera(.tele).size, Self.size)
        for (index, pair) in dataset.pairs.enumerated() {
            let pose = try XCTUnwrap(pair.boardPose)
            for view in [pair.wide, pair.tele] {
                let truth = try BoardGroundTruth.corners(of: Self.chessboard, worldFromBoard: pose, camera: view.camera, rig: rig)
                XCTAssertEqual(truth.count, 54)
                let found = try ImageOps.findChessboardCorners(in: view.image, columns: 9, rows: 6)
                guard let found else {
                    XCTFail("view \(index): no chessboard found in \(view.camera)")
                    continue
                }
                let rms = Self.rms(found, truth)
                let reversed = Self.rms(found, truth.reversed())
                print("board view \(index) \(view.camera): corner RMS \(String(format: "%.4f", rms)) px (reversed order \(String(format: "%.1f", reversed)) px)")
                XCTAssertLessThanOrEqual(rms, 0.15, "view \(index), \(view.camera): detected corners are \(rms) px RMS off")
                XCTAssertGreaterThan(reversed, 10, "the order is not ambiguous")
            }
        }
    }

    /// A ChArUco board of 7 x 5 squares (30 mm, 22 mm DICT_5X5_100 markers):
    /// OpenCV finds its corners in every view, each id where
    /// `BoardTarget.cornerPoints[id]` projects. OpenCV 4.6 numbers the corners
    /// row by row from the top-left inner corner of the drawn board, with
    /// `CharucoBoard::chessboardCorners[id]` = ((id % 6 + 1) s, (id / 6 + 1) s, 0),
    /// y down the board: the same numbering and coordinates as `cornerPoints`.
    ///
    /// Tolerances: the numbering is what matters here (a wrong id is at least
    /// one square, >= 10 px, away, and every detection's nearest ground-truth
    /// corner must be its own). The positions are less precise than the
    /// chessboard's: the ChArUco refinement window stops 2 px short of the
    /// nearest marker corner (a 5-9 px window here instead of 11 px), so
    /// anti-aliasing steps average out less (measured 0.13-0.30 px RMS at
    /// 2 x 2 samples, independent of the camera).
    func testCharucoViewsAreDetectedWithGroundTruthIds() throws {
        let board = try BoardTarget(parsing: "charuco:7x5:30mm:22mm:DICT_5X5_100")
        XCTAssertEqual(board.cornerPoints[0], Vector3(0.03, 0.03, 0))
        XCTAssertEqual(board.cornerPoints[7], Vector3(0.06, 0.06, 0))
        // 800x600: at 640x480 the wide sees squares of 10 px and markers of 1 px per bit, too few for a clean decode.
        let dataset = try Self.dataset(board: board, views: 2, seed: 2, render: RenderOptions(samplesPerAxis: 2),
                                       size: PixelSize(width: 800, height: 600))
        XCTAssertEqual(dataset.pairs.count, 2)
        let rig = dataset.calibration.rig
        let cv = ImageOps.CharucoBoard(dictionary: "DICT_5X5_100", squaresX: 7, squaresY: 5, squareLength: 0.03,
                                       markerLength: 0.022)
        for (index, pair) in dataset.pairs.enumerated() {
            let pose = try XCTUnwrap(pair.boardPose)
            for view in [pair.tele, pair.wide] {
                let label = "view \(index), \(view.camera)"
                let truth = try BoardGroundTruth.corners(of: board, worldFromBoard: pose, camera: view.camera, rig: rig)
                XCTAssertEqual(truth.count, 24)
                let found = try ImageOps.detectCharucoCorners(in: view.image, board: cv)
                XCTAssertEqual(Set(found.map(\.id)).count, found.count, "\(label): ids are unique")
                // Tele sees the board at twice the wide's scale: every corner; the wide most of them.
                XCTAssertGreaterThanOrEqual(found.count, view.camera == .tele ? 24 : 16, "\(label): \(found.count) of 24 corners")
                guard !found.isEmpty, found.allSatisfy({ (0..<24).contains($0.id) }) else {
                    XCTFail("\(label): bad ids \(found.map(\.id))")
                    continue
                }
                for corner in found {
                    let nearest = truth.indices.min {
                        hypot(truth[$0].x - corner.x, truth[$0].y - corner.y) < hypot(truth[$1].x - corner.x, truth[$1].y - corner.y)
                    }!
                    XCTAssertEqual(nearest, corner.id, "\(label): corner \(corner.id) detected at ground-truth corner \(nearest)")
                    let error = hypot(truth[corner.id].x - corner.x, truth[corner.id].y - corner.y)
                    XCTAssertLessThanOrEqual(error, 1, "\(label): corner \(corner.id) is \(error) px off")
                }
                let rms = Self.rms(found.map { (x: $0.x, y: $0.y) }, found.map { truth[$0.id] })
                print("charuco \(label): \(found.count) corners, RMS \(String(format: "%.4f", rms)) px")
                XCTAssertLessThanOrEqual(rms, 0.35, "\(label): ChArUco corners are \(rms) px RMS off")
            }
        }
    }

    /// Poses differ from view to view (and with the seed), and the whole
    /// printed board lies inside both images: its outline projects inside
    /// with BoardPoses' 2 % margin, and in the rendered views the board's
    /// pixels never touch the image border.
    func testPosesDifferAndBoardsLieInsideBothImages() throws {
        let board = Self.chessboard
        let rig = try Synthesizer.scaledRig(try NominalDevice.load().rig, to: Self.size)
        let poses = try BoardPoses.sample(count: 10, target: board, rig: rig, seed: 5)
        XCTAssertEqual(poses.count, 10)
        for i in 0..<poses.count {
            for j in (i + 1)..<poses.count {
                let dt = (poses[i].translation - poses[j].translation).norm
                let dr = (poses[i].rotation.matrix * poses[j].rotation.matrix.transposed).rowMajor
                let angle = acos(max(-1, min(1, (dr[0] + dr[4] + dr[8] - 1) / 2)))
                XCTAssertTrue(dt > 0.005 && angle > 0.01, "poses \(i) and \(j) are nearly the same: \(dt) m, \(angle) rad")
            }
        }
        XCTAssertEqual(try BoardPoses.sample(count: 10, target: board, rig: rig, seed: 5), poses, "deterministic")
        XCTAssertNotEqual(try BoardPoses.sample(count: 10, target: board, rig: rig, seed: 6), poses)

        let area = board.printedArea
        let outline = (0...20).flatMap { k -> [Vector3] in
            let s = Double(k) / 20
            let x = area.x0 + s * (area.x1 - area.x0), y = area.y0 + s * (area.y1 - area.y0)
            return [Vector3(x, area.y0, 0), Vector3(x, area.y1, 0), Vector3(area.x0, y, 0), Vector3(area.x1, y, 0)]
        }
        var widths: [Double] = []
        for pose in poses {
            for camera in [FrameName.wide, .tele] {
                let model = try rig.camera(camera).model
                let cameraFromWorld = try rig.transform(from: .wide, to: camera, unit: .metre)
                var xs: [Double] = []
                for p in outline {
                    let q = try XCTUnwrap(try model.project(cameraFromWorld.apply(pose.apply(p))))
                    XCTAssertTrue(q.x >= 0.02 * 640 - 1e-9 && q.y >= 0.02 * 480 - 1e-9 && q.x <= 639 - 0.02 * 640 + 1e-9
                                  && q.y <= 479 - 0.02 * 480 + 1e-9, "board point at \(q) outside \(camera)")
                    xs.append(q.x)
                }
                if camera == .tele { widths.append(xs.max()! - xs.min()!) }
            }
        }
        // The board fills a good part of the narrow (tele) view: 40-75 % of its
        // width when seen square on, somewhat less when turned.
        XCTAssertGreaterThan(widths.min()!, 0.25 * 640)
        XCTAssertLessThan(widths.max()!, 0.8 * 640)

        // In the rendered dataset the board's pixels (object 0) never touch the image border.
        let dataset = try Self.chessboardViews.get()
        let datasetPoses = dataset.pairs.compactMap(\.boardPose)
        XCTAssertEqual(datasetPoses.count, 3)
        XCTAssertEqual(Set(datasetPoses.map(\.translation.x)).count, 3, "each view has its own pose")
        for pair in dataset.pairs {
            for view in [pair.wide, pair.tele] {
                let (w, h) = (view.size.width, view.size.height)
                let border = view.objectIDs.indices.filter { i in
                    (i % w == 0 || i % w == w - 1 || i / w == 0 || i / w == h - 1) && view.objectIDs[i] == 0
                }
                XCTAssertEqual(border.count, 0, "\(view.camera): the board touches the image border")
                // Board at 40-75 % of the tele width (before turning), half that in the wide.
                let share = view.camera == .tele ? 12 : 40
                XCTAssertGreaterThan(view.objectIDs.filter { $0 == 0 }.count, w * h / share, "\(view.camera): the board is large")
            }
        }
    }
}
