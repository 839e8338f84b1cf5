import DualcamOpenCV
import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSupport

/// Finds a `BoardTarget` in images with OpenCV (chessboard:
/// cv::findChessboardCorners; ChArUco: cv::aruco marker detection and corner
/// interpolation), both followed by cv::cornerSubPix refinement in the shim.
public struct PatternDetector: Sendable {
    public let target: BoardTarget
    /// cornerSubPix half-window in pixels (window 2 h + 1).
    public var halfWindow: Int
    /// A ChArUco view needs at least this many corners to be used.
    public static let minimumCharucoCorners = 6

    /// Checks the target before any image is read: a ChArUco dictionary
    /// OpenCV does not know is an error naming the pattern and listing the
    /// accepted dictionaries.
    public init(target: BoardTarget, halfWindow: Int = 5) throws {
        self.target = target
        self.halfWindow = halfWindow
        if let board = charucoBoard {
            do {
                let ratio = Double(board.squaresY) / Double(board.squaresX)
                _ = try CVCalibrationPatterns.renderCharucoBoard(board, width: 20 * board.squaresX,
                                                                 height: Int((20 * Double(board.squaresX) * ratio).rounded()))
            } catch let error as DualcamError {
                guard case let .openCV(_, message) = error else { throw error }
                throw DualcamError.invalidValue(name: "pattern ChArUco dictionary '\(board.dictionary)'", reason: message)
            }
        }
    }

    var charucoBoard: CVCharucoBoard? {
        guard case let .charuco(squaresX, squaresY, markerSize, dictionary) = target.kind else { return nil }
        return CVCharucoBoard(dictionary: dictionary, squaresX: squaresX, squaresY: squaresY,
                              squareLength: target.squareSize, markerLength: markerSize)
    }

    /// The corners found in `image`, or nil with nothing (or too little) found.
    public func detect(in image: Image) throws -> BoardObservation? {
        switch target.kind {
        case let .chessboard(columns, rows):
            guard let corners = try ImageOps.findChessboardCorners(in: image, columns: columns, rows: rows,
                                                                   halfWindow: halfWindow) else { return nil }
            return BoardObservation(cornerIndices: Array(corners.indices), pixels: corners.map { Vector2($0.x, $0.y) })
        case .charuco:
            let corners = try ImageOps.detectCharucoCorners(in: image, board: charucoBoard!)
            guard corners.count >= Self.minimumCharucoCorners else { return nil }
            return BoardObservation(cornerIndices: corners.map(\.id), pixels: corners.map { Vector2($0.x, $0.y) })
        }
    }

    /// What `detect` reports for a view where the target was not found.
    public var notFoundReason: String {
        switch target.kind {
        case let .chessboard(columns, rows): return "no \(columns)x\(rows) chessboard found"
        case .charuco: return "fewer than \(Self.minimumCharucoCorners) ChArUco corners found"
        }
    }
}
