// Edge-aware filters (ximgproc) and sparse-to-dense helpers for depth fusion;
// the depth-edge relabelling runs CDualcamKernels' steps with OpenCV's
// min/max filters and dilation between them.
#include "dualcam_opencv_edge_aware.h"
#include "shim_imgproc.hpp"
#include "shim_kernels.hpp"
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/ximgproc.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace dualcam_shim;

namespace {

int check_guided(const dc_mat *guide, const dc_mat *values, const char *what, dc_error *err) {
    if (!guide || guide->mat.empty()) return fail(err, DC_ERR_ARGUMENT, "guide image is NULL or empty");
    if (!values || values->mat.empty()) return fail(err, DC_ERR_ARGUMENT, std::string(what) + " is NULL or empty");
    if (guide->mat.depth() != CV_8U || (guide->mat.channels() != 1 && guide->mat.channels() != 3))
        return fail(err, DC_ERR_ARGUMENT, "the guide must be 8-bit with 1 or 3 channels");
    if (values->mat.type() != CV_32FC1)
        return fail(err, DC_ERR_ARGUMENT, std::string(what) + " must be float32 with 1 channel");
    if (values->mat.size() != guide->mat.size())
        return fail(err, DC_ERR_ARGUMENT,
                    std::string(what) + " is " + std::to_string(values->mat.cols) + "x" +
                        std::to_string(values->mat.rows) + " but the guide is " + std::to_string(guide->mat.cols) +
                        "x" + std::to_string(guide->mat.rows));
    return DC_OK;
}

}  // namespace

extern "C" int dc_fgs_fill(const dc_mat *guide, const dc_mat *values, const dc_mat *weights, double max_weight,
                           double lambda, double sigma_color, double lambda_attenuation, int iterations,
                           double min_weight, dc_mat **out, dc_mat **weight_out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_fgs_fill: out is NULL");
        *out = nullptr;
        if (weight_out) *weight_out = nullptr;
        if (int status = check_guided(guide, values, "values", err)) return status;
        if (weights)
            if (int status = check_guided(guide, weights, "weights", err)) return status;
        if (!(lambda > 0) || !(sigma_color > 0) || !(lambda_attenuation >= 0) || iterations < 1 || !(max_weight > 0))
            return fail(err, DC_ERR_ARGUMENT,
                        "lambda, sigma_color and max_weight must be positive, iterations at least 1");
        const cv::Mat v = continuous(values->mat);
        const cv::Mat w = weights ? continuous(weights->mat) : cv::Mat(v.size(), CV_32FC1, cv::Scalar(1));
        cv::Mat weighted(v.size(), CV_32FC1), clean(v.size(), CV_32FC1);
        const int n = v.rows * v.cols;
        dck_fill_weigh(v.ptr<float>(), nullptr, w.ptr<float>(), static_cast<float>(max_weight), weighted.ptr<float>(),
                       clean.ptr<float>(), n);
        auto filter = cv::ximgproc::createFastGlobalSmootherFilter(guide->mat, lambda, sigma_color,
                                                                   lambda_attenuation, iterations);
        cv::Mat numerator, denominator;
        filter->filter(weighted, numerator);
        filter->filter(clean, denominator);
        CV_Assert(numerator.isContinuous() && denominator.isContinuous());
        dck_fill_normalize(numerator.ptr<float>(), denominator.ptr<float>(), static_cast<float>(min_weight), n);
        if (int status = emit(std::move(numerator), out, err)) return status;
        if (weight_out) *weight_out = new dc_mat{std::move(denominator)};
        return DC_OK;
    });
}

extern "C" int dc_guided_filter(const dc_mat *guide, const dc_mat *values, int radius, double eps, dc_mat **out,
                                dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_guided_filter: out is NULL");
        *out = nullptr;
        if (int status = check_guided(guide, values, "values", err)) return status;
        if (radius < 1 || !(eps > 0)) return fail(err, DC_ERR_ARGUMENT, "radius must be at least 1 and eps positive");
        cv::Mat result;
        cv::ximgproc::guidedFilter(guide->mat, values->mat, result, radius, eps, CV_32F);
        return emit(std::move(result), out, err);
    });
}

extern "C" int dc_distance_to_nonzero(const dc_mat *mask, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_distance_to_nonzero: out is NULL");
        *out = nullptr;
        if (!mask || mask->mat.empty() || mask->mat.type() != CV_8UC1)
            return fail(err, DC_ERR_ARGUMENT, "the mask must be a non-empty 8-bit 1-channel matrix");
        cv::Mat result(mask->mat.size(), CV_32FC1);
        // distanceTransform measures the distance to the nearest zero pixel;
        // on masks at most half non-zero (scattered samples) CDualcamKernels
        // computes the same values without its branches (chamfer.cpp).
        if (2 * static_cast<size_t>(cv::countNonZero(mask->mat)) > mask->mat.total()) {
            cv::Mat inverted = mask->mat == 0;
            cv::distanceTransform(inverted, result, cv::DIST_L2, cv::DIST_MASK_5, CV_32F);
            return emit(std::move(result), out, err);
        }
        dck_error e{};
        if (int status = dck_chamfer_distance(mask->mat.ptr<uint8_t>(), mask->mat.step[0], mask->mat.cols, mask->mat.rows,
                                              result.ptr<float>(), &e))
            return kernel_status(status, e, err);
        return emit(std::move(result), out, err);
    });
}

/// IP-Basic's (Ku et al. 2018) kernel sizes: 5x5 for the diamond dilation,
/// the closing, the median and the Gaussian; hole fills at 7x7, then 31x31.
constexpr int kKernel = 5, kSmallHoles = 7, kLargeHoles = 31;
/// Large fills repeated at most this often for very sparse input (each one
/// reaches 15 px farther; more than enough for a LiDAR's sample spacing).
constexpr int kMaxLargePasses = 16;
/// Inverted depths below this (m) count as empty: inversion maps any depth to
/// at least kMinInverted (> kEmpty), so only pixels never filled stay below it.
constexpr float kEmpty = 0.05f, kMinInverted = 0.1f;

extern "C" int dc_morphological_fill(const dc_mat *sparse_depth, double max_depth, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_morphological_fill: out is NULL");
        *out = nullptr;
        if (!sparse_depth || sparse_depth->mat.empty() || sparse_depth->mat.type() != CV_32FC1)
            return fail(err, DC_ERR_ARGUMENT, "the sparse depth must be a non-empty float32 1-channel matrix");
        if (!(max_depth > 0) || !std::isfinite(max_depth))
            return fail(err, DC_ERR_ARGUMENT, "max_depth must be a positive number of metres");
        const float top = static_cast<float>(max_depth) + 1.f;
        // Inverted depth: near is large, so max-filters (dilations) favour the
        // nearer surface as IP-Basic does; 0 = empty.
        cv::Mat d(sparse_depth->mat.size(), CV_32FC1);
        for (int y = 0; y < d.rows; ++y) {
            const float *s = sparse_depth->mat.ptr<float>(y);
            float *r = d.ptr<float>(y);
            for (int x = 0; x < d.cols; ++x) r[x] = std::isfinite(s[x]) && s[x] > 0 ? top - std::min(s[x], top - kMinInverted) : 0.f;
        }
        cv::Mat diamond = (cv::Mat_<uint8_t>(kKernel, kKernel) << 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0,
                           0, 1, 0, 0);
        cv::dilate(d, d, diamond);
        cv::morphologyEx(d, d, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, {kKernel, kKernel}));
        auto fill_holes = [&](int size) {
            cv::Mat dilated;
            cv::dilate(d, dilated, cv::getStructuringElement(cv::MORPH_RECT, {size, size}));
            cv::Mat empty = d < kEmpty;
            dilated.copyTo(d, empty);
        };
        fill_holes(kSmallHoles);
        fill_holes(kLargeHoles);
        // Repeat the large fill until nothing is empty or nothing changes (very sparse input).
        for (int pass = 0; pass < kMaxLargePasses && cv::countNonZero(d < kEmpty) > 0; ++pass) fill_holes(kLargeHoles);
        cv::Mat median;
        cv::medianBlur(d, median, kKernel);
        cv::Mat valid = d > kEmpty;
        median.copyTo(d, valid);
        cv::Mat blurred;
        cv::GaussianBlur(d, blurred, {kKernel, kKernel}, 0);
        blurred.copyTo(d, valid);
        cv::Mat result(d.size(), CV_32FC1);
        for (int y = 0; y < d.rows; ++y) {
            const float *s = d.ptr<float>(y);
            float *r = result.ptr<float>(y);
            for (int x = 0; x < d.cols; ++x)
                r[x] = s[x] > kEmpty ? top - s[x] : std::numeric_limits<float>::quiet_NaN();
        }
        return emit(std::move(result), out, err);
    });
}


namespace {

/// The region pixels' votes run in this many stripes on OpenCV's threads:
/// enough to balance a few cores, few enough that a stripe is not tiny.
constexpr double kVoteStripes = 8;

/// The extremes of `current`'s valid (positive, finite) depths over each
/// `window`: min filter (erode) and max filter (dilate), invalid pixels
/// neutral.
void window_extremes(const cv::Mat &current, const cv::Mat &window, cv::Mat &zmin, cv::Mat &zmax) {
    CV_Assert(current.isContinuous());
    cv::Mat forMin(current.size(), CV_32FC1), forMax(current.size(), CV_32FC1);
    dck_relabel_extremes_input(current.ptr<float>(), static_cast<int>(current.total()), forMin.ptr<float>(),
                               forMax.ptr<float>());
    cv::erode(forMin, zmin, window);
    cv::dilate(forMax, zmax, window);
}

/// The square structuring elements of one relabelling: the window whose
/// extremes define the two surfaces, and the reach of a vote.
struct RelabelWindows {
    cv::Mat extremes, vote;
    RelabelWindows(int radius, int vote_radius)
        : extremes(cv::getStructuringElement(cv::MORPH_RECT, {2 * radius + 1, 2 * radius + 1})),
          vote(cv::getStructuringElement(cv::MORPH_RECT, {2 * vote_radius + 1, 2 * vote_radius + 1})) {}
};

/// One relabelling pass over `current` (CDualcamKernels' steps with OpenCV's
/// filters between them); returns the number of changed pixels.
int relabel_pass(dck_relabel *state, cv::Mat &current, const RelabelWindows &windows) {
    cv::Mat zmin, zmax;
    window_extremes(current, windows.extremes, zmin, zmax);
    CV_Assert(zmin.isContinuous() && zmax.isContinuous());
    // Region pixels first, then log depth and voter flags only where a vote
    // reads them: within vote_radius of a region pixel.
    cv::Mat region(current.size(), CV_8UC1), needed;
    const int count = dck_relabel_regions(state, current.ptr<float>(), zmin.ptr<float>(), zmax.ptr<float>(),
                                          region.ptr<uint8_t>());
    cv::dilate(region, needed, windows.vote);
    CV_Assert(needed.isContinuous());
    dck_relabel_prepare(state, current.ptr<float>(), zmin.ptr<float>(), zmax.ptr<float>(), needed.ptr<uint8_t>());
    // Region pixels vote independently (they read `current`, write `next`).
    cv::Mat next = current.clone();
    std::atomic<int> changed{0};
    cv::parallel_for_(cv::Range(0, count), [&](const cv::Range &range) {
        changed += dck_relabel_vote(state, next.ptr<float>(), range.start, range.end);
    }, kVoteStripes);
    current = next;
    return changed;
}

}  // namespace

extern "C" int dc_relabel_depth_edges(const dc_mat *guide, const dc_mat *depth, int radius, int vote_radius,
                                      double sigma, double luma_weight, double min_ratio, double margin,
                                      int iterations, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_relabel_depth_edges: out is NULL");
        *out = nullptr;
        if (int status = check_guided(guide, depth, "depth", err)) return status;
        if (guide->mat.channels() != 3) return fail(err, DC_ERR_ARGUMENT, "the guide must have 3 channels (RGB)");
        if (radius < 1 || vote_radius < 1 || !(sigma > 0) || !(luma_weight >= 0) || !(min_ratio > 1) ||
            !(margin >= 0 && margin < 0.5) || iterations < 1)
            return fail(err, DC_ERR_ARGUMENT,
                        "radii must be at least 1, sigma positive, luma_weight >= 0, min_ratio above 1, margin in "
                        "[0, 0.5) and iterations at least 1");
        dck_relabel *state = nullptr;
        dck_error e{};
        if (int status = dck_relabel_create(guide->mat.ptr<uint8_t>(), guide->mat.step[0], guide->mat.cols,
                                            guide->mat.rows, vote_radius, sigma, luma_weight, min_ratio, margin,
                                            &state, &e))
            return kernel_status(status, e, err);
        const std::unique_ptr<dck_relabel, void (*)(dck_relabel *)> owned(state, dck_relabel_free);
        cv::Mat current = depth->mat.clone();
        const RelabelWindows windows(radius, vote_radius);
        for (int pass = 0; pass < iterations; ++pass)
            if (relabel_pass(state, current, windows) == 0) break;
        return emit(std::move(current), out, err);
    });
}
