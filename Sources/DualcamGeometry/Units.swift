/// A unit of length. Extrinsic translations carry one explicitly
/// (device-level extrinsics are in millimetres, OpenCV calibrations in the
/// pattern's unit, Middlebury baselines in millimetres).
public enum LengthUnit: String, CaseIterable, Codable, Sendable {
    case metre = "m"
    case centimetre = "cm"
    case millimetre = "mm"
    case foot = "ft"
    case inch = "in"

    /// How many metres one of this unit is (exact by definition: 1 in = 25.4 mm).
    public var metres: Double {
        switch self {
        case .metre: return 1
        case .centimetre: return 0.01
        case .millimetre: return 0.001
        case .foot: return 0.3048
        case .inch: return 0.0254
        }
    }

    /// The factor that converts a value in `self` into `other`.
    public func factor(to other: LengthUnit) -> Double {
        self == other ? 1 : metres / other.metres
    }
}

/// Converts between degrees and radians.
public enum Angle {
    public static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
    public static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
}
