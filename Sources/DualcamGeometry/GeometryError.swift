/// Errors of the geometry core. Each description is one line saying what was
/// wrong and what was expected; callers add the file or flag name.
public enum GeometryError: Error, Equatable, CustomStringConvertible {
    case notARotation(String)
    case frameMismatch(String)
    case invalidTransform(String)
    case invalidIntrinsics(String)
    case aspectRatioMismatch(String)
    case invalidDistortion(String)
    case undistortionDidNotConverge(String)
    case invalidPlane(String)
    case invalidDistance(String)
    case invalidRig(String)
    case singular(String)

    public var description: String {
        switch self {
        case let .notARotation(m), let .frameMismatch(m), let .invalidTransform(m), let .invalidIntrinsics(m),
             let .aspectRatioMismatch(m), let .invalidDistortion(m),
             let .undistortionDidNotConverge(m), let .invalidPlane(m), let .invalidDistance(m),
             let .invalidRig(m), let .singular(m):
            return m
        }
    }
}
