import DualcamImaging
import DualcamCalibrationFiles
import DualcamGeometry

extension BoardTarget {
    /// A chessboard bitmap of the printed area at `pixelsPerSquare`: the
    /// square touching the first inner corner's top-left is black.
    public func chessboardBitmap(pixelsPerSquare p: Int = 32) -> Bitmap? {
        guard case let .chessboard(columns, rows) = kind else { return nil }
        let squaresX = columns + 1, squaresY = rows + 1
        let width = (squaresX + 2) * p, height = (squaresY + 2) * p
        var pixels = [UInt8](repeating: 255, count: width * height)
        for b in 0..<squaresY {
            for a in 0..<squaresX where (a + b) % 2 == 0 {
                for y in ((b + 1) * p)..<((b + 2) * p) {
                    for x in ((a + 1) * p)..<((a + 2) * p) { pixels[y * width + x] = 0 }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The scene object for the board at pose `worldFromBoard` (metres), showing `bitmap`.
    public func sceneObject(worldFromBoard pose: RigidTransform, bitmap: Bitmap) -> SceneObject {
        let area = printedArea
        let centre = Vector3((area.x0 + area.x1) / 2, (area.y0 + area.y1) / 2, 0)
        let r = pose.rotation.matrix
        return SceneObject(
            name: "board",
            shape: .rectangle(center: pose.apply(centre), normal: r * Vector3(0, 0, 1), uAxis: r * Vector3(1, 0, 0),
                              halfWidth: (area.x1 - area.x0) / 2, halfHeight: (area.y1 - area.y0) / 2),
            appearance: .bitmap(bitmap))
    }
}

/// Bitmaps of calibration boards for the renderer.
enum BoardBitmaps {
    /// A ChArUco board drawn by OpenCV (its own marker dictionaries) at
    /// `pixelsPerSquare`, spanning exactly the printed area.
    static func charuco(_ board: BoardTarget, pixelsPerSquare: Int = 80) throws -> Bitmap {
        guard case let .charuco(squaresX, squaresY, markerSize, dictionary) = board.kind else {
            preconditionFailure("charuco bitmap requested for \(board.kind)")
        }
        let image = try ImageOps.renderCharucoBoard(
            ImageOps.CharucoBoard(dictionary: dictionary, squaresX: squaresX, squaresY: squaresY,
                                  squareLength: board.squareSize, markerLength: markerSize),
            width: squaresX * pixelsPerSquare, height: squaresY * pixelsPerSquare)
        return Bitmap(width: image.width, height: image.height, pixels: try image.pixels(as: UInt8.self))
    }
}
