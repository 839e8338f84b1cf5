import DualcamGeometry
import XCTest
@testable import DualcamDepth

final class ExperimentTests: XCTestCase {
    func testExperiment() throws {
        var t = Date()
        let pair = try DepthFixtures.pair("room")
        print("render+covis", Date().timeIntervalSince(t)); t = Date()
        for (size, radius, lambda, sigma) in [(768, 3, 300.0, 6.0), (768, 5, 300.0, 6.0), (1920, 4, 300.0, 6.0), (768, 4, 1000.0, 4.0), (768, 4, 100.0, 10.0)] {
            var options = StereoDepthOptions()
            options.outputSize = PixelSize(width: size, height: size * 3 / 4)
            options.refineRadius = radius
            options.fillLambda = lambda
            options.fillSigmaColor = sigma
            let estimator = try StereoDepthEstimator(rig: pair.rig, wideSize: pair.wide.size, teleSize: pair.tele.size, options: options)
            let r = try estimator.estimate(wide: pair.wide.image, tele: pair.tele.image)
            print("estimate", Date().timeIntervalSince(t)); t = Date()
            let truth = try DepthTruth(estimator: estimator, pair: pair)
            print("truth", Date().timeIntervalSince(t)); t = Date()
            let w = r.size.width
            let eval = zip(zip(truth.covered, truth.covisible), truth.textured).map { $0.0 && $0.1 && $1 }
            let fb = Float(r.pixelsPerInverseMetre)
            let unfDepth = zip(r.unfilteredDisparityPixels, estimator.alignment.depthFactor).map { fb / $0 * $1 }
            print("size \(size) radius \(radius) lambda \(lambda) sigma \(sigma) unfiltered:", DepthScores(disparity: r.unfilteredDisparityPixels, depth: unfDepth, truth: truth, include: eval, width: w))
            print("filtered:", DepthScores(disparity: r.disparityPixels, depth: r.depthMetres, truth: truth, include: truth.covered, width: w))
        }
    }
}
