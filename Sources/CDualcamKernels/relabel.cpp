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

}  // namespace
}  // namespace dualcam_kernels

using namespace dualcam_kernels;

struct dck_relabel {
    int rows, cols, voteRadius;
    float ratio, edge;
    // Guide in (sqrt(luma_weight) Y, Cb, Cr) so that squared distances weigh luma as asked.
    std::vector<float> feature;
    float table[kTableSize + 1];
    float toIndex;
    // Per pixel: log depth, voter weight (1 or 0) and, for region pixels,
    // the log-range midpoint (voters at or below it count as near). Written
    // only where a pass reads them.
    std::vector<float> logz, voter, mid;
    std::vector<int> regionPixels;
};

namespace {

void make_features(dck_relabel &s, const uint8_t *rgb, size_t step, double lumaWeight) {
    s.feature.resize(static_cast<size_t>(s.rows) * s.cols * kChannels);
    const float lw = static_cast<float>(std::sqrt(lumaWeight));
    for (int y = 0; y < s.rows; ++y) {
        const uint8_t *g = rgb + (size_t)y * step;
        for (int x = 0; x < s.cols; ++x) {
            const float r = g[kChannels * x], gg = g[kChannels * x + 1], b = g[kChannels * x + 2];
            const float luma = kLumaR * r + kLumaG * gg + kLumaB * b;
            float *f = &s.feature[(static_cast<size_t>(y) * s.cols + x) * kChannels];
            f[0] = lw * luma;
            f[1] = kCbScale * (b - luma);
            f[2] = kCrScale * (r - luma);
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
        s.logz.assign(n, 0.f);
        s.voter.assign(n, 0.f);
        s.mid.assign(n, 0.f);
        // Room for every pixel: dck_relabel_regions then never allocates (it cannot fail).
        s.regionPixels.reserve(n);
        *out = state.release();
        return DCK_OK;
    });
}

extern "C" void dck_relabel_free(dck_relabel *state) { delete state; }

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

/// The vote is branch-free: non-voters, the pixel itself and colours beyond
/// the table add exact zeros, so the sums are those of skipping them.
extern "C" int dck_relabel_vote(const dck_relabel *state, float *next, int k0, int k1) {
    const dck_relabel &s = *state;
    const int cols = s.cols, rows = s.rows, vr = s.voteRadius;
    int changed = 0;
    for (int k = k0; k < k1; ++k) {
        const int p = s.regionPixels[k], y = p / cols, x = p % cols;
        const float m = s.mid[p];
        const float *fp = &s.feature[static_cast<size_t>(p) * kChannels];
        float wn = 0, wf = 0, sn = 0, sf = 0;
        const int x0 = std::max(0, x - vr), x1 = std::min(cols - 1, x + vr);
        for (int qy = std::max(0, y - vr); qy <= std::min(rows - 1, y + vr); ++qy) {
            const int row = qy * cols;
            for (int qx = x0; qx <= x1; ++qx) {
                const int q = row + qx;
                const float *fq = &s.feature[static_cast<size_t>(q) * kChannels];
                const float d0 = fp[0] - fq[0], d1 = fp[1] - fq[1], d2 = fp[2] - fq[2];
                const float scaled = std::min((d0 * d0 + d1 * d1 + d2 * d2) * s.toIndex, static_cast<float>(kTableSize));
                const float w = s.table[static_cast<int>(scaled)] * s.voter[q] * static_cast<float>(q != p);
                const float near = static_cast<float>(s.logz[q] <= m);
                const float wnq = w * near, wfq = w - wnq;
                wn += wnq;
                sn += wnq * s.logz[q];
                wf += wfq;
                sf += wfq * s.logz[q];
            }
        }
        if (wn + wf <= 0) continue;
        const bool near = wn >= wf;
        // A pixel already on the chosen surface keeps its own value.
        if (s.voter[p] > 0 && (s.logz[p] <= m) == near) continue;
        const float value = near ? std::exp(sn / wn) : std::exp(sf / wf);
        if (value != next[p]) ++changed;
        next[p] = value;
    }
    return changed;
}
