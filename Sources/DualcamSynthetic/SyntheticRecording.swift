import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import Foundation

/// A synthetic recording (for `dualcam batch`, its tests and `bench batch`):
/// one scene rendered once through a rig at `size`, written as `pairs`
/// pairs of frames that differ by seeded sensor noise (per frame, camera
/// and pixel: a sum of four uniforms, sigma `noiseSigma` 8-bit levels), so
/// that per-pair depth and its temporal smoothing vary from frame to frame.
///
///     DIR/wide/frame_000000.png ...   DIR/tele/frame_000000.png ...
///     DIR/calibration.yaml            the rig at `size`
///     DIR/{wide,tele}/timestamps.csv  with `timestamps`: 30 fps from 1 s,
///                                     the tele 2 ms late (paired by timestamp)
public enum SyntheticRecording {
    public static func write(to dir: URL, pairs: Int, size: PixelSize, calibration: CalibrationFile, scene: String = "steps",
                             noiseSigma: Double = 2, seed: UInt64 = 1, timestamps: Bool = false) throws {
        var spec = SynthSpec(sceneName: scene, calibration: calibration, size: size)
        spec.render.samplesPerAxis = 1
        let dataset = try Synthesizer.make(spec)
        let fm = FileManager.default
        let views = [("wide", dataset.pairs[0].wide.image), ("tele", dataset.pairs[0].tele.image)]
        for (camera, _) in views {
            try fm.createDirectory(at: dir.appendingPathComponent(camera), withIntermediateDirectories: true)
        }
        try dataset.calibration.write(to: dir.appendingPathComponent("calibration.yaml"))
        var rows: [String: [(String, Int64)]] = [:]
        for k in 0..<pairs {
            for (c, (camera, image)) in views.enumerated() {
                let name = String(format: "frame_%06d.png", k)
                let noisy = try addNoise(image, sigma: noiseSigma, seed: NoiseHash.combine(NoiseHash.combine(seed, k), c))
                try ImageIO.write(noisy, to: dir.appendingPathComponent(camera).appendingPathComponent(name))
                rows[camera, default: []].append((name, 1_000_000_000 + Int64(k) * 33_333_333 + Int64(c) * 2_000_000))
            }
        }
        if timestamps {
            for (camera, list) in rows {
                let text = (["file,timestamp_ns"] + list.map { "\($0.0),\($0.1)" }).joined(separator: "\n") + "\n"
                try Data(text.utf8).write(to: dir.appendingPathComponent(camera).appendingPathComponent("timestamps.csv"))
            }
        }
    }

    /// `image` (8-bit) plus noise hashed from `seed` and the byte's index, rounded and clamped.
    static func addNoise(_ image: Image, sigma: Double, seed: UInt64) throws -> Image {
        var bytes = image.bytes
        // Four uniforms in [0, 1) sum to mean 2, variance 1/3: scaled to sigma.
        let scale = sigma * 3.0.squareRoot()
        for i in bytes.indices {
            var h = NoiseHash.combine(seed, i)
            var sum = 0.0
            for _ in 0..<4 {
                sum += Double(h >> 11) / Double(1 << 53)
                h = NoiseHash.mix(h)
            }
            let v = (Double(bytes[i]) + (sum - 2) * scale).rounded()
            bytes[i] = UInt8(min(255, max(0, v)))
        }
        return try Image(width: image.width, height: image.height, channels: image.channels, element: image.element, bytes: bytes)
    }
}
