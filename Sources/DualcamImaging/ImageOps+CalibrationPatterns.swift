import DualcamOpenCV

/// Calibration targets on `Image`s, by way of `CVCalibrationPatterns`.
/// Image coordinates have pixel centres at integers (OpenCV's convention).
extension ImageOps {
    public typealias CharucoBoard = CVCharucoBoard

    /// Renders `board` as a `width` x `height` uint8 1-channel image (0 black,
    /// 255 white) spanning exactly the board (no margin; the size must have the
    /// board's aspect ratio within 1 pixel). With s = width / squaresX whole
    /// pixels per square, inner corners lie at (k s - 0.5, l s - 0.5).
    public static func renderCharucoBoard(
        _ board: CharucoBoard, width: Int, height: Int, borderBits: Int = 1
    ) throws -> Image {
        try Image(try CVCalibrationPatterns.renderCharucoBoard(board, width: width, height: height,
                                                               borderBits: borderBits))
    }

    /// Detects `board`'s ChArUco corners in a uint8 image (colour images are
    /// converted to grey first). Returns each corner's id (see `CVCharucoBoard`)
    /// and position; empty when none is found.
    public static func detectCharucoCorners(
        in image: Image, board: CharucoBoard
    ) throws -> [(id: Int, x: Double, y: Double)] {
        try CVCalibrationPatterns.detectCharucoCorners(in: try grayMat(image), board: board)
    }

    /// Finds the `columns` x `rows` inner corners of a chessboard in a uint8
    /// image (colour images are converted to grey first), refined to sub-pixel
    /// accuracy. Returns them in OpenCV's order (row by row, `columns` per
    /// row) or nil when the board is not found. A corner where squares meet
    /// between pixel columns c - 1 and c lies at x = c - 0.5. See
    /// `CVCalibrationPatterns.findChessboardCorners` for the order on rotated
    /// boards (use one odd and one even number of squares).
    public static func findChessboardCorners(
        in image: Image, columns: Int, rows: Int, halfWindow: Int = 5
    ) throws -> [(x: Double, y: Double)]? {
        try CVCalibrationPatterns.findChessboardCorners(in: try grayMat(image), columns: columns, rows: rows,
                                                        halfWindow: halfWindow)
    }

    private static func grayMat(_ image: Image) throws -> CVMat {
        let mat = try image.makeCVMat()
        return image.channels == 1 ? mat : try CVImgproc.convertToGray(mat)
    }
}
