import DualcamCalibrationFiles
import DualcamGeometry

/// Random but reproducible board poses for calibration views: every pose
/// shows the whole printed board, with a margin, in every camera of the rig.
public enum BoardPoses {
    /// `count` poses `worldFromBoard` (metres; world = the rig's reference
    /// camera). The board covers 40-75 % of the width of the narrowest camera
    /// (the one with the largest focal length), is tilted up to
    /// `maxTiltDegrees` about x and y and rolled up to 15 degrees, and is
    /// placed randomly within that camera's view. Throws when no pose that
    /// fits can be found (a board too large for the rig, say).
    public static func sample(count: Int, target: BoardTarget, rig: Rig, maxTiltDegrees: Double = 30,
                              seed: UInt64) throws -> [RigidTransform] {
        var rng = SplitMix(seed: seed ^ 0x424F_4152_44)
        let narrow = rig.cameras.max { $0.model.intrinsics.fx < $1.model.intrinsics.fx }!  // a rig has a camera
        let k = narrow.model.intrinsics
        let narrowFromWorld = try rig.transform(from: rig.reference, to: narrow.name, unit: .metre)
        let worldFromNarrow = narrowFromWorld.inverse
        let area = target.printedArea
        let boardWidth = area.x1 - area.x0
        let centre = Vector3((area.x0 + area.x1) / 2, (area.y0 + area.y1) / 2, 0)
        let corners = [Vector3(area.x0, area.y0, 0), Vector3(area.x1, area.y0, 0),
                       Vector3(area.x0, area.y1, 0), Vector3(area.x1, area.y1, 0)]
        var poses: [RigidTransform] = []
        var attempts = 0
        while poses.count < count {
            attempts += 1
            guard attempts < 2000 * max(1, count) else {
                throw GeometryError.invalidRig(
                    "cannot place a \(boardWidth) m wide board fully inside every camera of the rig; use a smaller board")
            }
            let fraction = 0.40 + 0.35 * rng.unit()
            let distance = boardWidth * k.fx / (Double(k.referenceSize.width) * fraction)
            let spread = (1 - fraction) * 0.5 * Double(k.referenceSize.width) / k.fx
            let offset = Vector3((2 * rng.unit() - 1) * spread, (2 * rng.unit() - 1) * spread * 0.75, 1)
            let tilt = Angle.radians(maxTiltDegrees)
            let rotation = Rotation(axis: Vector3(0, 0, 1), angle: Angle.radians(15) * (2 * rng.unit() - 1))
                * Rotation(axis: Vector3(0, 1, 0), angle: tilt * (2 * rng.unit() - 1))
                * Rotation(axis: Vector3(1, 0, 0), angle: tilt * (2 * rng.unit() - 1))
            let centreInNarrow = offset * distance
            let narrowFromBoardR = rotation
            let narrowFromBoardT = centreInNarrow - narrowFromBoardR * centre
            let narrowFromBoard = try RigidTransform(rotation: narrowFromBoardR, translation: narrowFromBoardT,
                                                     unit: .metre, from: "board", to: narrow.name)
            let pose = try worldFromNarrow.composed(after: narrowFromBoard)
            if try fitsEverywhere(corners.map(pose.apply), rig: rig) { poses.append(pose) }
        }
        return poses
    }

    /// True when all `points` (world, metres) project inside every camera with a 2 % margin.
    static func fitsEverywhere(_ points: [Vector3], rig: Rig) throws -> Bool {
        for camera in rig.cameras {
            let cameraFromWorld = try rig.transform(from: rig.reference, to: camera.name, unit: .metre)
            let size = camera.size
            let mx = 0.02 * Double(size.width), my = 0.02 * Double(size.height)
            for p in points {
                guard let pixel = try? camera.model.project(cameraFromWorld.apply(p)),
                      pixel.x >= mx, pixel.y >= my,
                      pixel.x <= Double(size.width) - 1 - mx, pixel.y <= Double(size.height) - 1 - my else {
                    return false
                }
            }
        }
        return true
    }
}
