import DualcamGeometry
import DualcamSupport

/// The size of a depth map, chosen relative to the reference image
/// (docs/conventions.md: a LiDAR depth camera streams 320x240 and delivers 768x576
/// with photos, adjusted to 16:9 vs 4:3).
///
/// - `streaming`: width 320, height from the reference aspect (320x240 for
///   4:3, 320x180 for 16:9).
/// - `photo`: width 768, height from the aspect (768x576 for 4:3, 768x432 for 16:9).
/// - `native`: the reference image's own size.
/// - `explicit(WxH)`: exactly that size, which must have the reference aspect.
///
/// Aspect tolerance: a size matches the reference aspect when the height
/// implied by its width, W * refH / refW, is within one pixel of its height
/// (the rule `Intrinsics.scaled(to:)` uses, so the reference intrinsics can
/// always be scaled to the result). Derived heights are that value rounded.
public enum DepthOutputSize: Equatable, Sendable, CustomStringConvertible {
    case streaming
    case photo
    case native
    case explicit(PixelSize)

    public static let streamingWidth = 320
    public static let photoWidth = 768

    /// Parses `streaming`, `photo`, `native` or `WxH` (e.g. `640x480`); the
    /// one-line error names `flag` (default `--size`).
    public init(parsing text: String, flag: String = "--size") throws {
        switch text.lowercased() {
        case "streaming": self = .streaming
        case "photo": self = .photo
        case "native": self = .native
        default:
            guard let size = PixelSize(parsing: text) else {
                throw DualcamError.invalidValue(
                    name: flag, reason: "'\(text)' is not a depth size (expected streaming, photo, native or WxH, e.g. 320x240)")
            }
            self = .explicit(size)
        }
    }

    public var description: String {
        switch self {
        case .streaming: return "streaming"
        case .photo: return "photo"
        case .native: return "native"
        case let .explicit(size): return size.description
        }
    }

    /// The pixel size for a reference image of `reference`; an explicit size
    /// with another aspect ratio, or a size outside the policy
    /// (`InputLimits.checkPipelineSize`: 16 to 16384 pixels per side, at most
    /// 50 Mpx), is an `.invalidValue` error naming `flag`.
    public func resolved(for reference: PixelSize, flag: String = "--size") throws -> PixelSize {
        guard reference.width > 0, reference.height > 0 else {
            throw DualcamError.invalidValue(name: flag, reason: "reference size \(reference) is empty")
        }
        let size = try unchecked(for: reference, flag: flag)
        try InputLimits.checkPipelineSize(width: size.width, height: size.height, name: "\(flag) \(self)")
        return size
    }

    private func unchecked(for reference: PixelSize, flag: String) throws -> PixelSize {
        switch self {
        case .native: return reference
        case .streaming: return Self.size(width: Self.streamingWidth, aspectOf: reference)
        case .photo: return Self.size(width: Self.photoWidth, aspectOf: reference)
        case let .explicit(size):
            guard Self.hasAspect(of: reference, size) else {
                throw DualcamError.invalidValue(
                    name: flag, reason: "\(size) does not have the reference aspect ratio of \(reference) "
                        + "(expected \(size.width)x\(Self.size(width: size.width, aspectOf: reference).height) or another size of that aspect)")
            }
            return size
        }
    }

    /// Width `width` and the height of `reference`'s aspect, rounded (at least 1).
    public static func size(width: Int, aspectOf reference: PixelSize) -> PixelSize {
        let height = (Double(width) * Double(reference.height) / Double(reference.width)).rounded()
        return PixelSize(width: width, height: max(1, Int(height)))
    }

    /// Whether `size` has `reference`'s aspect ratio within the tolerance above.
    public static func hasAspect(of reference: PixelSize, _ size: PixelSize) -> Bool {
        let implied = Double(size.width) * Double(reference.height) / Double(reference.width)
        return abs(implied - Double(size.height)) <= 1
    }
}
