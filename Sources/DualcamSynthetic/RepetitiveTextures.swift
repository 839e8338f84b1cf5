#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Scene content the procedural texture lacks, which real scenes are full of:
// periodic patterns (floor tiles, wallpaper stripes, chessboards), where a
// stereo matcher finds a good match every period, and painted walls, where it
// finds nothing to match. Both are functions of the surface coordinates (u, v)
// in metres (`SurfaceCoordinates`: measured from the shape's centre; box faces
// use no texture offset here, so a pattern's phase is fixed at the face centre).

/// A periodic pattern on a surface, `periodMetres` long along the surface.
///
/// Seen on a fronto-parallel surface at depth Z by a camera of focal length
/// f_px (pixels), the pattern repeats every period_px = f_px * periodMetres / Z
/// pixels; on a slanted surface the period shrinks with the foreshortening.
public struct RepetitiveTexture: Equatable, Hashable, Sendable {
    public enum Kind: Equatable, Hashable, Sendable {
        /// Stripes across u (bars parallel to v): colour `primary` where
        /// frac(u / period) < dutyCycle, `secondary` elsewhere. A small duty
        /// cycle gives thin lines (slats, a grille painted on a surface).
        case stripesAlongU(dutyCycle: Double)
        /// The same across v (bars parallel to u).
        case stripesAlongV(dutyCycle: Double)
        /// Squares of side period / 2: `primary` where floor(2u / period) +
        /// floor(2v / period) is even, `secondary` where odd (so the pattern
        /// repeats every period along u and along v).
        case chessboard
        /// Square tiles laid on a grid of pitch `period`: grout lines of
        /// `groutMetres` width (colour `secondary`) where
        /// frac(u / period) * period < groutMetres or the same in v, tile
        /// (colour `primary`) elsewhere.
        case tiles(groutMetres: Double)
    }

    public var kind: Kind
    /// The repeat distance along the surface, metres.
    public var periodMetres: Double
    /// Stripe / first square / tile colour (display-encoded RGB, see `RGB`).
    public var primary: RGB
    /// Gap / second square / grout colour.
    public var secondary: RGB

    public init(kind: Kind, periodMetres: Double, primary: RGB, secondary: RGB) {
        self.kind = kind
        self.periodMetres = periodMetres
        self.primary = primary
        self.secondary = secondary
    }

    /// The colour at surface coordinates (u, v), metres (see `Kind`).
    public func color(u: Double, v: Double) -> RGB {
        guard let compiled = try? CompiledAppearance(.repetitive(self), bitmapIndex: -1) else { return primary }
        let c = compiled.repetitive(u: u, v: v)
        return RGB(c.x, c.y, c.z)
    }
}

/// A painted wall: a flat colour with only very low-amplitude, large-scale
/// shading (uneven light on the paint), i.e. a textureless surface:
///
///     colour = clamp(base * (1 + shadingAmplitude * (2 N(u' / wavelength, v' / wavelength) - 1)), 0, 1)
///
/// with (u', v') = (u + uOffsetMetres, v + vOffsetMetres): several rectangles
/// that form one wall (around a window) share one continuous shading when
/// each is given its centre's offset from the wall's centre in (u, v);
/// with N the value noise of the procedural texture (`ValueNoise`, quintic
/// fade, lattice spacing = shadingWavelengthMetres). Between neighbouring
/// pixels the shading changes by about shadingAmplitude * pixel footprint /
/// wavelength, far below one 8-bit level for the defaults.
public struct PaintedSurface: Equatable, Hashable, Sendable {
    public var base: RGB
    /// Relative amplitude of the shading, in [0, 0.2] (0 = perfectly flat).
    public var shadingAmplitude: Double
    /// Spatial scale of the shading, metres.
    public var shadingWavelengthMetres: Double
    public var seed: UInt64
    /// Added to the surface coordinates before shading, metres.
    public var uOffsetMetres: Double
    public var vOffsetMetres: Double

    public init(base: RGB, shadingAmplitude: Double = 0.02, shadingWavelengthMetres: Double = 1.5, seed: UInt64 = 0,
                uOffsetMetres: Double = 0, vOffsetMetres: Double = 0) {
        self.base = base
        self.shadingAmplitude = shadingAmplitude
        self.shadingWavelengthMetres = shadingWavelengthMetres
        self.seed = seed
        self.uOffsetMetres = uOffsetMetres
        self.vOffsetMetres = vOffsetMetres
    }

    /// The colour at surface coordinates (u, v), metres.
    public func color(u: Double, v: Double) -> RGB {
        guard let compiled = try? CompiledAppearance(.painted(self), bitmapIndex: -1) else { return base }
        let c = compiled.painted(u: u, v: v)
        return RGB(c.x, c.y, c.z)
    }
}

/// Compiled fields of the two appearances (in `CompiledAppearance`):
/// - repetitive: `frequency` = 1 / period, `pattern` the kind, `edge` the duty
///   cycle or the grout width in periods, `base` / `second` the two colours.
/// - painted: `frequency` = 1 / wavelength, `contrast` = amplitude,
///   `octaveSeed` the noise seed, `base` the paint, `second` = (uOffset, vOffset, 0).
extension CompiledAppearance {
    enum Pattern: UInt8 { case stripesU, stripesV, chessboard, tiles }

    mutating func compile(_ t: RepetitiveTexture) throws {
        guard t.periodMetres.isFinite, t.periodMetres > 0 else {
            throw RenderError.invalidScene("repetitive texture period must be a positive number of metres, got \(t.periodMetres)")
        }
        kind = .repetitive
        base = SIMD3(t.primary.r, t.primary.g, t.primary.b)
        second = SIMD3(t.secondary.r, t.secondary.g, t.secondary.b)
        frequency = 1 / t.periodMetres
        switch t.kind {
        case let .stripesAlongU(duty), let .stripesAlongV(duty):
            guard duty >= 0, duty <= 1 else {
                throw RenderError.invalidScene("stripes duty cycle must be in [0, 1], got \(duty)")
            }
            pattern = { if case .stripesAlongU = t.kind { return .stripesU } else { return .stripesV } }()
            edge = duty
        case .chessboard:
            pattern = .chessboard
        case let .tiles(grout):
            guard grout >= 0, grout < t.periodMetres else {
                throw RenderError.invalidScene("tile grout must be from 0 to the period (\(t.periodMetres) m), got \(grout)")
            }
            pattern = .tiles
            edge = grout / t.periodMetres
        }
    }

    mutating func compile(_ p: PaintedSurface) throws {
        guard p.shadingWavelengthMetres.isFinite, p.shadingWavelengthMetres > 0,
              p.shadingAmplitude >= 0, p.shadingAmplitude <= 0.2 else {
            throw RenderError.invalidScene(
                "painted surface needs a positive shading wavelength and an amplitude in [0, 0.2], got "
                    + "\(p.shadingWavelengthMetres) m and \(p.shadingAmplitude)")
        }
        kind = .painted
        base = SIMD3(p.base.r, p.base.g, p.base.b)
        frequency = 1 / p.shadingWavelengthMetres
        contrast = p.shadingAmplitude
        octaveSeed = NoiseHash.combine(p.seed, 11)
        second = SIMD3(p.uOffsetMetres, p.vOffsetMetres, 0)
    }

    /// frac(t) in [0, 1).
    @inline(__always)
    static func fraction(_ t: Double) -> Double { t - Double(NoiseHash.floorInt(t)) }

    /// The repetitive pattern's colour at (u, v) metres.
    @inline(__always)
    func repetitive(u: Double, v: Double) -> SIMD3<Double> {
        let pu = u * frequency, pv = v * frequency
        let first: Bool
        switch pattern {
        case .stripesU: first = Self.fraction(pu) < edge
        case .stripesV: first = Self.fraction(pv) < edge
        case .chessboard: first = (NoiseHash.floorInt(2 * pu) &+ NoiseHash.floorInt(2 * pv)) & 1 == 0
        case .tiles: first = Self.fraction(pu) >= edge && Self.fraction(pv) >= edge
        }
        return first ? base : second
    }

    /// The painted surface's colour at (u, v) metres.
    @inline(__always)
    func painted(u: Double, v: Double) -> SIMD3<Double> {
        let n = 2 * ValueNoise.sample((u + second.x) * frequency, (v + second.y) * frequency, seed: octaveSeed) - 1
        let c = base * (1 + contrast * n)
        return SIMD3(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1))
    }
}
