import DualcamCalibrationFiles
import DualcamSupport
import Foundation

/// The images a calibration (or a verification) reads: pairs from a
/// directory or an OpenCV image list, and optional per-camera intrinsic sets.
public struct CalibrationSources: Sendable {
    public var pairsDirectory: URL?
    public var list: URL?
    public var wideIntrinsics: URL?
    public var teleIntrinsics: URL?

    public init(pairsDirectory: URL? = nil, list: URL? = nil, wideIntrinsics: URL? = nil, teleIntrinsics: URL? = nil) {
        self.pairsDirectory = pairsDirectory
        self.list = list
        self.wideIntrinsics = wideIntrinsics
        self.teleIntrinsics = teleIntrinsics
    }

    /// The image pairs (and pair-directory images without a partner, as dropped views).
    public func imagePairs() throws -> (pairs: [CalibrationInput.ImagePair], unpaired: [DroppedView]) {
        switch (pairsDirectory, list) {
        case let (directory?, nil): return try CalibrationInput.pairs(inDirectory: directory)
        case let (nil, list?): return (try CalibrationInput.pairs(inList: list), [])
        case (nil, nil):
            throw DualcamError.invalidValue(name: "input", reason: "give --pairs DIR or --list FILE")
        default:
            throw DualcamError.invalidValue(name: "input", reason: "give either --pairs or --list, not both")
        }
    }

    /// Reads every image and detects `target` in it.
    public func observations(detector: PatternDetector) throws -> CalibrationObservations {
        let (pairs, unpaired) = try imagePairs()
        let wideSet = try wideIntrinsics.map { try CalibrationInput.images(inDirectory: $0, flag: "--wide-intrinsics") } ?? []
        let teleSet = try teleIntrinsics.map { try CalibrationInput.images(inDirectory: $0, flag: "--tele-intrinsics") } ?? []
        var observations = try ObservationCollector.collect(pairs: pairs, wideSet: wideSet, teleSet: teleSet, detector: detector)
        observations.dropped = unpaired + observations.dropped
        return observations
    }
}
