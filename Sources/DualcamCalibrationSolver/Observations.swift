import DualcamOpenCV
import DualcamCalibrationFiles
import DualcamGeometry

/// The target's corners seen in one image: indices into
/// `BoardTarget.cornerPoints` and their pixels (centres at integers, OpenCV).
public struct BoardObservation: Sendable, Equatable {
    public var cornerIndices: [Int]
    public var pixels: [Vector2]

    public init(cornerIndices: [Int], pixels: [Vector2]) {
        self.cornerIndices = cornerIndices
        self.pixels = pixels
    }

    /// The corners seen in both observations, in `self`'s order.
    func common(with other: BoardObservation) -> (BoardObservation, BoardObservation) {
        let position = Dictionary(uniqueKeysWithValues: other.cornerIndices.enumerated().map { ($1, $0) })
        var a = BoardObservation(cornerIndices: [], pixels: []), b = a
        for (i, index) in cornerIndices.enumerated() {
            guard let j = position[index] else { continue }
            a.cornerIndices.append(index); a.pixels.append(pixels[i])
            b.cornerIndices.append(index); b.pixels.append(other.pixels[j])
        }
        return (a, b)
    }
}

/// One view of the target by both cameras.
public struct PairObservation: Sendable {
    public var name: String
    public var wide: BoardObservation
    public var tele: BoardObservation
    public init(name: String, wide: BoardObservation, tele: BoardObservation) {
        self.name = name
        self.wide = wide
        self.tele = tele
    }
}

/// One view of the target by one camera alone (a per-camera intrinsic set).
public struct SingleObservation: Sendable {
    public var name: String
    public var observation: BoardObservation
    public init(name: String, observation: BoardObservation) {
        self.name = name
        self.observation = observation
    }
}

/// A view left out of the calibration, and why.
public struct DroppedView: Sendable, Codable, Equatable {
    public var view: String
    public var reason: String
    public init(view: String, reason: String) {
        self.view = view
        self.reason = reason
    }
}

/// Everything a rig calibration is computed from: the target, the image
/// size of each camera, the joint views and optional per-camera views.
public struct CalibrationObservations: Sendable {
    public var target: BoardTarget
    public var wideSize: PixelSize
    public var teleSize: PixelSize
    public var pairs: [PairObservation]
    public var wideOnly: [SingleObservation] = []
    public var teleOnly: [SingleObservation] = []
    /// Views dropped before calibration (detection failures), with the reason.
    public var dropped: [DroppedView] = []

    public init(target: BoardTarget, wideSize: PixelSize, teleSize: PixelSize, pairs: [PairObservation]) {
        self.target = target
        self.wideSize = wideSize
        self.teleSize = teleSize
        self.pairs = pairs
    }

    /// The target's corners in millimetres (calibration works in mm so that
    /// translations come out in mm, the unit of device-level extrinsics).
    var cornerPointsMillimetres: [Vector3] { target.cornerPoints.map { $0 * 1000 } }

    /// OpenCV views of single-camera observations.
    public func cvViews(_ observations: [BoardObservation]) -> CVCalibrationViews {
        let points = cornerPointsMillimetres
        var views = CVCalibrationViews(pointCounts: [], objectXYZ: [], imageXY: [])
        for o in observations {
            views.pointCounts.append(o.cornerIndices.count)
            for (index, pixel) in zip(o.cornerIndices, o.pixels) {
                let p = points[index]
                views.objectXYZ += [p.x, p.y, p.z]
                views.imageXY += [pixel.x, pixel.y]
            }
        }
        return views
    }

    /// OpenCV stereo views of pairs (corners seen in both images only).
    public func cvStereoViews(_ pairs: [PairObservation]) -> CVCalibrationViews {
        let common = pairs.map { $0.wide.common(with: $0.tele) }
        var views = cvViews(common.map(\.0))
        views.image2XY = common.flatMap { $0.1.pixels.flatMap { [$0.x, $0.y] } }
        return views
    }
}
