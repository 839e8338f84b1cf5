import COpenCVShim
import DualcamSupport

/// A ChArUco board: `squaresX` x `squaresY` chessboard squares, the top-left
/// one black, with ArUco markers (ids 0, 1, ... row by row) in the white squares.
///
/// `dictionary` is an OpenCV name: DICT_4X4_50, DICT_4X4_100, DICT_4X4_250,
/// DICT_4X4_1000, the same for 5X5, 6X6 and 7X7, or DICT_ARUCO_ORIGINAL; an
/// unknown name is an error listing the accepted ones. Only the ratio
/// `markerLength / squareLength` (in (0, 1)) matters for images; the units
/// (e.g. metres) matter for calibration later.
///
/// ChArUco corner id i is the inner corner at column i % (squaresX - 1) and
/// row i / (squaresX - 1), counted from the top-left inner corner, i.e. at
/// ((column + 1) * squareLength, (row + 1) * squareLength) on the board.
public struct CVCharucoBoard: Sendable, Equatable {
    public var dictionary: String
    public var squaresX: Int
    public var squaresY: Int
    public var squareLength: Double
    public var markerLength: Double

    public init(dictionary: String, squaresX: Int, squaresY: Int, squareLength: Double, markerLength: Double) {
        self.dictionary = dictionary
        self.squaresX = squaresX
        self.squaresY = squaresY
        self.squareLength = squareLength
        self.markerLength = markerLength
    }

    /// Number of ChArUco (inner) corners: (squaresX - 1) * (squaresY - 1).
    public var cornerCount: Int { max(0, squaresX - 1) * max(0, squaresY - 1) }

    /// Calls `body` with the C description of the board.
    func withCBoard<R>(_ operation: String, _ body: (UnsafePointer<dc_charuco_board>) throws -> R) throws -> R {
        guard let x = Int32(exactly: squaresX), let y = Int32(exactly: squaresY) else {
            throw DualcamError.openCV(operation: operation, message: "board of \(squaresX)x\(squaresY) squares is too large")
        }
        return try dictionary.withCString { name in
            var board = dc_charuco_board(dictionary: name, squares_x: x, squares_y: y,
                                         square_length: squareLength, marker_length: markerLength)
            return try body(&board)
        }
    }
}

/// Calibration targets: rendering ChArUco boards and detecting ChArUco and
/// chessboard corners. Image coordinates have pixel centres at integers (OpenCV).
public enum CVCalibrationPatterns {
    /// Renders `board` as a `width` x `height` uint8 1-channel matrix (0 black,
    /// 255 white) without margin: the size must have the board's aspect ratio
    /// (height within 1 pixel of width * squaresY / squaresX). With a whole
    /// number s = width / squaresX of pixels per square, square (i, j) covers
    /// columns [i s, (i + 1) s) and rows [j s, (j + 1) s), so inner corners lie
    /// at (k s - 0.5, l s - 0.5). `borderBits` is the markers' black border in
    /// marker cells.
    public static func renderCharucoBoard(
        _ board: CVCharucoBoard, width: Int, height: Int, borderBits: Int = 1
    ) throws -> CVMat {
        let (cols, rows) = try CVImgproc.size(width, height, "ChArUco render")
        var handle: OpaquePointer?
        try board.withCBoard("ChArUco render") { spec in
            try Shim.call("ChArUco render") {
                dc_charuco_render(spec, cols, rows, Int32(clamping: borderBits), &handle, $0)
            }
        }
        return try CVMat(adopting: handle!)
    }

    /// Detects `board`'s markers (cv::aruco::detectMarkers) in a uint8 image
    /// with 1 or 3 (BGR) channels and interpolates the ChArUco corners from
    /// them (cv::aruco::interpolateCornersCharuco, at least 2 neighbouring
    /// markers per corner). Each corner is then refined with cv::cornerSubPix
    /// to 0.001 px (OpenCV 4.6 stops at 0.1 px), so corners of a sharp render
    /// land within 0.001 px of (k s - 0.5, l s - 0.5). Returns the corners
    /// found, in OpenCV's order, each with its id (see `CVCharucoBoard`);
    /// empty when none is found.
    public static func detectCharucoCorners(
        in image: CVMat, board: CVCharucoBoard
    ) throws -> [(id: Int, x: Double, y: Double)] {
        let capacity = board.cornerCount
        var ids = [Int32](repeating: 0, count: max(capacity, 1))
        var xy = [Double](repeating: 0, count: 2 * max(capacity, 1))
        var count: Int32 = 0
        try board.withCBoard("ChArUco detect") { spec in
            try Shim.call("ChArUco detect") {
                dc_charuco_detect(image.handle, spec, Int32(clamping: capacity), &ids, &xy, &count, $0)
            }
        }
        return (0..<Int(count)).map { (id: Int(ids[$0]), x: xy[2 * $0], y: xy[2 * $0 + 1]) }
    }

    /// Finds the `columns` x `rows` inner corners of a chessboard in a uint8
    /// image with 1 or 3 (BGR) channels (cv::findChessboardCorners with
    /// adaptive threshold and image normalization), refined with
    /// cv::cornerSubPix over a (2 `halfWindow` + 1)² window (to 0.001 px).
    /// Returns the corners in OpenCV's order (row by row, `columns` per row),
    /// or nil when the board is not found. The board needs a white margin
    /// around it, and corners within 8 pixels of the image edge make
    /// detection fail.
    ///
    /// A corner where squares meet between pixel columns c - 1 and c lies at
    /// x = c - 0.5 (pixel centres at integers). The order follows the board's
    /// colouring, not the image axes: with one odd and one even number of
    /// squares (e.g. 10 x 7 squares for 9 x 6 corners) and the top-left square
    /// black, corner 0 is the top-left inner corner with rows running left to
    /// right, and the same physical corner stays corner 0 when the board is
    /// rotated. Boards with both counts odd or both even look the same after a
    /// half turn, so their order is ambiguous.
    public static func findChessboardCorners(
        in image: CVMat, columns: Int, rows: Int, halfWindow: Int = 5
    ) throws -> [(x: Double, y: Double)]? {
        let (cols, rows32) = try CVImgproc.size(columns, rows, "findChessboardCorners")
        let capacity = max(columns, 0).multipliedReportingOverflow(by: max(rows, 0))
        guard !capacity.overflow, let capacity32 = Int32(exactly: capacity.partialValue) else {
            throw DualcamError.openCV(operation: "findChessboardCorners", message: "pattern \(columns)x\(rows) is too large")
        }
        var xy = [Double](repeating: 0, count: 2 * max(capacity.partialValue, 1))
        var found: Int32 = 0
        try Shim.call("findChessboardCorners") {
            dc_find_chessboard_corners(image.handle, cols, rows32, Int32(clamping: halfWindow), capacity32, &xy,
                                       &found, $0)
        }
        guard found != 0 else { return nil }
        return (0..<capacity.partialValue).map { (x: xy[2 * $0], y: xy[2 * $0 + 1]) }
    }
}
