import DualcamV4L2

/// What `dualcam devices` prints for one device: its name, then each format
/// with its sizes and the frame rates at each size.
public enum DeviceReport {
    public static func text(_ device: V4L2Device) throws -> String {
        let c = device.capabilities
        var lines = ["\(device.path): \(c.card) (driver \(c.driver), \(c.busInfo))"]
        for f in try device.formats() {
            let decodable = FrameDecoding.supported.contains(f.pixelFormat) ? "" : " (dualcam cannot decode)"
            lines.append("  \(f.pixelFormat) \(f.name)\(decodable)")
            let sizes = try device.frameSizes(f.pixelFormat)
            if case let .stepwise(lo, hi, sw, sh) = sizes {
                lines.append("    \(lo) to \(hi), steps \(sw)x\(sh)")
            }
            for s in sizes.candidates {
                let rates = try device.frameIntervals(f.pixelFormat, s).candidateRates
                lines.append("    \(s): \(rates.map { formatRate($0) }.joined(separator: ", ")) fps")
            }
        }
        return lines.joined(separator: "\n")
    }
}
