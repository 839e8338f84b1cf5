// Depth-edge snapping for filtered disparity maps (see dualcam_opencv_stereo_edges.h).
//
// Written by hand: OpenCV's edge-aware smoothers (FGS, WLS, guided filter)
// follow the colour image, so at a depth edge whose two sides look alike they
// blend the two surfaces, and they fill a half-occlusion from both sides. What
// is needed here is a per-pixel choice between the planes of the surfaces that
// meet at a discontinuity of the *measured* disparity, which no library does.
// OpenCV does the parts it does well: the zone dilation and the labelling of
// the surface pieces.
#include "dualcam_opencv_stereo_edges.h"
#include "shim_imgproc.hpp"
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <vector>

using namespace dualcam_shim;

namespace {

struct JumpTest {
    float absolute, relative;
    float threshold(float a, float b) const { return std::max(absolute, relative * std::min(a, b)); }
    bool operator()(float a, float b) const { return std::fabs(a - b) > threshold(a, b); }
};

/// Weighted plane-fit sums of one surface piece, coordinates relative to the target pixel.
struct PieceSums {
    int label = 0, count = 0;
    double w = 0, wx = 0, wy = 0, wd = 0, wxx = 0, wxy = 0, wyy = 0, wxd = 0, wyd = 0, wdd = 0;
    void add(double x, double y, double d, double weight) {
        ++count;
        w += weight; wx += weight * x; wy += weight * y; wd += weight * d; wdd += weight * d * d;
        wxx += weight * x * x; wxy += weight * x * y; wyy += weight * y * y;
        wxd += weight * x * d; wyd += weight * y * d;
    }
    /// The plane's value at the target pixel (0, 0): slopes from the central
    /// moments with a ridge of `ridge` px^2 per unit weight (a piece that is a
    /// thin sliver in one direction extrapolates flat in that direction).
    /// `rms`: the weighted RMS residual of the fit (large when the piece is
    /// not one plane, e.g. two surfaces joined where a jump was not seen).
    double predict(double ridge, double &rms) const {
        double gx, gy;
        return predict(ridge, rms, gx, gy);
    }
    /// The same with the slopes (disparity px per px along x and y).
    double predict(double ridge, double &rms, double &gx, double &gy) const {
        double mx = wx / w, my = wy / w, md = wd / w;
        double cxx = wxx - wx * mx + ridge * w, cyy = wyy - wy * my + ridge * w, cxy = wxy - wx * my;
        double cxd = wxd - wx * md, cyd = wyd - wy * md, cdd = wdd - wd * md;
        double det = cxx * cyy - cxy * cxy;
        gx = 0; gy = 0;
        if (det > 1e-12) {
            gx = (cyy * cxd - cxy * cyd) / det;
            gy = (cxx * cyd - cxy * cxd) / det;
        }
        rms = std::sqrt(std::max(0.0, cdd - gx * cxd - gy * cyd) / w);
        return md - gx * mx - gy * my;
    }
};

constexpr int kMaxPieces = 8;
constexpr int kMinPieceCount = 6;
constexpr int kMinEdgeArea = 10;
constexpr double kRidge = 1.0;
/// Residual scale (px) of the robust refit: each sample's weight is
/// multiplied by 1 / (1 + (r / scale)^2) for its residual r from the first fit
/// (one Cauchy reweighting). Measurements just outside the zone that a
/// straddling window still pulled, or a second surface joined where a jump
/// was not seen, otherwise tilt the plane and fail the RMS test: on the
/// synthetic room the 3-px edge band's median error then stayed 2.2x the
/// interior's instead of 1.8x (see DepthAcceptanceTests).
constexpr double kRobustScale = 0.15;
/// The window weights' distance scale as a fraction of the radius:
/// 1 / (1 + (r / (kWeightScale R))^2).
constexpr double kWeightScale = 0.4;

/// One sample of a window: offsets from its centre, value, weight, piece.
struct Sample {
    float x, y, d, w;
    int piece;
};

/// A piece's plane in a window: value at the centre, slopes, RMS residual.
struct PlaneFit {
    double value, gx, gy, rms;
};

/// The planes of the pieces of one window with enough samples.
struct WindowFits {
    PlaneFit planes[kMaxPieces];
    int count = 0;
};

/// Windows are centred on the nearest point of a grid of this pitch (px):
/// the zone pixels of a grid cell share one set of fits, each evaluated at
/// its own pixel (the window moves by at most 2 px of its 49; at the photo
/// size the snap takes ~20-30 ms instead of ~70, acceptance figures within
/// +-0.001 px).
constexpr int kGrid = 4;

/// The depth edges of a measured disparity map `u` (see
/// dc_disparity_edge_snap): jump pixels, for each hole of a half-occlusion
/// run the anchor column and the bounding measurement of the side it takes,
/// and the zone (every pixel within `margin` of a jump pixel).
struct EdgeZone {
    cv::Mat edge, anchor, sideValue, zone;
};

EdgeZone find_edge_zone(const cv::Mat &u, const dc_edge_snap_params &p) {
    const JumpTest jump{(float)p.jump_pixels, (float)p.jump_relative};
    const cv::Size size = u.size();
    const int W = size.width, H = size.height, M = p.margin;
    // Jump pixels; for each hole of a half-occlusion run, the anchor column
    // and the bounding measurement of the side (surface) it takes.
    cv::Mat edge(size, CV_8U, cv::Scalar(0));
    cv::Mat anchor(size, CV_32S, cv::Scalar(-1));
    cv::Mat sideValue(size, CV_32F, cv::Scalar(std::numeric_limits<float>::quiet_NaN()));
    for (int y = 0; y < H; ++y) {
        const float *row = u.ptr<float>(y), *below = y + 1 < H ? u.ptr<float>(y + 1) : nullptr;
        uint8_t *e = edge.ptr<uint8_t>(y), *eb = y + 1 < H ? edge.ptr<uint8_t>(y + 1) : nullptr;
        int *a = anchor.ptr<int>(y);
        float *fv = sideValue.ptr<float>(y);
        for (int x = 0; x < W; ++x) {
            if (std::isnan(row[x])) continue;
            if (x + 1 < W && !std::isnan(row[x + 1]) && jump(row[x], row[x + 1])) e[x] = e[x + 1] = 1;
            if (below && !std::isnan(below[x]) && jump(row[x], below[x])) e[x] = eb[x] = 1;
            // Across two pixels too: a straddling window turns a step of a
            // few tenths of a pixel into a ramp whose neighbours each stay
            // below the threshold (the far sphere before the back wall).
            if (x + 2 < W && !std::isnan(row[x + 1]) && !std::isnan(row[x + 2]) && jump(row[x], row[x + 2]))
                e[x] = e[x + 1] = e[x + 2] = 1;
            if (y + 2 < H && !std::isnan(below[x]) && !std::isnan(u.ptr<float>(y + 2)[x]) &&
                jump(row[x], u.ptr<float>(y + 2)[x]))
                e[x] = eb[x] = edge.ptr<uint8_t>(y + 2)[x] = 1;
        }
        for (int x = 0; x < W;) {
            if (!std::isnan(row[x])) { ++x; continue; }
            const int x0 = x;
            while (x < W && std::isnan(row[x])) ++x;
            if (x0 == 0 || x == W) continue;
            const float l = row[x0 - 1], r = row[x];
            if (!jump(l, r)) continue;
            for (int i = x0 - 1; i <= x; ++i) e[i] = 1;
            // A half-occlusion lies beside the nearer surface on the
            // occlusion side and is as wide as the jump: its pixels take
            // the farther surface; the run's other pixels (matches that
            // failed at the nearer surface's rim) the nearer one. A run on
            // the other side is no half-occlusion (left to the hole rule).
            const bool nearLeft = l > r;
            if (nearLeft != (p.occlusion_side > 0)) continue;
            // (From the bounding measurements: where the windows straddled
            // they lean towards each other, so the width errs to the nearer
            // surface, the smaller depth error.)
            const int width = std::min(x - x0, (int)std::lround(std::fabs(l - r) * p.disparity_scale));
            const int leftAnchor = std::max(0, x0 - M - 2), rightAnchor = std::min(W - 1, x + M + 1);
            for (int i = x0; i < x; ++i) {
                const bool occluded = nearLeft ? i >= x - width : i < x0 + width;
                const bool takesLeft = occluded != nearLeft;
                a[i] = takesLeft ? leftAnchor : rightAnchor;
                fv[i] = takesLeft ? l : r;
            }
        }
    }
    // Runs of holes down a column bounded by a jump (no half-occlusion
    // across the baseline, but the surfaces must stay apart).
    for (int x = 0; x < W; ++x) {
        for (int y = 0; y < H;) {
            if (!std::isnan(u.ptr<float>(y)[x])) { ++y; continue; }
            const int y0 = y;
            while (y < H && std::isnan(u.ptr<float>(y)[x])) ++y;
            if (y0 == 0 || y == H) continue;
            if (!jump(u.ptr<float>(y0 - 1)[x], u.ptr<float>(y)[x])) continue;
            for (int i = y0 - 1; i <= y; ++i) edge.ptr<uint8_t>(i)[x] = 1;
        }
    }
    // Jumps of isolated outliers (a few connected jump pixels) are no depth edges.
    {
        cv::Mat edgeLabels, stats, centroids;
        const int count = cv::connectedComponentsWithStats(edge, edgeLabels, stats, centroids, 8, CV_32S);
        for (int y = 0; y < H; ++y) {
            const int *l = edgeLabels.ptr<int>(y);
            uint8_t *e = edge.ptr<uint8_t>(y);
            for (int x = 0; x < W; ++x)
                if (l[x] > 0 && l[x] < count && stats.at<int>(l[x], cv::CC_STAT_AREA) < kMinEdgeArea) e[x] = 0;
        }
    }
    cv::Mat zone;
    cv::dilate(edge, zone, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * M + 1, 2 * M + 1)));
    return EdgeZone{edge, anchor, sideValue, zone};
}

/// Validates the parameters (the same for the zone and the snap).
int check_snap_params(const dc_edge_snap_params *params, dc_error *err) {
    if (!params) return fail(err, DC_ERR_ARGUMENT, "edge snap parameters are NULL");
    const dc_edge_snap_params &p = *params;
    if (!(p.jump_pixels > 0) || !(p.jump_relative >= 0) || p.margin < 0 || p.margin > 32 || p.radius < 1 ||
        p.radius > 32 || !(p.disparity_scale >= 0 && p.disparity_scale < 1e6) || !(p.max_fit_rms >= 0))
        return fail(err, DC_ERR_ARGUMENT,
                    "edge snap needs jump_pixels > 0, jump_relative >= 0, margin 0 to 32, radius 1 to 32, "
                    "a finite disparity_scale >= 0, max_fit_rms >= 0");
    return DC_OK;
}

}  // namespace

extern "C" int dc_disparity_edge_snap(const dc_mat *measured, const dc_mat *confidence, const dc_mat *filled,
                                      const dc_mat *covered, const dc_edge_snap_params *params, dc_mat **out,
                                      dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_disparity_edge_snap: out is NULL");
        *out = nullptr;
        if (int status = check_snap_params(params, err)) return status;
        if (int status = check_input(measured, "measured disparity", err)) return status;
        if (int status = check_input(filled, "filled disparity", err)) return status;
        const cv::Size size = measured->mat.size();
        if (measured->mat.type() != CV_32FC1 || filled->mat.type() != CV_32FC1 || filled->mat.size() != size)
            return fail(err, DC_ERR_ARGUMENT, "measured and filled disparities must be float32, 1 channel, one size");
        if (confidence && (confidence->mat.type() != CV_32FC1 || confidence->mat.size() != size))
            return fail(err, DC_ERR_ARGUMENT, "the confidence must be float32, 1 channel, the disparities' size");
        if (covered && (covered->mat.type() != CV_8UC1 || covered->mat.size() != size))
            return fail(err, DC_ERR_ARGUMENT, "the covered mask must be 8-bit, 1 channel, the disparities' size");
        const dc_edge_snap_params &p = *params;
        const JumpTest jump{(float)p.jump_pixels, (float)p.jump_relative};
        const int W = size.width, H = size.height, M = p.margin, R = p.radius;
        const cv::Mat &u = measured->mat;

        const EdgeZone edges = find_edge_zone(u, p);
        const cv::Mat &edge = edges.edge, &anchor = edges.anchor, &sideValue = edges.sideValue, &zone = edges.zone;
        // Reliable measurements: outside the zone. Its 8-connected pieces are
        // the surfaces the zone separates.
        cv::Mat reliable(size, CV_8U);
        for (int y = 0; y < H; ++y) {
            const float *row = u.ptr<float>(y);
            const uint8_t *z = zone.ptr<uint8_t>(y);
            uint8_t *r = reliable.ptr<uint8_t>(y);
            for (int x = 0; x < W; ++x) r[x] = !std::isnan(row[x]) && !z[x] ? 255 : 0;
        }
        cv::Mat labels;
        cv::connectedComponents(reliable, labels, 8, CV_32S);

        // Window weights 1 / (1 + (r / 0.4 R)^2) about the anchor (a wide
        // support: the planes extrapolate over the zone, and a fit of the
        // whole neighbourhood measured better than one of its nearest pixels);
        // windows wider than 9 pixels are sampled every other pixel, wider
        // than 25 every third (the fits need a few hundred samples at most).
        const int side = 2 * R + 1, step = R > 12 ? 3 : R > 4 ? 2 : 1;
        const double scale2 = (kWeightScale * R) * (kWeightScale * R);
        std::vector<double> weights((size_t)side * side);
        for (int dy = -R; dy <= R; ++dy)
            for (int ax = -R; ax <= R; ++ax)
                weights[(size_t)((dy + R) * side + ax + R)] = 1.0 / (1.0 + (ax * ax + dy * dy) / scale2);
        const int maxSamples = ((2 * R) / step + 1) * ((2 * R) / step + 1);
        cv::Mat result = filled->mat.clone();
        // The pieces' planes in the window about (cx, cy), coordinates relative to it.
        auto fitWindow = [&](int cx, int cy, std::vector<Sample> &samples, WindowFits &fits) {
            PieceSums pieces[kMaxPieces];
            int pieceCount = 0, sampleCount = 0;
            for (int dy = -R; dy <= R; dy += step) {
                const int yy = cy + dy;
                if (yy < 0 || yy >= H) continue;
                const int *lab = labels.ptr<int>(yy);
                const float *urow = u.ptr<float>(yy);
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
            // The robust refit (see kRobustScale).
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
        };
        cv::parallel_for_(cv::Range(0, H), [&](const cv::Range &range) {
            std::vector<Sample> samples((size_t)maxSamples);
            // Fits of the windows about the grid points of this band of rows.
            std::unordered_map<long long, WindowFits> cache;
            int cachedBand = -1;
            for (int y = range.start; y < range.end; ++y) {
                const uint8_t *z = zone.ptr<uint8_t>(y);
                const uint8_t *c = covered ? covered->mat.ptr<uint8_t>(y) : nullptr;
                const int *a = anchor.ptr<int>(y);
                const float *fv = sideValue.ptr<float>(y);
                const float *cf = confidence ? confidence->mat.ptr<float>(y) : nullptr;
                const float *row = u.ptr<float>(y);
                float *o = result.ptr<float>(y);
                const int gy = std::min(H - 1, (y + kGrid / 2) / kGrid * kGrid);
                if (gy != cachedBand) { cache.clear(); cachedBand = gy; }
                for (int x = 0; x < W; ++x) {
                    if (!z[x] || (c && !c[x])) continue;
                    // Anchored holes: the window about the anchor, the plane
                    // evaluated at most `radius` from it (no long extrapolation).
                    const int cx = a[x] >= 0 ? a[x] : x;
                    const int qx = std::clamp(x, cx - R, cx + R);
                    const int gx = std::min(W - 1, (cx + kGrid / 2) / kGrid * kGrid);
                    auto found = cache.find(gx);
                    if (found == cache.end()) {
                        found = cache.emplace(gx, WindowFits()).first;
                        fitWindow(gx, gy, samples, found->second);
                    }
                    const WindowFits &fits = found->second;
                    double best = std::numeric_limits<double>::quiet_NaN(), bestScore = 0, bestRms = 0;
                    const float m = row[x];
                    // A hole away from a half-occlusion: the piece nearest to the
                    // mean of the measurements within 2 pixels (the filled value
                    // when there are none; it leans to the farther surface).
                    double holeTarget = o[x];
                    if (std::isnan(m) && a[x] < 0) {
                        double sum = 0;
                        int n = 0;
                        for (int yy = std::max(0, y - 2); yy <= std::min(H - 1, y + 2); ++yy) {
                            const float *urow = u.ptr<float>(yy);
                            for (int xx = std::max(0, x - 2); xx <= std::min(W - 1, x + 2); ++xx)
                                if (!std::isnan(urow[xx])) { sum += urow[xx]; ++n; }
                        }
                        if (n > 0) holeTarget = sum / n;
                    }
                    for (int s = 0; s < fits.count; ++s) {
                        const PlaneFit &f = fits.planes[s];
                        const double v = f.value + f.gx * (qx - gx) + f.gy * (y - gy), rms = f.rms;
                        if (rms > jump.threshold((float)v, (float)v)) continue;
                        // A hole of a half-occlusion run: the piece nearest to the
                        // bounding measurement of its side; otherwise the piece
                        // nearest to the measurement (or to the hole target).
                        const double target = a[x] >= 0 ? fv[x] : (std::isnan(m) ? holeTarget : m);
                        const double score = std::fabs(v - target);
                        if (std::isnan(best) || score < bestScore) { best = v; bestScore = score; bestRms = rms; }
                    }
                    if (std::isnan(best)) continue;
                    if (!std::isnan(m) && std::fabs(best - m) > 2 * jump.threshold((float)best, m)) continue;
                    // A measurement moves to a plane only where the plane explains
                    // its support to the noise level: on a curved surface the
                    // extrapolated plane is worse than the measurement.
                    if (!std::isnan(m) && bestRms > p.max_fit_rms) continue;
                    // A measurement moves as far as it is trusted (a confident
                    // match pulled by a straddling window all the way; a doubtful
                    // one, possibly of the wrong surface, stays blended).
                    const float trust = !std::isnan(m) && cf ? std::clamp(cf[x], 0.0f, 1.0f) : 1.0f;
                    o[x] = (float)(o[x] + trust * (best - o[x]));
                }
            }
        });
        return emit(std::move(result), out, err);
    });
}

extern "C" int dc_disparity_edge_zone(const dc_mat *measured, const dc_edge_snap_params *params, dc_mat **out,
                                      dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_disparity_edge_zone: out is NULL");
        *out = nullptr;
        if (int status = check_snap_params(params, err)) return status;
        if (int status = check_input(measured, "measured disparity", err)) return status;
        if (measured->mat.type() != CV_32FC1)
            return fail(err, DC_ERR_ARGUMENT, "the measured disparity must be float32, 1 channel");
        cv::Mat zone = find_edge_zone(measured->mat, *params).zone * 255;
        return emit(std::move(zone), out, err);
    });
}
