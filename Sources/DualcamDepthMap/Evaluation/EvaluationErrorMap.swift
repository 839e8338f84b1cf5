import DualcamImaging

extension StereoEvaluation {
    /// Colours of `errorMap`: (r, g, b).
    public enum ErrorMapColour {
        public static let bad: (UInt8, UInt8, UInt8) = (255, 0, 0)
        public static let good: (UInt8, UInt8, UInt8) = (128, 128, 128)
        public static let missing: (UInt8, UInt8, UInt8) = (0, 0, 0)
        public static let notEvaluated: (UInt8, UInt8, UInt8) = (255, 255, 255)
    }

    /// An RGB image a person can look at: evaluated pixels whose error is
    /// above `badThreshold` red, below it grey, without an estimate black;
    /// pixels not evaluated (no truth, outside the region or mask) white.
    /// The threshold is in pixels in disparity space, and a relative error
    /// |e - g| / g in depth space.
    public func errorMap(badThreshold: Double) -> Image {
        var pixels = [UInt8](repeating: 0, count: evaluated.count * 3)
        for i in evaluated.indices {
            let colour: (UInt8, UInt8, UInt8)
            if !evaluated[i] {
                colour = ErrorMapColour.notEvaluated
            } else if !isValid(i) {
                colour = ErrorMapColour.missing
            } else {
                let e = Double(estimate[i]), g = Double(truth[i])
                let error = options.space == .disparity ? abs(e - g) : abs(e - g) / g
                colour = error > badThreshold ? ErrorMapColour.bad : ErrorMapColour.good
            }
            (pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2]) = colour
        }
        // The size was validated by the evaluation, so the image cannot be rejected.
        return try! Image(width: size.width, height: size.height, channels: 3, pixels: pixels)
    }
}
