import DualcamDepthMap
import DualcamFusion
import DualcamSupport
import Foundation

/// What `dualcam fuse --json` prints.
struct FuseReport: Encodable {
    struct Fit: Encodable {
        var scale: Double
        var shift: Double
        var inliers: Int
        var samplesWithStereo: Int
        var residualRmsInverseMetres: Double
        var residualSigmaRelative: Double
    }

    struct Samples: Encodable {
        var used: Int
        var dropped: [String: Int]
        var verified: Int
        var unverified: Int
        var outliers: Int
        /// Their estimated noise, sigma = absolute + relative x depth.
        var noiseAbsoluteM: Double
        var noiseRelative: Double
    }

    /// The `--tele` stereo's search (max nil: no far limit).
    struct DepthRange: Encodable {
        var minM: Double
        var maxM: Double?
        var from: String
    }

    var output: String
    var mode: String
    var type: String
    var width: Int
    var height: Int
    var accuracy: String
    var coverage: Double
    var confidence: [String: Int]
    var fit: Fit?
    var stereoDepthRange: DepthRange?
    var samples: Samples
    var timingsMs: [String: Double]

    init(outcome: FusionOutcome, map: DepthMap, loaded: LoadedSamples, depthRange: StereoDepthRange?, timings: [String: Double], output: String, mode: String) {
        let r = outcome.result
        self.output = output
        self.mode = mode
        type = map.type.rawValue
        width = map.width
        height = map.height
        accuracy = map.accuracy.rawValue
        coverage = map.validFraction
        confidence = [
            "low": r.confidence.lazy.filter { $0 == .low }.count,
            "medium": r.confidence.lazy.filter { $0 == .medium }.count,
            "high": r.confidence.lazy.filter { $0 == .high }.count,
        ]
        fit = r.fit.map { f in
            Fit(scale: f.scale, shift: f.shift, inliers: f.inlierCount, samplesWithStereo: f.usableCount,
                residualRmsInverseMetres: f.residualRMS, residualSigmaRelative: f.residualSigma)
        }
        stereoDepthRange = depthRange.map { r in
            DepthRange(minM: r.minDepthMetres, maxM: r.maxDepthMetres.isFinite ? r.maxDepthMetres : nil, from: r.origin.rawValue)
        }
        samples = Samples(used: loaded.samples.count, dropped: loaded.dropped, verified: r.count(.verified),
                          unverified: r.count(.unverified), outliers: r.count(.outlier),
                          noiseAbsoluteM: r.sampleNoise.absoluteMetres, noiseRelative: r.sampleNoise.relative)
        var ms = timings
        ms["prepare"] = outcome.prepareMilliseconds
        ms["align"] = r.timings.alignMilliseconds
        ms["verify"] = r.timings.verifyMilliseconds
        ms["complete"] = r.timings.completeMilliseconds
        ms["confidence"] = r.timings.confidenceMilliseconds
        timingsMs = ms
    }

    var summary: String {
        let fitText = fit.map { String(format: ", fit scale %.5g shift %.5g (%d/%d inliers, rms %.3g 1/m)", $0.scale, $0.shift,
                                       $0.inliers, $0.samplesWithStereo, $0.residualRmsInverseMetres) } ?? ", samples only"
        return String(format: "fuse: %@ %@ %dx%d absolute, coverage %.1f %%, %d samples (%d verified, %d outliers)",
                      mode, type, width, height, 100 * coverage, samples.used, samples.verified, samples.outliers)
            + fitText + " -> \(output)"
    }
}
