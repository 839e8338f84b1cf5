// The depth-edge relabelling of dc_relabel_depth_edges (see
// dualcam_opencv_edge_aware.h): every pixel of a depth-edge region takes the
// near or the far surface by a colour-weighted vote.
//
// Hand-written: no OpenCV filter makes this two-way, edge-region-only
// choice (weightedMedianFilter processes every pixel and cannot leave the
// flying pixels out of the vote). The shim runs OpenCV's min/max filters
// (the window extremes) and the region dilation between the steps.
#include "kernel_common.hpp"
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define DCK_RELABEL_AVX2 1
#endif

namespace dualcam_kernels {
namespace {

/// Channels of the guide (R, G, B) and of its features (Y, Cb, Cr).
constexpr int kChannels = 3;
/// BT.601 luma and colour-difference weights (8-bit RGB to Y, Cb, Cr).
constexpr float kLumaR = 0.299f, kLumaG = 0.587f, kLumaB = 0.114f;
constexpr float kCbScale = 0.564f, kCrScale = 0.713f;
/// The vote's weight exp(-d^2 / (2 sigma^2)) is tabulated over d^2 in
/// [0, kTableReach sigma^2) in kTableSize steps; beyond, it is below 1.3e-4
/// and taken as 0 (the entry one past the table is 0, so clamped indices add
/// exact zeros). Steps of 18/1024 sigma^2 keep the weights within half a percent.
constexpr int kTableSize = 1024;
constexpr double kTableReach = 18.0;
/// Pixels per run of the vector vote (AVX2: 8 floats).
constexpr int kLanes = 8;

}  // namespace
}  // namespace dualcam_kernels

using namespace dualcam_kernels;

struct dck_relabel {
    int rows, cols, voteRadius;
    float ratio, edge;
    // Guide in (sqrt(luma_weight) Y, Cb, Cr) so that squared distances weigh
    // luma as asked, one plane per channel (the vote reads runs of pixels).
    std::unique_ptr<float[]> feature[3];
    float table[kTableSize + 1];
    float toIndex;
    // Per pixel: log depth, voter weight (1 or 0) and, for region pixels,
    // the log-range midpoint (voters at or below it count as near). Written
    // only where a pass reads them (and not zero-filled: nothing reads the
    // rest, and filling it touched every page). The planes the vote reads
    // in runs of kLanes (features, logz, voter) have kLanes - 1 floats of
    // padding, so that a run starting at any pixel stays within them (the
    // lanes past a window's row are read and ignored).
    std::unique_ptr<float[]> logz, voter, mid;
    std::vector<int> regionPixels;
};

namespace {

void make_features(dck_relabel &s, const uint8_t *rgb, size_t step, double lumaWeight) {
    const size_t n = static_cast<size_t>(s.rows) * s.cols;
    for (auto &plane : s.feature) {
        plane.reset(new float[n + kLanes - 1]);
        std::fill(plane.get() + n, plane.get() + n + kLanes - 1, 0.f);
    }
    const float lw = static_cast<float>(std::sqrt(lumaWeight));
    for (int y = 0; y < s.rows; ++y) {
        const uint8_t *g = rgb + (size_t)y * step;
        for (int x = 0; x < s.cols; ++x) {
            const float r = g[kChannels * x], gg = g[kChannels * x + 1], b = g[kChannels * x + 2];
            const float luma = kLumaR * r + kLumaG * gg + kLumaB * b;
            const size_t p = static_cast<size_t>(y) * s.cols + x;
            s.feature[0][p] = lw * luma;
            s.feature[1][p] = kCbScale * (b - luma);
            s.feature[2][p] = kCrScale * (r - luma);
        }
    }
}

void make_table(dck_relabel &s, double sigma) {
    const float step = static_cast<float>(kTableReach * sigma * sigma / kTableSize);
    for (int i = 0; i < kTableSize; ++i) s.table[i] = static_cast<float>(std::exp(-(i + 0.5) * step / (2.0 * sigma * sigma)));
    s.table[kTableSize] = 0.f;
    s.toIndex = 1.f / step;
}

}  // namespace

extern "C" int dck_relabel_create(const uint8_t *rgb, size_t rgb_step, int cols, int rows, int vote_radius,
                                  double sigma, double luma_weight, double min_ratio, double margin,
                                  dck_relabel **out, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DCK_ERR_ARGUMENT, "relabel: out is NULL");
        *out = nullptr;
        if (!rgb || cols < 1 || rows < 1 || rgb_step < (size_t)cols * kChannels)
            return fail(err, DCK_ERR_ARGUMENT, "relabel: no guide, or a bad size or step");
        if (vote_radius < 1 || !(sigma > 0) || !(luma_weight >= 0) || !(min_ratio > 1) || !(margin >= 0 && margin < 0.5))
            return fail(err, DCK_ERR_ARGUMENT,
                        "relabel: vote radius at least 1, sigma positive, luma_weight >= 0, min_ratio above 1, "
                        "margin in [0, 0.5)");
        auto state = std::make_unique<dck_relabel>();
        dck_relabel &s = *state;
        s.rows = rows;
        s.cols = cols;
        s.voteRadius = vote_radius;
        s.ratio = static_cast<float>(min_ratio);
        s.edge = static_cast<float>(margin);
        make_features(s, rgb, rgb_step, luma_weight);
        make_table(s, sigma);
        const size_t n = static_cast<size_t>(rows) * cols;
        s.logz.reset(new float[n + kLanes - 1]);
        s.voter.reset(new float[n + kLanes - 1]);
        // The vote's runs read into the padding and ignore those lanes:
        // zeroed, so no read there is of unwritten memory.
        std::fill(s.logz.get() + n, s.logz.get() + n + kLanes - 1, 0.f);
        std::fill(s.voter.get() + n, s.voter.get() + n + kLanes - 1, 0.f);
        s.mid.reset(new float[n]);
        // Room for every pixel: dck_relabel_regions then never allocates (it cannot fail).
        s.regionPixels.reserve(n);
        *out = state.release();
        return DCK_OK;
    });
}

extern "C" void dck_relabel_free(dck_relabel *state) { delete state; }

/// One pass over the values instead of the masks, compares and masked
/// copies of the same selection in OpenCV.
extern "C" void dck_relabel_extremes_input(const float *depth, int n, float *for_min, float *for_max) {
    const float top = std::numeric_limits<float>::max();
    for (int p = 0; p < n; ++p) {
        const float v = depth[p];
        const bool valid = (v > 0) & (v == v);
        for_min[p] = valid ? v : top;
        for_max[p] = valid ? v : 0.f;
    }
}

extern "C" int dck_relabel_regions(dck_relabel *state, const float *depth, const float *zmin, const float *zmax,
                                   uint8_t *region) {
    dck_relabel &s = *state;
    s.regionPixels.clear();
    const int n = s.rows * s.cols;
    for (int p = 0; p < n; ++p) {
        const bool ok = std::isfinite(depth[p]) && depth[p] > 0;
        const bool inRegion = ok && zmin[p] > 0 && zmax[p] >= s.ratio * zmin[p];
        region[p] = inRegion ? 255 : 0;
        if (inRegion) s.regionPixels.push_back(p);
    }
    return static_cast<int>(s.regionPixels.size());
}

extern "C" void dck_relabel_prepare(dck_relabel *state, const float *depth, const float *zmin, const float *zmax,
                                    const uint8_t *needed) {
    dck_relabel &s = *state;
    const int n = s.rows * s.cols;
    for (int p = 0; p < n; ++p) {
        if (!needed[p]) continue;
        const bool ok = std::isfinite(depth[p]) && depth[p] > 0;
        s.logz[p] = ok ? std::log(depth[p]) : 0.f;
        s.voter[p] = ok ? 1.f : 0.f;
    }
    // A region pixel lying more than `margin` of its window's log range from
    // both extremes is "flying" (a mix of the two surfaces): no voter.
    for (const int p : s.regionPixels) {
        const float a = std::log(zmin[p]), b = std::log(zmax[p]), t = (s.logz[p] - a) / (b - a);
        if (t >= s.edge && t <= 1 - s.edge) s.voter[p] = 0.f;
        s.mid[p] = 0.5f * (a + b);
    }
}

namespace {

/// One region pixel's vote sums over its window: colour weights w of the
/// voters split into near (log depth at or below the pixel's midpoint m)
/// and far, with their weighted log depths.
struct VoteSums {
    float wn = 0, wf = 0, sn = 0, sf = 0;
};

/// The terms of pixels q in [q0, q1) of one window row for pixel p, added in
/// order. Branch-free: non-voters, the pixel itself and colours beyond the
/// table add exact zeros, so the sums are those of skipping them.
inline void vote_run(const dck_relabel &s, int p, float m, int q0, int q1, VoteSums &v) {
    const float fp0 = s.feature[0][p], fp1 = s.feature[1][p], fp2 = s.feature[2][p];
    for (int q = q0; q < q1; ++q) {
        const float d0 = fp0 - s.feature[0][q], d1 = fp1 - s.feature[1][q], d2 = fp2 - s.feature[2][q];
        const float scaled = std::min((d0 * d0 + d1 * d1 + d2 * d2) * s.toIndex, static_cast<float>(kTableSize));
        const float w = s.table[static_cast<int>(scaled)] * s.voter[q] * static_cast<float>(q != p);
        const float near = static_cast<float>(s.logz[q] <= m);
        const float wnq = w * near, wfq = w - wnq;
        v.wn += wnq;
        v.sn += wnq * s.logz[q];
        v.wf += wfq;
        v.sf += wfq * s.logz[q];
    }
}

#ifdef DCK_RELABEL_AVX2
/// The most window pixels of a vote (radius 15 and more use vote_run).
constexpr int kMaxWindow = 31 * 31;

/// Per window pixel, in window order: near weight, near weighted log
/// depth, far weight, far weighted log depth (vote_run's terms).
struct VoteTerms {
    alignas(32) float wn[kMaxWindow + kLanes], sn[kMaxWindow + kLanes], wf[kMaxWindow + kLanes], sf[kMaxWindow + kLanes];
};

/// vote_run's terms of region pixel p's window rows [y0, y1] x [x0, x1]
/// into `t`, kLanes pixels at a time in AVX2 registers with the same float
/// operations per term (products and differences, no fused multiply-add),
/// so each term is vote_run's bit for bit. Runs read up to kLanes - 1
/// pixels past a row's end (the planes' padding); those lanes are written
/// past the row's terms and overwritten by the next row's. Returns the count.
__attribute__((target("avx2"))) int vote_terms_avx2(const dck_relabel &s, int p, float m, int x0, int x1, int y0, int y1,
                                                    VoteTerms &t) {
    const __m256 fp0 = _mm256_set1_ps(s.feature[0][p]), fp1 = _mm256_set1_ps(s.feature[1][p]),
                 fp2 = _mm256_set1_ps(s.feature[2][p]);
    const __m256 toIndex = _mm256_set1_ps(s.toIndex), top = _mm256_set1_ps(static_cast<float>(kTableSize));
    const __m256 mid = _mm256_set1_ps(m), one = _mm256_set1_ps(1.f);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), self = _mm256_set1_epi32(p), ones = _mm256_set1_epi32(-1);
    int count = 0;
    for (int qy = y0; qy <= y1; ++qy) {
        const int q1 = qy * s.cols + x1 + 1;
        for (int q = qy * s.cols + x0; q < q1; q += kLanes) {
            const __m256 d0 = _mm256_sub_ps(fp0, _mm256_loadu_ps(&s.feature[0][q]));
            const __m256 d1 = _mm256_sub_ps(fp1, _mm256_loadu_ps(&s.feature[1][q]));
            const __m256 d2 = _mm256_sub_ps(fp2, _mm256_loadu_ps(&s.feature[2][q]));
            const __m256 d = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(d0, d0), _mm256_mul_ps(d1, d1)), _mm256_mul_ps(d2, d2));
            // min(a, top) is std::min(a, top) for finite a; truncation is static_cast<int>.
            const __m256i index = _mm256_cvttps_epi32(_mm256_min_ps(_mm256_mul_ps(d, toIndex), top));
            const __m256i isSelf = _mm256_cmpeq_epi32(_mm256_add_epi32(_mm256_set1_epi32(q), lane), self);
            const __m256 notSelf = _mm256_and_ps(_mm256_castsi256_ps(_mm256_andnot_si256(isSelf, ones)), one);
            const __m256 w = _mm256_mul_ps(_mm256_mul_ps(_mm256_i32gather_ps(s.table, index, 4), _mm256_loadu_ps(&s.voter[q])),
                                           notSelf);
            const __m256 logz = _mm256_loadu_ps(&s.logz[q]);
            const __m256 near = _mm256_and_ps(_mm256_cmp_ps(logz, mid, _CMP_LE_OQ), one);
            const __m256 n = _mm256_mul_ps(w, near), f = _mm256_sub_ps(w, n);
            _mm256_storeu_ps(&t.wn[count], n);
            _mm256_storeu_ps(&t.wf[count], f);
            _mm256_storeu_ps(&t.sn[count], _mm256_mul_ps(n, logz));
            _mm256_storeu_ps(&t.sf[count], _mm256_mul_ps(f, logz));
            count += std::min(kLanes, q1 - q);
        }
    }
    return count;
}

/// The sums of two pixels' terms, each added in its own order; the two
/// pixels' additions interleave (independent chains: one pixel's sums
/// alone wait on each addition's latency).
void add_terms(const VoteTerms &a, int na, VoteSums &va, const VoteTerms &b, int nb, VoteSums &vb) {
    const int common = std::min(na, nb);
    for (int j = 0; j < common; ++j) {
        va.wn += a.wn[j]; va.sn += a.sn[j]; va.wf += a.wf[j]; va.sf += a.sf[j];
        vb.wn += b.wn[j]; vb.sn += b.sn[j]; vb.wf += b.wf[j]; vb.sf += b.sf[j];
    }
    for (int j = common; j < na; ++j) { va.wn += a.wn[j]; va.sn += a.sn[j]; va.wf += a.wf[j]; va.sf += a.sf[j]; }
    for (int j = common; j < nb; ++j) { vb.wn += b.wn[j]; vb.sn += b.sn[j]; vb.wf += b.wf[j]; vb.sf += b.sf[j]; }
}

#endif

/// Region pixel p's choice of surface from its sums: writes `next` and
/// returns whether its value changed.
bool choose(const dck_relabel &s, int p, const VoteSums &v, float *next) {
    if (v.wn + v.wf <= 0) return false;
    const bool near = v.wn >= v.wf;
    const float m = s.mid[p];
    // A pixel already on the chosen surface keeps its own value.
    if (s.voter[p] > 0 && (s.logz[p] <= m) == near) return false;
    const float value = near ? std::exp(v.sn / v.wn) : std::exp(v.sf / v.wf);
    const bool changed = value != next[p];
    next[p] = value;
    return changed;
}

}  // namespace

/// Each region pixel's window sums (vote_run; with AVX2, two pixels at a
/// time by vote_terms_avx2 and add_terms), then its choice of surface.
extern "C" int dck_relabel_vote(const dck_relabel *state, float *next, int k0, int k1) {
    const dck_relabel &s = *state;
    const int cols = s.cols, rows = s.rows, vr = s.voteRadius;
    auto window = [&](int p, int &x0, int &x1, int &y0, int &y1) {
        const int y = p / cols, x = p % cols;
        x0 = std::max(0, x - vr), x1 = std::min(cols - 1, x + vr);
        y0 = std::max(0, y - vr), y1 = std::min(rows - 1, y + vr);
    };
    int changed = 0, k = k0;
#ifdef DCK_RELABEL_AVX2
    if (cpu_has_avx2() && (2 * vr + 1) * (2 * vr + 1) <= kMaxWindow) {
        // On the stack (31 KB): this entry point cannot fail, so it allocates nothing.
        VoteTerms terms[2];
        for (; k + 1 < k1; k += 2) {
            const int pa = s.regionPixels[k], pb = s.regionPixels[k + 1];
            int ax0, ax1, ay0, ay1, bx0, bx1, by0, by1;
            window(pa, ax0, ax1, ay0, ay1);
            window(pb, bx0, bx1, by0, by1);
            const int na = vote_terms_avx2(s, pa, s.mid[pa], ax0, ax1, ay0, ay1, terms[0]);
            const int nb = vote_terms_avx2(s, pb, s.mid[pb], bx0, bx1, by0, by1, terms[1]);
            VoteSums va, vb;
            add_terms(terms[0], na, va, terms[1], nb, vb);
            changed += choose(s, pa, va, next);
            changed += choose(s, pb, vb, next);
        }
    }
#endif
    for (; k < k1; ++k) {
        const int p = s.regionPixels[k];
        int x0, x1, y0, y1;
        window(p, x0, x1, y0, y1);
        VoteSums v;
        for (int qy = y0; qy <= y1; ++qy) vote_run(s, p, s.mid[p], qy * cols + x0, qy * cols + x1 + 1, v);
        changed += choose(s, p, v, next);
    }
    return changed;
}
