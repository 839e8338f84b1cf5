// The plane fits of the depth-edge snap (edge_snap.cpp): weighted sums of a
// surface piece's samples in a window, and the plane they give.
#pragma once
#include <algorithm>
#include <cmath>

namespace dualcam_kernels {

/// Most surface pieces fitted per window: a window meets two or three
/// surfaces at an edge; more pieces are fragments, the first ones met count.
constexpr int kMaxPieces = 8;
/// Fewest samples of a piece whose plane is used: three fix a plane, twice as
/// many keep one noisy sample from tilting it.
constexpr int kMinPieceCount = 6;
/// Ridge of the slope fit (px^2 per unit weight): a piece that is a thin
/// sliver in one direction extrapolates flat in that direction.
constexpr double kRidge = 1.0;
/// Smallest determinant of the ridge-regularised normal equations.
constexpr double kMinPlaneDeterminant = 1e-12;
/// Residual scale (px) of the robust refit: each sample's weight is
/// multiplied by 1 / (1 + (r / scale)^2) for its residual r from the first fit
/// (one Cauchy reweighting), about the noise of a refined match. Measurements
/// just outside the zone that a straddling window still pulled, or a second
/// surface joined where a jump was not seen, otherwise tilt the plane and
/// fail the RMS test.
constexpr double kRobustScale = 0.15;

/// Weighted plane-fit sums of one surface piece, coordinates relative to the window centre.
struct PieceSums {
    int label = 0, count = 0;
    double w = 0, wx = 0, wy = 0, wd = 0, wxx = 0, wxy = 0, wyy = 0, wxd = 0, wyd = 0, wdd = 0;
    void add(double x, double y, double d, double weight) {
        ++count;
        w += weight; wx += weight * x; wy += weight * y; wd += weight * d; wdd += weight * d * d;
        wxx += weight * x * x; wxy += weight * x * y; wyy += weight * y * y;
        wxd += weight * x * d; wyd += weight * y * d;
    }
    /// The plane's value at the centre (0, 0) and its slopes (disparity px per
    /// px along x and y), from the central moments with a ridge of `ridge` px^2
    /// per unit weight. `rms`: the weighted RMS residual of the fit (large when
    /// the piece is not one plane, e.g. two surfaces joined where a jump was
    /// not seen).
    double predict(double ridge, double &rms, double &gx, double &gy) const {
        double mx = wx / w, my = wy / w, md = wd / w;
        double cxx = wxx - wx * mx + ridge * w, cyy = wyy - wy * my + ridge * w, cxy = wxy - wx * my;
        double cxd = wxd - wx * md, cyd = wyd - wy * md, cdd = wdd - wd * md;
        double det = cxx * cyy - cxy * cxy;
        gx = 0; gy = 0;
        if (det > kMinPlaneDeterminant) {
            gx = (cyy * cxd - cxy * cyd) / det;
            gy = (cxx * cyd - cxy * cxd) / det;
        }
        rms = std::sqrt(std::max(0.0, cdd - gx * cxd - gy * cyd) / w);
        return md - gx * mx - gy * my;
    }
};

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

}  // namespace dualcam_kernels
