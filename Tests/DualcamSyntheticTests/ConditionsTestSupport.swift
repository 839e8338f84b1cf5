#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DualcamGeometry
import DualcamImaging
import DualcamSynthetic
import Foundation

/// Scenes, renders and measurements shared by the camera-condition tests.
enum ConditionFixtures {
    /// Prints a measured figure when DUALCAM_PRINT_MEASUREMENTS=1 (how the
    /// figures in docs/synthetic-conditions.md were collected).
    static func record(_ label: String, _ values: Double...) {
        guard ProcessInfo.processInfo.environment["DUALCAM_PRINT_MEASUREMENTS"] == "1" else { return }
        print("measured: \(label) = " + values.map { String(format: "%.4f", $0) }.joined(separator: ", "))
    }

    /// The distortion-free 160x120 rig: wide focal 150 px, tele 300 px,
    /// principal points at the image centre (79.5, 59.5).
    static func pinhole(width: Int = 160, height: Int = 120, f: Double = 150, cx: Double? = nil) throws -> Rig {
        try RenderFixtures.pinholeRig(width: width, height: height, f: f, cx: cx)
    }

    /// One fronto-parallel rectangle `depth` metres ahead (u along x), large
    /// enough to fill both views.
    static func wall(_ appearance: Appearance, depth: Double = 1, halfWidth: Double = 5,
                     halfHeight: Double = 5) -> Scene {
        Scene(name: "wall", objects: [SceneObject(
            name: "wall", shape: .rectangle(center: Vector3(0, 0, depth), normal: Vector3(0, 0, -1),
                                            uAxis: Vector3(1, 0, 0), halfWidth: halfWidth, halfHeight: halfHeight),
            appearance: appearance)])
    }

    /// Renders `camera` under `conditions` (conditions apply to that camera only).
    static func render(_ scene: Scene, _ camera: FrameName = .wide, rig: Rig, conditions: CameraConditions,
                       lightLevel: Double = 1, samplesPerAxis: Int = 2, seed: UInt64 = 1,
                       region: RenderRegion? = nil) throws -> RenderedView {
        var capture = CaptureConditions(lightLevel: lightLevel)
        capture[camera] = conditions
        return try Renderer.render(scene, camera: camera, of: rig,
                                   options: RenderOptions(samplesPerAxis: samplesPerAxis, seed: seed, region: region),
                                   conditions: capture)
    }

    /// The values of channel `c` of an 8-bit RGB image, row-major.
    static func channel(_ image: Image, _ c: Int) -> [Double] {
        image.withUnsafeBytes { raw in stride(from: c, to: raw.count, by: image.channels).map { Double(raw[$0]) } }
    }

    /// Linear light of an 8-bit value `v` encoded with `gamma`: (v / 255)^gamma.
    /// With 2.2 (the default tone curve, `PhotometricModel.renderEncodingGamma`)
    /// this undoes both the camera's tone curve and the renderer's encoding.
    static func light(_ v: Double, gamma: Double = 2.2) -> Double { pow(v / 255, gamma) }

    /// The values of channel `c` decoded to linear light (`light`).
    static func lightChannel(_ image: Image, _ c: Int, gamma: Double = 2.2) -> [Double] {
        channel(image, c).map { light($0, gamma: gamma) }
    }

    /// The mean of `values` where `mask` (row-major per pixel) is true (all when nil).
    static func mean(_ values: [Double], mask: [Bool]? = nil) -> Double {
        var sum = 0.0, n = 0
        for (i, v) in values.enumerated() where mask?[i] ?? true { sum += v; n += 1 }
        return sum / Double(max(n, 1))
    }

    /// Sample standard deviation.
    static func standardDeviation(_ values: [Double]) -> Double {
        let m = mean(values)
        return (values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(values.count - 1)).squareRoot()
    }

    /// Mean of all channels of an 8-bit image over the pixels of `mask`.
    static func meanLevel(_ image: Image, mask: [Bool]? = nil) -> Double {
        (0..<image.channels).map { mean(channel(image, $0), mask: mask) }.reduce(0, +) / Double(image.channels)
    }

    /// Mean linear light (bytes decoded with `gamma`, see `light`) of all
    /// channels of an 8-bit image over the pixels of `mask`.
    static func meanLight(_ image: Image, gamma: Double = 2.2, mask: [Bool]? = nil) -> Double {
        (0..<image.channels).map { mean(lightChannel(image, $0, gamma: gamma), mask: mask) }.reduce(0, +)
            / Double(image.channels)
    }

    /// Mean of channel `c` over the block [x0, x0 + size) x [y0, y0 + size).
    static func blockMean(_ image: Image, x0: Int, y0: Int, size: Int, channel c: Int = 0) -> Double {
        var sum = 0.0
        for y in y0..<(y0 + size) { for x in x0..<(x0 + size) { sum += image[x: x, y: y, channel: c] } }
        return sum / Double(size * size)
    }

    /// Mean linear light (`light` with `gamma`) of channel `c` over the block
    /// [x0, x0 + size) x [y0, y0 + size).
    static func blockMeanLight(_ image: Image, x0: Int, y0: Int, size: Int, channel c: Int = 0,
                               gamma: Double = 2.2) -> Double {
        var sum = 0.0
        for y in y0..<(y0 + size) {
            for x in x0..<(x0 + size) { sum += light(image[x: x, y: y, channel: c], gamma: gamma) }
        }
        return sum / Double(size * size)
    }

    /// PSNR of `b` against `a` (8-bit, all channels), dB.
    static func psnr(_ a: Image, _ b: Image) -> Double {
        let mse = a.withUnsafeBytes { ra in
            b.withUnsafeBytes { rb in
                zip(ra, rb).reduce(0.0) { $0 + (Double($1.0) - Double($1.1)) * (Double($1.0) - Double($1.1)) } / Double(ra.count)
            }
        }
        return 10 * log10(255 * 255 / mse)
    }

    /// The repeat period (pixels) of the rows y0..<y1 of channel 0 of `image`,
    /// measured by autocorrelation: the mean-removed rows' autocorrelation
    /// R(k) = sum_x r(x) r(x + k) / (W - k), summed over rows; the first
    /// maximum of R over k >= 3 gives the period roughly (T0), the peak
    /// nearest m T0 for the largest m with m T0 + 2 < W / 2, refined by a
    /// parabola through its three samples, gives T = peak / m.
    static func rowPeriod(_ image: Image, rows: Range<Int>) -> Double {
        let w = image.width, maxLag = w / 2
        var r = [Double](repeating: 0, count: maxLag + 1)
        for y in rows {
            let row = (0..<w).map { image[x: $0, y: y, channel: 0] }
            let m = mean(row)
            let centred = row.map { $0 - m }
            for k in 0...maxLag {
                var s = 0.0
                for x in 0..<(w - k) { s += centred[x] * centred[x + k] }
                r[k] += s / Double(w - k)
            }
        }
        // The first local maximum after the central peak has decayed below zero.
        let firstNegative = (1...maxLag).first { r[$0] < 0 } ?? 3
        let coarse = (max(3, firstNegative)..<maxLag).max { r[$0] < r[$1] }!
        let firstPeak = (max(3, firstNegative)..<maxLag).first { k in r[k] >= r[k - 1] && r[k] >= r[k + 1] && r[k] > 0.5 * r[coarse] }!
        let t0 = Double(firstPeak)
        let m = max(1, Int((Double(maxLag) - 2) / t0))
        let centre = Int((Double(m) * t0).rounded())
        let k = (max(1, centre - 2)...min(maxLag - 1, centre + 2)).max { r[$0] < r[$1] }!
        let (a, b, c) = (r[k - 1], r[k], r[k + 1])
        let offset = (a - c) / (2 * (a - 2 * b + c))
        return (Double(k) + (offset.isFinite ? offset : 0)) / Double(m)
    }
}
