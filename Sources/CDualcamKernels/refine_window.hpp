// The window arithmetic of the subpixel refinement (stereo_refine.cpp): the
// padded window tables and the three passes over a window (plane slopes,
// weights, moments of the resampled images). Every function here is inlined
// into the per-radius loops of `refine_rows`, so the trip counts are constants.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace dualcam_kernels {

/// Largest refinement radius: `refine_rows` is instantiated for 1...10.
constexpr int kMaxRadius = 10;
/// Window loops run over a multiple of this many elements: 8 float lanes of
/// an AVX2 vector, so the vectorized loops need no remainder.
constexpr int kLanes = 8;
/// A neighbour whose disparity is within this of the centre's (px) lies on
/// the centre's surface: SGBM's errors are below a pixel, depth steps larger.
constexpr float kSameSurface = 1.0f;
/// The plane's slopes need same-surface support of at least kSlopeSupport R^2
/// pixels (about half the (2R+1)^2 window); less is a corner or a sliver.
constexpr int kSlopeSupport = 2;
/// Smallest determinant of the slope fit's normal equations: below it the
/// support is (nearly) a line and the slopes are undefined.
constexpr double kMinSlopeDeterminant = 1e-9;
/// Largest plane slope (disparity px per px): steeper is a surface seen almost
/// edge-on, where a fitted slope is noise; the resampling also needs ax >= 0.5.
constexpr double kMaxSlope = 0.5;
/// Same-surface weight: Gaussian in the plane residual with this sigma (px),
/// so that small depth steps inside the window weigh little.
constexpr float kPlaneSigma = 0.35f;
/// Colour weight: Gaussian in the grey-level difference to the centre with
/// this sigma (levels), so that another object's texture weighs little.
constexpr float kColourSigma = 40.0f;
/// Smallest total window weight: less than one full-weight pixel is no fit.
constexpr float kMinWeightSum = 1.0f;

/// exp(x) for x <= 0, clamped at kExpFloor (where it is below 2e-35 and
/// contributes nothing to a weight): Cody-Waite reduction to |r| <= ln2/2 and
/// a degree-6 Taylor polynomial (relative error below 1e-7). Written out
/// because libm's expf does not vectorize.
constexpr float kExpFloor = -80.0f;
constexpr float kLog2e = 1.44269504088896341f;
// ln 2 = kLn2High - kLn2Low: the high part has few mantissa bits, so n kLn2High
// subtracts without rounding, and the small remainder is added back.
constexpr float kLn2High = 0.693359375f, kLn2Low = 2.12194440e-4f;
constexpr int kExponentBias = 127, kMantissaBits = 23;  // IEEE single precision
inline __attribute__((always_inline)) float exp_nonpositive(float x) {
    x = std::max(x, kExpFloor);
    const float n = __builtin_rintf(x * kLog2e);
    float r = x - n * kLn2High;
    r = r + n * kLn2Low;
    const float p =
        1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720))))));
    const int32_t bits = ((int32_t)n + kExponentBias) << kMantissaBits;
    return p * __builtin_bit_cast(float, bits);
}

/// Window sizes for radius R: (2R+1)^2 elements padded to a multiple of kLanes.
template <int R>
struct Window {
    static constexpr int side = 2 * R + 1;
    static constexpr int count = side * side;
    static constexpr int padded = (count + kLanes - 1) / kLanes * kLanes;
};

/// The window's element offsets, padded with zero-weight centre elements
/// (built outside the multiversioned code: clang does not emit template
/// members instantiated only inside target_clones functions).
struct WindowTable {
    std::vector<float> dx, dy, inside;
    std::vector<int> quadRel;
    WindowTable(int r, int cols) {
        const int side = 2 * r + 1, count = side * side, padded = (count + kLanes - 1) / kLanes * kLanes;
        dx.assign(padded, 0.0f); dy.assign(padded, 0.0f); inside.assign(padded, 0.0f);
        for (int k = 0; k < count; ++k) {
            dx[k] = (float)(k % side - r);
            dy[k] = (float)(k / side - r);
            inside[k] = 1.0f;
        }
        quadRel.resize(padded);
        for (int k = 0; k < padded; ++k) quadRel[k] = (int)dy[k] * cols * 4;
    }
};

/// Raw pointers into a WindowTable.
struct WindowView {
    const float *dx, *dy, *inside;
    const int *quadRel;  // dy * cols * 4: the offset of the element's row in `MatchQuads`
};

/// Raw views of the inputs (float32 of one size and stride).
struct View {
    const float *base, *match, *baseDx, *disparity;
    int cols, rows, stride;
    float sign;
    float textureSigma;
    /// `MatchQuads` of rows pairsRow0... (what one bilinear match sample reads).
    const float *pairs;
    int pairsRow0;
};

/// The match image and its gradient interleaved: per pixel j of rows
/// row0..<row1 the four values match[j], match[j + 1], matchDx[j],
/// matchDx[j + 1] (the last column repeats its own), so that one 16-byte
/// load per window element replaces four scattered ones.
struct MatchQuads {
    std::vector<float> values;
    MatchQuads(const float *match, const float *matchDx, int cols, int stride, int row0, int row1) {
        values.resize((size_t)(row1 - row0) * cols * 4);
        float *q = values.data();
        for (int y = row0; y < row1; ++y) {
            const float *m = match + (size_t)y * stride, *g = matchDx + (size_t)y * stride;
            for (int x = 0; x < cols; ++x, q += 4) {
                const int next = x + 1 < cols ? x + 1 : x;
                q[0] = m[x]; q[1] = m[next]; q[2] = g[x]; q[3] = g[next];
            }
        }
    }
};

/// Weighted moments of the resampled intensities b, m and gradients bx, mx.
/// A trivial aggregate (no member initializers): clang does not emit
/// constructors used only inside target_clones functions.
struct Moments {
    float b, m, bb, mm, bm, bx, mx, bxbx, mxmx, bxmx;
    float bxb, bxm, mxb, mxm;
};

/// The slopes gx, gy of the disparity plane through the centre, fitted to the
/// neighbours' SGBM disparities of the same surface (0 without support);
/// `disparity` is the window's (`window_copy`).
template <int R>
inline __attribute__((always_inline)) void plane_slopes(const float *disparity, const WindowView &win, float d0,
                                                        double &gx, double &gy) {
    constexpr int P = Window<R>::padded;
    float sxx = 0, sxy = 0, syy = 0, sxd = 0, syd = 0, n = 0;
    {
#pragma clang fp reassociate(on)
        for (int k = 0; k < P; ++k) {
            const float diff = disparity[k] - d0;
            const bool same = std::fabs(diff) <= kSameSurface && win.inside[k] > 0;
            const float m = same ? 1.0f : 0.0f, dd = same ? diff : 0.0f;
            const float dx = win.dx[k], dy = win.dy[k];
            sxx += m * dx * dx; sxy += m * dx * dy; syy += m * dy * dy;
            sxd += dx * dd; syd += dy * dd; n += m;
        }
    }
    const double det = (double)sxx * syy - (double)sxy * sxy;
    if (n >= kSlopeSupport * R * R && det > kMinSlopeDeterminant) {
        gx = std::clamp(((double)syy * sxd - (double)sxy * syd) / det, -kMaxSlope, kMaxSlope);
        gy = std::clamp(((double)sxx * syd - (double)sxy * sxd) / det, -kMaxSlope, kMaxSlope);
    }
}

/// Window weights: same surface (Gaussian in the plane residual; none where
/// SGBM had no value, mostly the half-occluded strip beside a depth edge,
/// which would pull the window across the edge) times a colour Gaussian
/// about the centre; `disparity` and `base` are the window's (`window_copy`).
/// Returns their sum.
template <int R>
inline __attribute__((always_inline)) float window_weights(const float *disparity, const float *base,
                                                           const WindowView &win, float d0, float fgx, float fgy,
                                                           float centre, float *weights) {
    constexpr int P = Window<R>::padded;
    constexpr float kResidual = 1.0f / (2.0f * kPlaneSigma * kPlaneSigma),
                    kColour = 1.0f / (2.0f * kColourSigma * kColourSigma);
#pragma clang loop vectorize(enable)
    for (int k = 0; k < P; ++k) {
        const float dj = disparity[k];
        const float di = base[k] - centre;
        const float residual = dj - (d0 + fgx * win.dx[k] + fgy * win.dy[k]);
        const bool missing = dj != dj;
        const float colour = di * di * kColour;
        const float t = missing ? 0.0f : residual * residual * kResidual + colour;
        const float factor = !missing && std::fabs(residual) <= kSameSurface ? 1.0f : 0.0f;
        weights[k] = win.inside[k] * factor * exp_nonpositive(-t);
    }
    float sw = 0;
    {
        // Reassociated so the sum vectorizes (as `window_moments`' sums).
#pragma clang fp reassociate(on)
        for (int k = 0; k < P; ++k) sw += weights[k];
    }
    return sw;
}

/// The window about `centre` (row stride `stride`) in the padded window order:
/// row by row, the padding elements the centre (`WindowTable`).
template <int R>
inline __attribute__((always_inline)) void window_copy(const float *centre, int stride, float *out) {
    constexpr int side = Window<R>::side, count = Window<R>::count, P = Window<R>::padded;
    for (int r = 0; r < side; ++r)
        for (int c = 0; c < side; ++c) out[r * side + c] = centre[(r - R) * stride + c - R];
    for (int k = count; k < P; ++k) out[k] = centre[0];
}

/// The four values of `MatchQuads` at the offsets `quad` (floats) into
/// arrays by element: 8 elements at a time, a 4x4 transpose in each half of
/// a pair of 8-lane vectors.
template <int P>
inline __attribute__((always_inline)) void match_samples(const float *pairs, const int *quad, float *m0, float *m1,
                                                         float *h0, float *h1) {
    typedef float f4 __attribute__((vector_size(16)));
    typedef float f8 __attribute__((vector_size(32)));
    for (int k = 0; k < P; k += kLanes) {
        f4 q[kLanes];  // element k + i in q[i]
        for (int i = 0; i < kLanes; ++i) std::memcpy(&q[i], pairs + quad[k + i], sizeof q[i]);
        const f8 a = __builtin_shufflevector(q[0], q[4], 0, 1, 2, 3, 4, 5, 6, 7);
        const f8 b = __builtin_shufflevector(q[1], q[5], 0, 1, 2, 3, 4, 5, 6, 7);
        const f8 c = __builtin_shufflevector(q[2], q[6], 0, 1, 2, 3, 4, 5, 6, 7);
        const f8 d = __builtin_shufflevector(q[3], q[7], 0, 1, 2, 3, 4, 5, 6, 7);
        const f8 abLo = __builtin_shufflevector(a, b, 0, 8, 1, 9, 4, 12, 5, 13);
        const f8 cdLo = __builtin_shufflevector(c, d, 0, 8, 1, 9, 4, 12, 5, 13);
        const f8 abHi = __builtin_shufflevector(a, b, 2, 10, 3, 11, 6, 14, 7, 15);
        const f8 cdHi = __builtin_shufflevector(c, d, 2, 10, 3, 11, 6, 14, 7, 15);
        const f8 v0 = __builtin_shufflevector(abLo, cdLo, 0, 1, 8, 9, 4, 5, 12, 13);
        const f8 v1 = __builtin_shufflevector(abLo, cdLo, 2, 3, 10, 11, 6, 7, 14, 15);
        const f8 v2 = __builtin_shufflevector(abHi, cdHi, 0, 1, 8, 9, 4, 5, 12, 13);
        const f8 v3 = __builtin_shufflevector(abHi, cdHi, 2, 3, 10, 11, 6, 7, 14, 15);
        std::memcpy(m0 + k, &v0, sizeof v0);
        std::memcpy(m1 + k, &v1, sizeof v1);
        std::memcpy(h0 + k, &v2, sizeof v2);
        std::memcpy(h1 + k, &v3, sizeof v3);
    }
}

/// The weighted moments of one iteration: the base resampled at +delta/2 (one
/// integer offset and one fraction for the whole window), the match along
/// the plane at -delta/2, intensities centred on `cb` and `cm` (the centre's).
/// Returns false when the window leaves the image.
template <int R>
inline __attribute__((always_inline)) bool window_moments(const View &v, const WindowView &win, int x, int p0,
                                                          float d0, double delta, float ay, float ax, float cb,
                                                          float cm, const float *weights, Moments &s) {
    constexpr int P = Window<R>::padded;
    const float shiftB = (float)(v.sign * delta / 2);
    const float floorB = std::floor(shiftB);
    const int offB = (int)floorB;
    const float fb = shiftB - floorB;
    if (x - R + offB < 0 || x + R + offB + 1 >= v.cols) return false;
    // Match positions xm = a0 + ay dy + ax dx: linear, so the corners bound them.
    const float a0 = (float)(x - v.sign * (d0 + delta / 2));
    const float reach = R * ax + R * std::fabs(ay);
    if (a0 - reach < 0 || a0 + reach >= v.cols - 1) return false;
    // The base window (and its right neighbour) is copied row by row: each
    // window row is contiguous in the image, so no element needs a gather.
    // At a whole-pixel shift (always the first iteration, delta = 0) the
    // right neighbours carry weight fb = 0: b0 stands in for them, and
    // b0 + 0 (b0 - b0) is b0 exactly, so the result is the same.
    float b0[P], b1[P], g0[P], g1[P];
    window_copy<R>(v.base + p0 + offB, v.stride, b0);
    window_copy<R>(v.baseDx + p0 + offB, v.stride, g0);
    const bool whole = fb == 0.0f;
    if (!whole) {
        window_copy<R>(v.base + p0 + offB + 1, v.stride, b1);
        window_copy<R>(v.baseDx + p0 + offB + 1, v.stride, g1);
    }
    const float *nb = whole ? b0 : b1, *ng = whole ? g0 : g1;
    // The match samples: positions first, then one 16-byte load of both
    // neighbours and both gradients per element, transposed into four arrays.
    float fms[P], m0[P], m1[P], h0[P], h1[P];
    int quad[P];
    const int quadRow = (p0 / v.stride - v.pairsRow0) * v.cols * 4;
    for (int k = 0; k < P; ++k) {
        const float xm = a0 + win.dy[k] * ay + win.dx[k] * ax;
        const int im = (int)xm;
        fms[k] = xm - (float)im;
        quad[k] = quadRow + win.quadRel[k] + 4 * im;
    }
    match_samples<P>(v.pairs, quad, m0, m1, h0, h1);
    float Sb = 0, Sm = 0, Sbb = 0, Smm = 0, Sbm = 0, Sbx = 0, Smx = 0, Sbxbx = 0, Smxmx = 0, Sbxmx = 0;
    float Sbxb = 0, Sbxm = 0, Smxb = 0, Smxm = 0;
    {
#pragma clang fp reassociate(on)
        for (int k = 0; k < P; ++k) {
            const float b = b0[k] + fb * (nb[k] - b0[k]) - cb;
            const float bx = g0[k] + fb * (ng[k] - g0[k]);
            const float fm = fms[k];
            const float m = m0[k] + fm * (m1[k] - m0[k]) - cm;
            const float mx = h0[k] + fm * (h1[k] - h0[k]);
            const float w = weights[k];
            const float wb = w * b, wm = w * m, wbx = w * bx, wmx = w * mx;
            Sb += wb; Sm += wm; Sbb += wb * b; Smm += wm * m; Sbm += wb * m;
            Sbx += wbx; Smx += wmx; Sbxbx += wbx * bx; Smxmx += wmx * mx; Sbxmx += wbx * mx;
            Sbxb += wbx * b; Sbxm += wbx * m; Smxb += wmx * b; Smxm += wmx * m;
        }
    }
    s = Moments{Sb, Sm, Sbb, Smm, Sbm, Sbx, Smx, Sbxbx, Smxmx, Sbxmx, Sbxb, Sbxm, Smxb, Smxm};
    return true;
}

}  // namespace dualcam_kernels
