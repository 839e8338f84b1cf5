/// Errors of convergence: each description is one line saying what was wrong
/// (naming the camera, image or option) and what was expected, ready for the
/// command to print as it is.
public enum ConvergenceError: Error, Equatable, CustomStringConvertible {
    /// A camera, image or size does not fit the rig (e.g. a buffer whose
    /// aspect ratio differs from the camera's calibration).
    case invalidInput(String)
    /// An option value is out of range (distances, windows, step counts).
    case invalidOption(String)
    /// The two views share no pixels where a score or a view needs them.
    case noOverlap(String)
    /// The scored window has no texture along the baseline: the score curve
    /// singles out no distance.
    case lowTexture(String)

    public var description: String {
        switch self {
        case let .invalidInput(m), let .invalidOption(m), let .noOverlap(m), let .lowTexture(m): return m
        }
    }
}
