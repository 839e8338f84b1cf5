import DualcamGeometry
import DualcamSupport

/// Per-channel multiplicative gains of linear RGB (white balance).
public struct ChannelGains: Equatable, Hashable, Sendable, Encodable {
    public var r: Double
    public var g: Double
    public var b: Double

    public init(_ r: Double, _ g: Double, _ b: Double) { self.r = r; self.g = g; self.b = b }

    /// (1, 1, 1): no change.
    public static let neutral = ChannelGains(1, 1, 1)

    public var values: [Double] { [r, g, b] }

    /// Encoded as [r, g, b].
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}

/// What one camera does to the light it receives, beyond geometry: the
/// photometric and optical differences between real cameras (a phone's tele
/// is another sensor behind another lens). The image formation these
/// parameters enter, with its formula, is `PhotometricModel`; in short, per
/// pixel p and channel c of the renderer's display-encoded colour R, decoded
/// to linear light L = R^2.2 (`PhotometricModel.renderEncodingGamma`):
///
///     x = lightLevel * exposure * V(p) * (G_blur * L)(p)       raw signal, 1 = full scale
///     y = whiteBalance_c * (x + sqrt(shotNoise * x + readNoise^2) * n) / lightLevel
///     v = clamp(y, 0, 1)^(1 / gamma),  byte = round(255 v),  then JPEG at jpegQuality
///
/// with V(p) = 1 - vignettingCornerFalloff * (r / rCorner)^2 and n ~ N(0, 1).
/// The default value of every parameter changes nothing (`CameraConditions.clean`):
/// the default gamma, 2.2, re-encodes linear light as the renderer encoded it.
public struct CameraConditions: Equatable, Hashable, Sendable, Encodable {
    /// Relative exposure (exposure time x aperture area x analog gain against
    /// the nominal camera), a factor on the raw signal before noise: 0.8 makes
    /// the image 0.8x as bright in linear terms and its signal noisier relative
    /// to its level. 1 = nominal.
    public var exposure: Double
    /// White balance: per-channel gains on the raw signal after noise, before
    /// the tone curve. A camera whose white balance differs from the other's
    /// has other gains; (1, 1, 1) = neutral.
    public var whiteBalance: ChannelGains
    /// Tone-curve gamma: v = clamp(y, 0, 1)^(1 / gamma) maps the linear raw
    /// value y to the encoded value v. 2.2 (default), close to sRGB's curve,
    /// is the renderer's own encoding (`PhotometricModel.renderEncodingGamma`)
    /// and reproduces its tonality; a lower gamma darkens the midtones (2.0
    /// a little, 1 = linear output, much darker), a higher one lightens them.
    /// Black and white stay where they are.
    public var gamma: Double
    /// Vignetting, radial falloff of the illumination: the relative
    /// illumination is V(r) = 1 - s (r / rCorner)^2 with s this value, r the
    /// distance in pixels from the principal point (cx, cy) and rCorner the
    /// distance from it to the farthest corner pixel's centre. So that corner
    /// pixel gets 1 - s of the centre's light. 0 = none; in [0, 0.99].
    public var vignettingCornerFalloff: Double
    /// Optical blur (defocus, lens softness): a Gaussian point-spread function
    /// of this standard deviation in pixels, applied to the linear image
    /// before the sensor (OpenCV's GaussianBlur, reflected borders). A step
    /// edge then rises over 2.56 sigma from 10 % to 90 %. 0 = none.
    public var blurSigmaPixels: Double
    /// Shot (photon) noise in normalized raw units (1 = full scale): the
    /// variance added to a raw signal x is shotNoise * x, i.e. shotNoise =
    /// 1 / (electrons collected at full scale); 0.00025 is a 4000-electron
    /// pixel. Applied before white balance and the tone curve.
    public var shotNoise: Double
    /// Read noise: standard deviation in normalized raw units, independent of
    /// the signal; read electrons / electrons at full scale (0.001 = 4 e- on
    /// a 4000-electron pixel).
    public var readNoise: Double
    /// JPEG compression at this quality (1...100), applied to the final 8-bit
    /// pixels (an in-memory round trip through OpenCV's codec; written files
    /// stay PNG and hold exactly those pixels); nil = lossless.
    public var jpegQuality: Int?

    public init(exposure: Double = 1, whiteBalance: ChannelGains = .neutral, gamma: Double = PhotometricModel.renderEncodingGamma,
                vignettingCornerFalloff: Double = 0, blurSigmaPixels: Double = 0, shotNoise: Double = 0,
                readNoise: Double = 0, jpegQuality: Int? = nil) {
        self.exposure = exposure
        self.whiteBalance = whiteBalance
        self.gamma = gamma
        self.vignettingCornerFalloff = vignettingCornerFalloff
        self.blurSigmaPixels = blurSigmaPixels
        self.shotNoise = shotNoise
        self.readNoise = readNoise
        self.jpegQuality = jpegQuality
    }

    /// No change: the renderer's image as it is (every default; gamma 2.2
    /// re-encodes what it decodes).
    public static let clean = CameraConditions()

    /// Whether these conditions leave the image unchanged.
    public var isClean: Bool { self == .clean }

    enum CodingKeys: String, CodingKey {
        case exposure, whiteBalance, gamma, vignettingCornerFalloff, blurSigmaPixels, shotNoise, readNoise, jpegQuality
    }

    /// Every field, `jpegQuality` as null when lossless.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(exposure, forKey: .exposure)
        try c.encode(whiteBalance, forKey: .whiteBalance)
        try c.encode(gamma, forKey: .gamma)
        try c.encode(vignettingCornerFalloff, forKey: .vignettingCornerFalloff)
        try c.encode(blurSigmaPixels, forKey: .blurSigmaPixels)
        try c.encode(shotNoise, forKey: .shotNoise)
        try c.encode(readNoise, forKey: .readNoise)
        if let jpegQuality { try c.encode(jpegQuality, forKey: .jpegQuality) } else { try c.encodeNil(forKey: .jpegQuality) }
    }

    /// Throws `DualcamError.invalidValue` naming `camera` and the first
    /// parameter outside its range (`ConditionParameter.accepts`).
    public func validate(camera: String) throws {
        let checks: [(ConditionParameter, [Double])] = [
            (.exposure, [exposure]), (.whiteBalance, whiteBalance.values), (.gamma, [gamma]),
            (.vignetting, [vignettingCornerFalloff]), (.blur, [blurSigmaPixels]), (.shotNoise, [shotNoise]),
            (.readNoise, [readNoise]), (.jpegQuality, jpegQuality.map { [Double($0)] } ?? []),
        ]
        for (parameter, values) in checks where !values.allSatisfy(parameter.accepts) {
            throw DualcamError.invalidValue(
                name: "\(camera) \(parameter.rawValue) \(values.map { "\($0)" }.joined(separator: ","))",
                reason: parameter.expectation)
        }
    }
}

/// The conditions of a capture: each camera's, and the scene's light level.
public struct CaptureConditions: Equatable, Hashable, Sendable {
    public var wide: CameraConditions
    public var tele: CameraConditions
    /// Scene illumination as a fraction of the nominal (1 = nominal, 0.05 = a
    /// dim room): the raw signal is multiplied by it before noise, and the
    /// cameras' gain by 1 / lightLevel after noise, so image brightness is
    /// kept while shot and read noise grow by 1 / sqrt(lightLevel) and
    /// 1 / lightLevel relative to it (low light: shot noise dominates after
    /// gain). In [0.001, 1].
    public var lightLevel: Double

    public init(wide: CameraConditions = .clean, tele: CameraConditions = .clean, lightLevel: Double = 1) {
        self.wide = wide
        self.tele = tele
        self.lightLevel = lightLevel
    }

    /// Today's renders unchanged (the default of `dualcam synth`).
    public static let clean = CaptureConditions()

    /// A plausible phone wide/tele pair in good light (`--conditions real`):
    ///
    /// | | wide | tele |
    /// | --- | --- | --- |
    /// | exposure | 1.0 | 0.8 |
    /// | white balance r,g,b | 1, 1, 1 | 1.08, 1, 0.9 |
    /// | gamma | 2.2 | 2.0 |
    /// | vignetting corner falloff | 0.35 | 0.2 |
    /// | blur sigma | 0.5 px | 1.0 px |
    /// | shot noise | 0.00025 (4000 e- at full scale) | 0.0005 (2000 e-) |
    /// | read noise | 0.001 (4 e-) | 0.002 (4 e-) |
    /// | JPEG quality | 90 | 90 |
    ///
    /// Light level 1. The tele's smaller pixels and slower aperture give less
    /// light and more noise; its longer lens is a bit softer; the wide's wider
    /// field shows more vignetting; the wide's tone curve is the render's
    /// own (2.2), the tele's (2.0) puts its midtones a little lower.
    public static let real = CaptureConditions(
        wide: CameraConditions(exposure: 1, whiteBalance: .neutral, gamma: 2.2, vignettingCornerFalloff: 0.35,
                               blurSigmaPixels: 0.5, shotNoise: 0.00025, readNoise: 0.001, jpegQuality: 90),
        tele: CameraConditions(exposure: 0.8, whiteBalance: ChannelGains(1.08, 1, 0.9), gamma: 2.0,
                               vignettingCornerFalloff: 0.2, blurSigmaPixels: 1.0, shotNoise: 0.0005,
                               readNoise: 0.002, jpegQuality: 90),
        lightLevel: 1)

    /// The named presets (`--conditions`).
    public static let presets: [(name: String, conditions: CaptureConditions)] = [("clean", .clean), ("real", .real)]

    /// The preset called `name`, or nil.
    public static func preset(named name: String) -> CaptureConditions? {
        presets.first { $0.name == name }?.conditions
    }

    /// Whether every image stays exactly as the renderer made it.
    public var isClean: Bool { self == .clean }

    /// The conditions of `camera` (clean for cameras other than wide and tele).
    public subscript(camera: FrameName) -> CameraConditions {
        get {
            switch camera {
            case .wide: return wide
            case .tele: return tele
            default: return .clean
            }
        }
        set {
            switch camera {
            case .wide: wide = newValue
            case .tele: tele = newValue
            default: break
            }
        }
    }

    /// Throws `DualcamError.invalidValue` for the first parameter out of range.
    public func validate() throws {
        try wide.validate(camera: "wide")
        try tele.validate(camera: "tele")
        guard ConditionParameter.lightLevel.accepts(lightLevel) else {
            throw DualcamError.invalidValue(name: "light level \(lightLevel)", reason: ConditionParameter.lightLevel.expectation)
        }
    }
}

/// The parameters of `CameraConditions` / `CaptureConditions`, with their
/// accepted ranges (shared by the API's validation and `dualcam synth`'s flags).
public enum ConditionParameter: String, CaseIterable, Sendable {
    case exposure
    case whiteBalance = "white balance"
    case gamma
    case vignetting
    case blur
    case shotNoise = "shot noise"
    case readNoise = "read noise"
    case jpegQuality = "JPEG quality"
    case lightLevel = "light level"

    /// The closed range of accepted values (each of the three gains for white balance).
    public var range: ClosedRange<Double> {
        switch self {
        case .exposure: return 0.01...16
        case .whiteBalance: return 0.1...10
        case .gamma: return 0.2...5
        case .vignetting: return 0...0.99
        case .blur: return 0...32
        case .shotNoise, .readNoise: return 0...0.1
        case .jpegQuality: return 1...100
        case .lightLevel: return 0.001...1
        }
    }

    /// Whether `value` is accepted (finite, in range; an integer for JPEG quality).
    public func accepts(_ value: Double) -> Bool {
        value.isFinite && range.contains(value) && (self != .jpegQuality || value == value.rounded())
    }

    /// What is expected, for error messages.
    public var expectation: String {
        switch self {
        case .exposure: return "expected a relative exposure from 0.01 to 16 (1 = nominal)"
        case .whiteBalance: return "expected three channel gains r,g,b from 0.1 to 10 (1,1,1 = neutral)"
        case .gamma: return "expected a tone-curve gamma from 0.2 to 5 (v = y^(1/gamma); 1 = linear, 2.2 = sRGB-like)"
        case .vignetting: return "expected a corner falloff from 0 to 0.99 (corner light = 1 - falloff of the centre's)"
        case .blur: return "expected a Gaussian blur sigma from 0 to 32 pixels"
        case .shotNoise: return "expected a shot-noise variance per unit raw signal from 0 to 0.1 (1 / electrons at full scale, e.g. 0.00025)"
        case .readNoise: return "expected a read-noise sigma from 0 to 0.1 of full scale (e.g. 0.001)"
        case .jpegQuality: return "expected a JPEG quality from 1 to 100, or none"
        case .lightLevel: return "expected a fraction of the nominal illumination from 0.001 to 1 (e.g. 0.05 for low light)"
        }
    }
}
