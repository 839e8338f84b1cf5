import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSupport
import Foundation

/// The ground truth of board views (`board.json`): the target, and per view
/// its pose and the exact pixel positions of the inner corners in each camera
/// (projected through the rig's camera models, distortion included; OpenCV's
/// pixel convention: pixel centres at integer coordinates).
public enum BoardGroundTruth {
    struct Target: Encodable {
        var kind: String
        var columns: Int?
        var rows: Int?
        var squaresX: Int?
        var squaresY: Int?
        var squareSizeMetres: Double
        var markerSizeMetres: Double?
        var dictionary: String?
        var cornerOrder = "row by row from the top-left inner corner (OpenCV's object-point order)"
    }

    struct View: Encodable {
        var index: Int
        var images: [String: String]
        /// worldFromBoard: X_world = R X_board + t, metres.
        var rotation: [Double]
        var translationMetres: [Double]
        var corners: [String: [[Double]]]
    }

    struct Document: Encodable {
        var target: Target
        var views: [View]
    }

    /// Pixel positions of `target`'s inner corners in `camera` for the pose `worldFromBoard`.
    public static func corners(of target: BoardTarget, worldFromBoard pose: RigidTransform, camera: FrameName,
                               rig: Rig) throws -> [Vector2] {
        let cameraFromWorld = try rig.transform(from: rig.reference, to: camera, unit: .metre)
        let model = try rig.camera(camera).model
        return try target.cornerPoints.map { p in
            guard let pixel = try model.project(cameraFromWorld.apply(pose.apply(p))) else {
                throw DualcamError.invalidGeometry("a board corner is behind the \(camera) camera")
            }
            return pixel
        }
    }

    static func write(_ dataset: SynthDataset, to url: URL) throws {
        let board = dataset.spec.board
        var target: Target
        switch board.kind {
        case let .chessboard(columns, rows):
            target = Target(kind: "chessboard", columns: columns, rows: rows, squareSizeMetres: board.squareSize)
        case let .charuco(squaresX, squaresY, markerSize, dictionary):
            target = Target(kind: "charuco", squaresX: squaresX, squaresY: squaresY, squareSizeMetres: board.squareSize,
                            markerSizeMetres: markerSize, dictionary: dictionary)
        }
        let many = dataset.pairs.count > 1
        var views: [View] = []
        for (index, pair) in dataset.pairs.enumerated() {
            guard let pose = pair.boardPose else { continue }
            var corners: [String: [[Double]]] = [:]
            var images: [String: String] = [:]
            for camera in [Synthesizer.wide, Synthesizer.tele] {
                corners[camera.rawValue] = try Self.corners(of: board, worldFromBoard: pose, camera: camera,
                                                            rig: dataset.calibration.rig).map { [$0.x, $0.y] }
                images[camera.rawValue] = many ? String(format: "%@_%03d.png", camera.rawValue, index) : "\(camera.rawValue).png"
            }
            let p = pose.converted(to: .metre)
            views.append(View(index: index, images: images, rotation: p.rotation.matrix.rowMajor,
                              translationMetres: [p.translation.x, p.translation.y, p.translation.z], corners: corners))
        }
        try AtomicFile.write(try SynthWriter.json(Document(target: target, views: views)), to: url)
    }
}
