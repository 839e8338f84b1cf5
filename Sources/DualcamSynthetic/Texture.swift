/// Surface coordinates of a hit point, in metres, world-anchored (a function
/// of the surface point only, so every camera sees the same texture):
/// - rectangle: u = (P - c) . uAxis, v = (P - c) . (normal x uAxis);
///   half extents = the rectangle's.
/// - box: the face's two in-plane axes in cyclic order (axis a+1, a+2 for a
///   face normal to axis a), relative to the face centre; half extents = the
///   box's half sizes along them.
/// - sphere: u = radius * longitude, v = radius * latitude with
///   longitude = atan2(q.x, q.z), latitude = asin(-q.y / radius), q = P - centre;
///   half extents pi r and pi r / 2.
/// `textureOffset` (metres, added to u and v for procedural textures only)
/// decorrelates the six faces of a box.
struct SurfaceCoordinates {
    var u: Double
    var v: Double
    var halfU: Double
    var halfV: Double
    var textureOffset: Double
}

/// The evaluation form of an `Appearance`: plain values, no existentials.
struct CompiledAppearance {
    enum Kind: UInt8 { case textured, flat, bitmap, repetitive, painted }

    /// Number of value-noise octaves (wavelengths featureSize * 2^k, k = 0..<octaves).
    static let octaves = 4
    /// Patch cell size in units of featureSize.
    static let patchCellFactor = 4.0

    var kind: Kind
    var base: SIMD3<Double>
    var frequency = 0.0
    var contrast = 0.0
    var edgeDensity = 0.0
    var octaveSeed: UInt64 = 0
    var patchSeed: UInt64 = 0
    var patchCos = 1.0
    var patchSin = 0.0
    var patchFrequency = 0.0
    var bitmapIndex = -1
    /// Repetitive patterns (`RepetitiveTextures.swift`): the second colour,
    /// the pattern and its duty cycle / grout fraction.
    var second = SIMD3<Double>.zero
    var pattern = Pattern.chessboard
    var edge = 0.0

    init(_ appearance: Appearance, bitmapIndex: Int) throws {
        switch appearance {
        case let .flat(c):
            kind = .flat
            base = SIMD3(c.r, c.g, c.b)
        case .bitmap:
            // The bitmap itself lives in the caster's `bitmaps` array.
            kind = .bitmap
            base = .zero
            self.bitmapIndex = bitmapIndex
        case let .textured(t):
            guard t.featureSize.isFinite, t.featureSize > 0 else {
                throw RenderError.invalidScene("texture featureSize must be a positive number of metres, got \(t.featureSize)")
            }
            kind = .textured
            base = SIMD3(t.baseColor.r, t.baseColor.g, t.baseColor.b)
            frequency = 1 / t.featureSize
            contrast = t.contrast
            edgeDensity = t.edgeDensity
            octaveSeed = NoiseHash.combine(t.seed, 1)
            patchSeed = NoiseHash.combine(t.seed, 2)
            let angle = 2 * Double.pi * NoiseHash.unit(NoiseHash.combine(t.seed, 3))
            patchCos = cos(angle)
            patchSin = sin(angle)
            patchFrequency = 1 / (Self.patchCellFactor * t.featureSize)
        case let .repetitive(t):
            kind = .repetitive
            base = .zero
            try compile(t)
        case let .painted(p):
            kind = .painted
            base = .zero
            try compile(p)
        }
    }

    /// The colour at surface coordinates `s` (display-encoded RGB, each in [0, 1]).
    @inline(__always)
    func color(_ s: SurfaceCoordinates, bitmaps: UnsafeBufferPointer<Bitmap>) -> SIMD3<Double> {
        switch kind {
        case .flat:
            return base
        case .textured:
            return procedural(u: s.u + s.textureOffset, v: s.v + 0.618 * s.textureOffset)
        case .bitmap:
            let bitmap = bitmaps[bitmapIndex]
            let grey = Double(Self.bitmapValue(bitmap, u: s.u, v: s.v, halfU: s.halfU, halfV: s.halfV)) / 255
            return SIMD3(repeating: grey)
        case .repetitive:
            return repetitive(u: s.u, v: s.v)
        case .painted:
            return painted(u: s.u, v: s.v)
        }
    }

    /// Procedural texture (see `ProceduralTexture.color(u:v:)` for the formula).
    @inline(__always)
    func procedural(u: Double, v: Double) -> SIMD3<Double> {
        var n = 0.0
        var f = frequency
        var seed = octaveSeed
        for _ in 0..<Self.octaves {
            n += 2 * ValueNoise.sample(u * f, v * f, seed: seed) - 1
            f *= 0.5
            seed &+= NoiseHash.golden
        }
        n = min(max(0.5 * n, -1), 1)
        var tone = 1.0
        let pu = (patchCos * u - patchSin * v) * patchFrequency
        let pv = (patchSin * u + patchCos * v) * patchFrequency
        let h = NoiseHash.lattice(patchSeed, NoiseHash.floorInt(pu), NoiseHash.floorInt(pv))
        if NoiseHash.unit(h) < edgeDensity {
            let g = NoiseHash.unit(NoiseHash.mix(h))
            tone = g < 0.5 ? 0.3 + 0.5 * g : 1.2 + 0.5 * g
        }
        let c = base * (tone * (1 + contrast * n))
        return SIMD3(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1))
    }

    /// Nearest-neighbour bitmap lookup: column floor((u + halfU) / (2 halfU) * width),
    /// row floor((v + halfV) / (2 halfV) * height), clamped to the bitmap.
    @inline(__always)
    static func bitmapValue(_ b: Bitmap, u: Double, v: Double, halfU: Double, halfV: Double) -> UInt8 {
        let x = NoiseHash.floorInt((u + halfU) / (2 * halfU) * Double(b.width))
        let y = NoiseHash.floorInt((v + halfV) / (2 * halfV) * Double(b.height))
        return b.pixels[min(max(y, 0), b.height - 1) * b.width + min(max(x, 0), b.width - 1)]
    }
}

extension ProceduralTexture {
    /// The texture's colour at surface coordinates (u, v) in metres:
    ///
    ///     n    = clamp(0.5 * sum_{k=0}^{3} (2 N_k(u / (featureSize 2^k), v / (featureSize 2^k)) - 1), -1, 1)
    ///     tone = 1, or for hashed patch cells (a grid of 4 * featureSize squares,
    ///            rotated by a seed-dependent angle) with probability edgeDensity
    ///            a dark tone in [0.3, 0.55) or a bright one in [1.45, 1.7)
    ///     colour = clamp(baseColor * tone * (1 + contrast * n), 0, 1)
    ///
    /// where N_k is value noise (`ValueNoise`, lattice spacing = the octave's
    /// wavelength) with an independent seed per octave derived from `seed`.
    /// The patches give hard edges at many orientations; the noise gives texture
    /// at every scale from featureSize to 8 * featureSize.
    public func color(u: Double, v: Double) -> RGB {
        // A textured appearance always compiles when featureSize > 0.
        guard let compiled = try? CompiledAppearance(.textured(self), bitmapIndex: -1) else { return baseColor }
        let c = compiled.procedural(u: u, v: v)
        return RGB(c.x, c.y, c.z)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
