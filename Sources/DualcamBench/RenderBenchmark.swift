import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic

/// Rendering benchmarks. The reference is what plain OpenCV does for the
/// same job where it can: a textured plane seen by two cameras is a texture
/// warped by each camera's plane homography (cv::warpPerspective, bilinear).
/// OpenCV has no ray caster, so for the `room` the same warp pair is the
/// yardstick of "one resampling pass per output pixel".
enum RenderBenchmark {
    static func nominalRig(_ size: PixelSize) throws -> Rig {
        try Synthesizer.scaledRig(try NominalDevice.load().rig, to: size)
    }

    /// Renders `scene` in wide and tele at `size` with `samplesPerAxis`^2 samples per pixel.
    static func run(name: String, scene: Scene, size: PixelSize, samplesPerAxis: Int, runs: Int) throws -> BenchmarkResult {
        let rig = try nominalRig(size)
        let options = RenderOptions(samplesPerAxis: samplesPerAxis)
        let ours = try Timing.measure(runs: runs) {
            _ = try Renderer.render(scene, camera: .wide, of: rig, options: options)
            _ = try Renderer.render(scene, camera: .tele, of: rig, options: options)
        }
        let (texture, homographies) = try referenceInput(rig: rig, size: size)
        let reference = try Timing.measure(runs: runs) {
            for h in homographies {
                _ = try ImageOps.warpPerspective(texture, homography: h, width: size.width, height: size.height)
            }
        }
        let pixels = Double(2 * size.width * size.height)
        return BenchmarkResult(
            name: name,
            work: "\(scene.name) scene, wide + tele at \(size), \(samplesPerAxis * samplesPerAxis) samples per pixel",
            reference: "OpenCV warpPerspective of a \(size) RGB texture into both views (bilinear)",
            dualcam: ours, referenceTiming: reference,
            figures: ["megapixels per second (dualcam)": pixels / ours.median / 1000])
    }

    /// A textured RGB image (rendered once) and the two homographies that place it
    /// as the fronto-parallel plane at 1.2 m in wide and tele.
    static func referenceInput(rig: Rig, size: PixelSize) throws -> (Image, [[Double]]) {
        var options = SceneLibrary.Options()
        options.planeDistance = 1.2
        let texture = try Renderer.render(SceneLibrary.plane(options), camera: .wide, of: rig,
                                          options: RenderOptions(samplesPerAxis: 1)).image
        let plane = Plane.frontoParallel(distance: try Distance(metres: 1.2), in: .wide)
        let wideToTele = try rig.homography(from: .wide, to: .tele, plane: plane)
        return (texture, [Matrix3.identity.rowMajor, wideToTele.rowMajor])
    }
}
