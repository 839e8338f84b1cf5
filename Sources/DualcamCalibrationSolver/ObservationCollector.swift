import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// Reads calibration images and detects the target in them, producing the
/// observations a `RigCalibrator` works on. Views where detection fails are
/// recorded in `dropped` with the reason; every image of one camera must
/// have the same size (wide and tele may differ).
public enum ObservationCollector {
    public static func collect(pairs: [CalibrationInput.ImagePair], wideSet: [URL] = [], teleSet: [URL] = [],
                               detector: PatternDetector) throws -> CalibrationObservations {
        var sizes = SizeCheck()
        var dropped: [DroppedView] = []
        var found: [PairObservation] = []
        for pair in pairs {
            let wideImage = try ImageIO.read(pair.wide), teleImage = try ImageIO.read(pair.tele)
            try sizes.check(wideImage, pair.wide, camera: "wide")
            try sizes.check(teleImage, pair.tele, camera: "tele")
            let w = try detector.detect(in: wideImage), t = try detector.detect(in: teleImage)
            switch (w, t) {
            case let (w?, t?):
                let (a, _) = w.common(with: t)
                if a.cornerIndices.count < max(PatternDetector.minimumCharucoCorners, 4) {
                    dropped.append(DroppedView(view: pair.name, reason: "only \(a.cornerIndices.count) corners seen in both images"))
                } else {
                    found.append(PairObservation(name: pair.name, wide: w, tele: t))
                }
            case (nil, nil):
                dropped.append(DroppedView(view: pair.name, reason: "\(detector.notFoundReason) in either image"))
            case (nil, _):
                dropped.append(DroppedView(view: pair.name, reason: "\(detector.notFoundReason) in the wide/left image \(pair.wide.lastPathComponent)"))
            case (_, nil):
                dropped.append(DroppedView(view: pair.name, reason: "\(detector.notFoundReason) in the tele/right image \(pair.tele.lastPathComponent)"))
            }
        }
        func singles(_ urls: [URL], camera: String) throws -> [SingleObservation] {
            var result: [SingleObservation] = []
            for url in urls {
                let image = try ImageIO.read(url)
                try sizes.check(image, url, camera: camera)
                let name = "\(camera):\(url.lastPathComponent)"
                if let o = try detector.detect(in: image) {
                    result.append(SingleObservation(name: name, observation: o))
                } else {
                    dropped.append(DroppedView(view: name, reason: detector.notFoundReason))
                }
            }
            return result
        }
        let wideOnly = try singles(wideSet, camera: "wide"), teleOnly = try singles(teleSet, camera: "tele")
        guard let wideSize = sizes.sizes["wide"], let teleSize = sizes.sizes["tele"] else {
            throw DualcamError.invalidValue(name: "calibration input", reason: "no image pairs given")
        }
        var observations = CalibrationObservations(target: detector.target, wideSize: wideSize, teleSize: teleSize, pairs: found)
        observations.wideOnly = wideOnly
        observations.teleOnly = teleOnly
        observations.dropped = dropped
        return observations
    }

    /// Remembers the first image size of each camera and refuses others.
    struct SizeCheck {
        var sizes: [String: PixelSize] = [:]
        var first: [String: URL] = [:]

        mutating func check(_ image: Image, _ url: URL, camera: String) throws {
            let size = PixelSize(width: image.width, height: image.height)
            guard let expected = sizes[camera] else {
                sizes[camera] = size
                first[camera] = url
                return
            }
            guard expected == size else {
                throw DualcamError.invalidValue(
                    name: url.path,
                    reason: "images of mixed sizes: this \(camera) image is \(size), \(first[camera]!.lastPathComponent) is \(expected); every \(camera) image must have the same size")
            }
        }
    }
}
