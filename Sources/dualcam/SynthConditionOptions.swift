import ArgumentParser
import DualcamGeometry
import DualcamSupport
import DualcamSynthetic

/// `dualcam synth`'s camera-condition flags: a preset, then per-parameter
/// overrides. Per-camera values are written `V` (both cameras) or
/// `wide:V`, `tele:V`, `wide:V,tele:V`; white balance takes three values per
/// camera (`1.08,1,0.9`, `tele:1.08,1,0.9`, `wide:1,1,1,tele:1.08,1,0.9`).
struct SynthConditionOptions: ParsableArguments {
    @Option(name: .long, help: "Camera conditions preset: clean (the renderer's images, default) or real (a phone wide/tele pair).")
    var conditions: ListedName<ConditionPresetNames> = ListedName("clean")

    @Option(name: .long, help: "Relative exposure before noise, [wide:|tele:]X (e.g. tele:0.8).")
    var exposure: String?

    @Option(name: .customLong("white-balance"), help: "White-balance gains [wide:|tele:]R,G,B (e.g. tele:1.08,1,0.9).")
    var whiteBalance: String?

    @Option(name: .long, help: "Tone-curve gamma, v = y^(1/gamma) of linear light y, [wide:|tele:]G (2.2 = the render's tonality, 1 = linear).")
    var gamma: String?

    @Option(name: .long, help: "Vignetting corner falloff, light = 1 - S (r/r_corner)^2, [wide:|tele:]S.")
    var vignetting: String?

    @Option(name: .long, help: "Gaussian blur sigma in pixels, [wide:|tele:]SIGMA (e.g. wide:0.5,tele:1.2).")
    var blur: String?

    @Option(name: .customLong("shot-noise"), help: "Shot-noise variance per unit raw signal (1/electrons at full scale), [wide:|tele:]A.")
    var shotNoise: String?

    @Option(name: .customLong("read-noise"), help: "Read-noise sigma as a fraction of full scale, [wide:|tele:]B.")
    var readNoise: String?

    @Option(name: .customLong("jpeg-quality"), help: "JPEG round trip of the images, [wide:|tele:]Q with Q 1-100 or none.")
    var jpegQuality: String?

    @Option(name: .customLong("light-level"), parsing: .unconditional,
            help: "Scene light as a fraction of nominal (low light: 0.05); gain 1/level after noise.")
    var lightLevel: Double?

    /// The conditions the flags ask for; one-line errors naming the flag.
    func captureConditions() throws -> CaptureConditions {
        var result = CaptureConditions.preset(named: conditions.name)!  // the parser accepts listed names only
        try apply("--exposure", exposure, .exposure, to: &result) { $0.exposure = $1[0] }
        try apply("--white-balance", whiteBalance, .whiteBalance, arity: 3, to: &result) {
            $0.whiteBalance = ChannelGains($1[0], $1[1], $1[2])
        }
        try apply("--gamma", gamma, .gamma, to: &result) { $0.gamma = $1[0] }
        try apply("--vignetting", vignetting, .vignetting, to: &result) { $0.vignettingCornerFalloff = $1[0] }
        try apply("--blur", blur, .blur, to: &result) { $0.blurSigmaPixels = $1[0] }
        try apply("--shot-noise", shotNoise, .shotNoise, to: &result) { $0.shotNoise = $1[0] }
        try apply("--read-noise", readNoise, .readNoise, to: &result) { $0.readNoise = $1[0] }
        try apply("--jpeg-quality", jpegQuality, .jpegQuality, to: &result) { $0.jpegQuality = $1[0].isNaN ? nil : Int($1[0]) }
        if let lightLevel {
            guard ConditionParameter.lightLevel.accepts(lightLevel) else {
                throw DualcamError.invalidValue(name: "--light-level", reason: ConditionParameter.lightLevel.expectation)
            }
            result.lightLevel = lightLevel
        }
        return result
    }

    /// Parses `value` of `flag` as per-camera groups of `arity` numbers, checks
    /// each against `parameter`'s range and stores them with `set`. NaN stands
    /// for `none` (JPEG quality only).
    func apply(_ flag: String, _ value: String?, _ parameter: ConditionParameter, arity: Int = 1,
               to conditions: inout CaptureConditions, _ set: (inout CameraConditions, [Double]) -> Void) throws {
        guard let value else { return }
        let shape = arity == 3 ? "R,G,B" : "V"
        let syntax = "expected \(shape), wide:\(shape), tele:\(shape) or wide:\(shape),tele:\(shape)"
        func bad(_ reason: String) -> DualcamError { .invalidValue(name: "\(flag) '\(value)'", reason: reason) }
        var groups: [(cameras: [FrameName], tokens: [String])] = []
        for token in value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            if let colon = token.firstIndex(of: ":") {
                guard let camera = [FrameName.wide, .tele].first(where: { $0.rawValue == token[..<colon] }) else {
                    throw bad("'\(token[..<colon])' is not a camera; \(syntax)")
                }
                guard groups.isEmpty || groups[0].cameras.count == 1,
                      !groups.contains(where: { $0.cameras == [camera] }) else {
                    throw bad(syntax)
                }
                groups.append(([camera], [String(token[token.index(after: colon)...])]))
            } else if groups.isEmpty {
                groups.append(([.wide, .tele], [token]))
            } else {
                groups[groups.count - 1].tokens.append(token)
            }
        }
        for group in groups {
            guard group.tokens.count == arity else { throw bad(syntax) }
            let numbers = try group.tokens.map { token -> Double in
                if parameter == .jpegQuality, token == "none" { return .nan }
                guard let number = Double(token), parameter.accepts(number) else { throw bad(parameter.expectation) }
                return number
            }
            for camera in group.cameras { set(&conditions[camera], numbers) }
        }
    }
}
