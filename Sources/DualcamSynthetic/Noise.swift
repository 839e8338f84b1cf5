#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Deterministic hashing and noise primitives of the renderer.
///
/// Every random quantity (texture lattice values, sample jitter, sensor
/// noise) is a pure function of integers: a seed, a camera name, pixel
/// coordinates and a sample index, hashed with SplitMix64's bijective
/// finaliser. Nothing depends on a shared generator, so results do not depend
/// on thread scheduling, and nothing uses Swift's `Hasher` (randomly seeded per
/// process).
enum NoiseHash {
    static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// SplitMix64's finaliser: a bijective, well-avalanched 64-bit mix.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Chains one more value into a hash: mix(h + golden + v * golden').
    @inline(__always)
    static func combine(_ h: UInt64, _ v: UInt64) -> UInt64 {
        mix(h &+ golden &+ v &* 0xC2B2_AE3D_27D4_EB4F)
    }

    @inline(__always)
    static func combine(_ h: UInt64, _ v: Int) -> UInt64 { combine(h, UInt64(bitPattern: Int64(v))) }

    /// 64-bit FNV-1a of a string's UTF-8 bytes (stable across runs and platforms).
    static func string(_ s: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in s.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// The hash of one 2-D lattice point, one mix: used by value noise and patches.
    @inline(__always)
    static func lattice(_ seed: UInt64, _ ix: Int, _ iy: Int) -> UInt64 {
        mix(seed ^ (UInt64(bitPattern: Int64(ix)) &* golden) ^ (UInt64(bitPattern: Int64(iy)) &* 0xC2B2_AE3D_27D4_EB4F))
    }

    /// A uniform number in [0, 1) from the top 53 bits of a hash.
    @inline(__always)
    static func unit(_ h: UInt64) -> Double { Double(h >> 11) * 0x1p-53 }

    /// floor(x) as an Int without a libm call; 0 for NaN or |x| >= 1e15 (far
    /// outside any scene, where the texture no longer matters).
    @inline(__always)
    static func floorInt(_ x: Double) -> Int {
        guard abs(x) < 1e15 else { return 0 }
        let i = Int(x)
        return Double(i) > x ? i - 1 : i
    }

    /// Two independent standard normal numbers from two hashes (Box-Muller):
    /// r = sqrt(-2 ln(1 - U1)), (r cos 2 pi U2, r sin 2 pi U2).
    @inline(__always)
    static func gaussianPair(_ h1: UInt64, _ h2: UInt64) -> (Double, Double) {
        let r = (-2 * log(1 - unit(h1))).squareRoot()
        let theta = 2 * Double.pi * unit(h2)
        return (r * cos(theta), r * sin(theta))
    }
}

/// 2-D value noise: uniform random values at integer lattice points (from
/// `NoiseHash.lattice(seed, i, j)`), blended with the quintic fade
/// s(t) = 6t^5 - 15t^4 + 10t^3 (C2-continuous). Values lie in [0, 1).
enum ValueNoise {
    @inline(__always)
    static func fade(_ t: Double) -> Double { t * t * t * (t * (t * 6 - 15) + 10) }

    @inline(__always)
    static func sample(_ x: Double, _ y: Double, seed: UInt64) -> Double {
        let ix = NoiseHash.floorInt(x), iy = NoiseHash.floorInt(y)
        let sx = fade(x - Double(ix)), sy = fade(y - Double(iy))
        let v00 = NoiseHash.unit(NoiseHash.lattice(seed, ix, iy))
        let v10 = NoiseHash.unit(NoiseHash.lattice(seed, ix &+ 1, iy))
        let v01 = NoiseHash.unit(NoiseHash.lattice(seed, ix, iy &+ 1))
        let v11 = NoiseHash.unit(NoiseHash.lattice(seed, ix &+ 1, iy &+ 1))
        let top = v00 + (v10 - v00) * sx
        let bottom = v01 + (v11 - v01) * sx
        return top + (bottom - top) * sy
    }
}
