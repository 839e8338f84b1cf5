import DualcamGeometry
import DualcamSupport

/// A planar calibration target: a chessboard or a ChArUco board.
///
/// Board coordinates (metres): x along the columns, y along the rows (down
/// the printed image), z = 0 on the board; inner corner (i, j) of a
/// chessboard with `columns` x `rows` inner corners is at (i s, j s, 0),
/// s = square size, numbered row by row (OpenCV's object-point order). A
/// ChArUco board of `squaresX` x `squaresY` squares has its inner corners at
/// ((i + 1) s, (j + 1) s, 0), ids row by row from the top left.
///
/// Both match OpenCV 4.6 (checked against the installed library): its
/// `CharucoBoard::chessboardCorners[id]` is ((id % (squaresX - 1) + 1) s,
/// (id / (squaresX - 1) + 1) s, 0), y down the board, and `CharucoBoard::draw`
/// puts the top-left square (black) at the image's top left, so ChArUco id k
/// detected in an image is `cornerPoints[k]`, numbered from the top-left
/// inner corner. Chessboard detections come in `cornerPoints` order when the
/// board has one odd and one even number of squares (see
/// `ImageOps.findChessboardCorners`).
public struct BoardTarget: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// `columns` x `rows` inner corners ((columns + 1) x (rows + 1) squares).
        case chessboard(columns: Int, rows: Int)
        /// `squaresX` x `squaresY` squares with ArUco markers of `markerSize`
        /// metres from OpenCV's dictionary `dictionary` (e.g. DICT_5X5_100).
        case charuco(squaresX: Int, squaresY: Int, markerSize: Double, dictionary: String)
    }

    public var kind: Kind
    /// Square side in metres.
    public var squareSize: Double

    public init(kind: Kind, squareSize: Double) {
        self.kind = kind
        self.squareSize = squareSize
    }

    /// The inner corners in board coordinates, in OpenCV's order.
    public var cornerPoints: [Vector3] {
        let s = squareSize
        switch kind {
        case let .chessboard(columns, rows):
            return (0..<rows).flatMap { j in (0..<columns).map { i in Vector3(Double(i) * s, Double(j) * s, 0) } }
        case let .charuco(squaresX, squaresY, _, _):
            return (0..<(squaresY - 1)).flatMap { j in
                (0..<(squaresX - 1)).map { i in Vector3(Double(i + 1) * s, Double(j + 1) * s, 0) }
            }
        }
    }

    /// The printed area in board coordinates (x0, y0, x1, y1), including a
    /// one-square white margin around a chessboard (detectors need it).
    public var printedArea: (x0: Double, y0: Double, x1: Double, y1: Double) {
        let s = squareSize
        switch kind {
        case let .chessboard(columns, rows):
            return (-2 * s, -2 * s, Double(columns + 1) * s, Double(rows + 1) * s)
        case let .charuco(squaresX, squaresY, _, _):
            return (0, 0, Double(squaresX) * s, Double(squaresY) * s)
        }
    }
}

extension BoardTarget {
    /// The accepted pattern syntax, for error messages.
    public static let syntax = "chessboard:COLSxROWS:SQUARE (inner corners, e.g. chessboard:9x6:25mm) or charuco:COLSxROWS:SQUARE:MARKER:DICT (squares, e.g. charuco:8x6:30mm:22mm:DICT_5X5_100)"

    /// Parses `chessboard:9x6:25mm` or `charuco:8x6:30mm:22mm:DICT_5X5_100`;
    /// sizes take a length unit (m, cm, mm, ft, in).
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":").map(String.init)
        func fail(_ why: String) -> DualcamError {
            DualcamError.invalidValue(name: "pattern '\(text)'", reason: "\(why); expected \(BoardTarget.syntax)")
        }
        func dims(_ s: String) throws -> (Int, Int) {
            // Exactly two integers: no empty or junk fields (9xx6, 9x6xjunk).
            let d = s.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard d.count == 2, let c = d[0], let r = d[1], c >= 2, r >= 2 else {
                throw fail("'\(s)' is not COLSxROWS with both at least 2")
            }
            guard c <= InputLimits.maxBoardSide, r <= InputLimits.maxBoardSide else {
                throw fail("'\(s)' exceeds the limit of \(InputLimits.maxBoardSide) per side (InputLimits.maxBoardSide)")
            }
            return (c, r)
        }
        func length(_ s: String) throws -> Double {
            guard let d = try? Distance(parsing: s), !d.isInfinite else { throw fail("'\(s)' is not a length with a unit") }
            return d.metres
        }
        guard let kind = parts.first?.lowercased() else { throw fail("empty pattern") }
        switch kind {
        case "chessboard":
            guard parts.count == 3 else { throw fail("a chessboard needs 3 fields") }
            let (c, r) = try dims(parts[1])
            self.init(kind: .chessboard(columns: c, rows: r), squareSize: try length(parts[2]))
        case "charuco":
            guard parts.count == 5 else { throw fail("a ChArUco board needs 5 fields") }
            let (c, r) = try dims(parts[1])
            let square = try length(parts[2]), marker = try length(parts[3])
            guard marker < square else { throw fail("the marker must be smaller than the square") }
            self.init(kind: .charuco(squaresX: c, squaresY: r, markerSize: marker, dictionary: parts[4].uppercased()),
                      squareSize: square)
        default:
            throw fail("unknown pattern kind '\(parts[0])'")
        }
    }
}
