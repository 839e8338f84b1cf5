// The snap step of the depth-edge snap (see dualcam_kernels_edges.h and, for
// the whole, dualcam_opencv_stereo_edges.h).
//
// Written by hand: OpenCV's edge-aware smoothers (FGS, WLS, guided filter)
// follow the colour image, so at a depth edge whose two sides look alike they
// blend the two surfaces, and they fill a half-occlusion from both sides. What
// is needed here is a per-pixel choice between the planes of the surfaces that
// meet at a discontinuity of the *measured* disparity, which no library does.
#include "edge_common.hpp"
#include "edge_planes.hpp"
#include <limits>
#include <string>
#include <vector>

namespace dualcam_kernels {
namespace {

/// The window weights' distance scale as a fraction of the radius:
/// 1 / (1 + (r / (kWeightScale R))^2), a wide support: the planes extrapolate
/// over the zone, and a fit of the whole neighbourhood is steadier than one
/// of its nearest pixels.
constexpr double kWeightScale = 0.4;
/// Windows wider than 2 kSampleEvery2 + 1 pixels are sampled every other
/// pixel, wider than 2 kSampleEvery3 + 1 every third: the fits need a few
/// hundred samples at most.
constexpr int kSampleEvery2 = 4, kSampleEvery3 = 12;
/// Windows are centred on the nearest point of a grid of this pitch (px):
/// the zone pixels of a grid cell share one set of fits, each evaluated at
/// its own pixel (the window moves by at most half a pitch, a small part of
/// its width), which saves most of the fits.
constexpr int kGrid = 4;
/// A hole away from a half-occlusion takes the piece nearest to the mean of
/// the measurements within this many pixels (its nearest surroundings).
constexpr int kHoleMeanRadius = 2;
/// A measurement moves to a plane at most this many jump thresholds away:
/// farther, the plane belongs to another surface than the measurement.
constexpr double kMaxSnapJumps = 2;

/// DCK_OK when the job and its buffers can run rows [y0, y1).
int check_job(const dck_edge_snap_job *job, int y0, int y1, dck_error *err) {
    if (!job) return fail(err, DCK_ERR_ARGUMENT, "edge snap job is NULL");
    const dck_edge_snap_job &j = *job;
    if (int status = check_edge_buffers(j.measured, j.stride, j.cols, j.rows, &j.params, err)) return status;
    if (!j.out || !j.zone || !j.anchor || !j.labels || !j.side_value)
        return fail(err, DCK_ERR_ARGUMENT, "edge snap: a buffer is NULL");
    return check_rows(y0, y1, j.rows, "edge snap", err);
}

struct Snapper {
    const dck_edge_snap_job &job;
    JumpTest jump;
    int W, H, R, side, step;
    std::vector<double> weights;  // (2R+1)^2 window weights about the centre

    explicit Snapper(const dck_edge_snap_job &j)
        : job(j), jump{(float)j.params.jump_pixels, (float)j.params.jump_relative}, W(j.cols), H(j.rows),
          R(j.params.radius), side(2 * R + 1), step(R > kSampleEvery3 ? 3 : R > kSampleEvery2 ? 2 : 1),
          weights((size_t)side * side) {
        const double scale2 = (kWeightScale * R) * (kWeightScale * R);
        for (int dy = -R; dy <= R; ++dy)
            for (int ax = -R; ax <= R; ++ax)
                weights[(size_t)((dy + R) * side + ax + R)] = 1.0 / (1.0 + (ax * ax + dy * dy) / scale2);
    }
    int maxSamples() const { return ((2 * R) / step + 1) * ((2 * R) / step + 1); }
    template <typename T>
    const T *row(const T *base, int y) const { return base + (size_t)y * job.stride; }

    /// The pieces' sums and samples in the window about (cx, cy); returns the piece count.
    int collect(int cx, int cy, PieceSums *pieces, std::vector<Sample> &samples, int &sampleCount) const {
        int pieceCount = 0;
        sampleCount = 0;
        for (int dy = -R; dy <= R; dy += step) {
            const int yy = cy + dy;
            if (yy < 0 || yy >= H) continue;
            const int32_t *lab = row(job.labels, yy);
            const float *urow = row(job.measured, yy);
            for (int ax = -R; ax <= R; ax += step) {
                const int xx = cx + ax;
                if (xx < 0 || xx >= W) continue;
                const int l = lab[xx];
                if (l == 0) continue;
                int s = 0;
                while (s < pieceCount && pieces[s].label != l) ++s;
                if (s == pieceCount) {
                    if (pieceCount == kMaxPieces) continue;
                    pieces[pieceCount++].label = l;
                }
                const double wk = weights[(dy + R) * side + ax + R];
                pieces[s].add(ax, dy, urow[xx], wk);
                samples[(size_t)sampleCount++] = Sample{(float)ax, (float)dy, urow[xx], (float)wk, s};
            }
        }
        return pieceCount;
    }

    /// The pieces' planes in the window about (cx, cy), coordinates relative
    /// to it: a first fit, then the robust refit (see kRobustScale).
    void fit_window(int cx, int cy, std::vector<Sample> &samples, WindowFits &fits) const {
        PieceSums pieces[kMaxPieces];
        int sampleCount = 0;
        const int pieceCount = collect(cx, cy, pieces, samples, sampleCount);
        double v0[kMaxPieces], gx0[kMaxPieces], gy0[kMaxPieces];
        PieceSums again[kMaxPieces];
        for (int s = 0; s < pieceCount; ++s) {
            double rms = 0;
            v0[s] = pieces[s].predict(kRidge, rms, gx0[s], gy0[s]);
            again[s].label = pieces[s].label;
        }
        for (int k = 0; k < sampleCount; ++k) {
            const Sample &q = samples[(size_t)k];
            const double r = (q.d - (v0[q.piece] + gx0[q.piece] * q.x + gy0[q.piece] * q.y)) / kRobustScale;
            again[q.piece].add(q.x, q.y, q.d, q.w / (1.0 + r * r));
        }
        fits.count = 0;
        for (int s = 0; s < pieceCount; ++s) {
            if (pieces[s].count < kMinPieceCount) continue;
            PlaneFit &f = fits.planes[fits.count++];
            f.value = again[s].predict(kRidge, f.rms, f.gx, f.gy);
        }
    }

    /// A hole's target away from a half-occlusion: the mean measurement within
    /// kHoleMeanRadius, or `fallback` (the filled value) when there is none.
    double hole_target(int x, int y, double fallback) const {
        double sum = 0;
        int n = 0;
        for (int yy = std::max(0, y - kHoleMeanRadius); yy <= std::min(H - 1, y + kHoleMeanRadius); ++yy) {
            const float *urow = row(job.measured, yy);
            for (int xx = std::max(0, x - kHoleMeanRadius); xx <= std::min(W - 1, x + kHoleMeanRadius); ++xx)
                if (!std::isnan(urow[xx])) { sum += urow[xx]; ++n; }
        }
        return n > 0 ? sum / n : fallback;
    }

    /// Snaps pixel (x, y) with the fits of the window at grid point (gx, gy);
    /// `qx` is where along the row the planes are evaluated.
    void snap_pixel(int x, int y, int qx, int gx, int gy, const WindowFits &fits) const {
        const float m = row(job.measured, y)[x];
        const int32_t a = row(job.anchor, y)[x];
        float &o = job.out[(size_t)y * job.stride + x];
        double best = std::numeric_limits<double>::quiet_NaN(), bestScore = 0, bestRms = 0;
        // A hole of a half-occlusion run: the piece nearest to the bounding
        // measurement of its side; otherwise the piece nearest to the
        // measurement (or to the hole target).
        const double target = a >= 0 ? (double)row(job.side_value, y)[x] : (std::isnan(m) ? hole_target(x, y, o) : m);
        for (int s = 0; s < fits.count; ++s) {
            const PlaneFit &f = fits.planes[s];
            const double v = f.value + f.gx * (qx - gx) + f.gy * (y - gy), rms = f.rms;
            if (rms > jump.threshold((float)v, (float)v)) continue;  // not one surface
            const double score = std::fabs(v - target);
            if (std::isnan(best) || score < bestScore) { best = v; bestScore = score; bestRms = rms; }
        }
        if (std::isnan(best)) return;
        if (!std::isnan(m) && std::fabs(best - m) > kMaxSnapJumps * jump.threshold((float)best, m)) return;
        // A measurement moves to a plane only where the plane explains its
        // support to the noise level: on a curved surface the extrapolated
        // plane is worse than the measurement.
        if (!std::isnan(m) && bestRms > job.params.max_fit_rms) return;
        // A measurement moves as far as it is trusted (a confident match
        // pulled by a straddling window all the way; a doubtful one, possibly
        // of the wrong surface, stays blended).
        const float trust = !std::isnan(m) && job.confidence ? std::clamp(row(job.confidence, y)[x], 0.0f, 1.0f) : 1.0f;
        o = (float)(o + trust * (best - o));
    }

    /// Rows y0..<y1, with the fits of the windows about the grid points of
    /// the current band of rows cached.
    void snap_rows(int y0, int y1) const {
        std::vector<Sample> samples((size_t)maxSamples());
        // One slot per grid column: gx is a multiple of kGrid or W - 1,
        // slot ceil(gx / kGrid); `band[i]` says which band's fits it holds.
        const size_t slots = (size_t)((W - 1) / kGrid + 2);
        std::vector<WindowFits> fits(slots);
        std::vector<int> band(slots, -1);
        for (int y = y0; y < y1; ++y) {
            const uint8_t *z = row(job.zone, y);
            const uint8_t *c = job.covered ? row(job.covered, y) : nullptr;
            const int32_t *a = row(job.anchor, y);
            const int gy = std::min(H - 1, (y + kGrid / 2) / kGrid * kGrid);
            for (int x = 0; x < W; ++x) {
                if (!z[x] || (c && !c[x])) continue;
                // Anchored holes: the window about the anchor, the plane
                // evaluated at most `radius` from it (no long extrapolation).
                const int cx = a[x] >= 0 ? a[x] : x;
                const int qx = std::clamp(x, cx - R, cx + R);
                const int gx = std::min(W - 1, (cx + kGrid / 2) / kGrid * kGrid);
                const size_t i = (size_t)((gx + kGrid - 1) / kGrid);
                if (band[i] != gy) {
                    fits[i] = WindowFits();
                    fit_window(gx, gy, samples, fits[i]);
                    band[i] = gy;
                }
                snap_pixel(x, y, qx, gx, gy, fits[i]);
            }
        }
    }
};

}  // namespace
}  // namespace dualcam_kernels

using namespace dualcam_kernels;

extern "C" int dck_edge_snap_rows(const dck_edge_snap_job *job, int y0, int y1, dck_error *err) {
    return guarded_rows(job, y0, y1, err, check_job,
                        [](const dck_edge_snap_job &j, int from, int to) { Snapper(j).snap_rows(from, to); });
}
