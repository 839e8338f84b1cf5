// Edge-aware filters (ximgproc) and sparse-to-dense helpers for depth fusion.
#include "dualcam_opencv_edge_aware.h"
#include "shim_imgproc.hpp"
#include <opencv2/imgproc.hpp>
#include <opencv2/ximgproc.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

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

extern "C" int dc_fgs_fill(const dc_mat *guide, const dc_mat *values, const dc_mat *weights, double lambda,
                           double sigma_color, double lambda_attenuation, int iterations, double min_weight,
                           dc_mat **out, dc_mat **weight_out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_fgs_fill: out is NULL");
        *out = nullptr;
        if (weight_out) *weight_out = nullptr;
        if (int status = check_guided(guide, values, "values", err)) return status;
        if (int status = check_guided(guide, weights, "weights", err)) return status;
        if (!(lambda > 0) || !(sigma_color > 0) || !(lambda_attenuation >= 0) || iterations < 1)
            return fail(err, DC_ERR_ARGUMENT, "lambda and sigma_color must be positive, iterations at least 1");
        const cv::Mat &v = values->mat, &w = weights->mat;
        cv::Mat weighted(v.size(), CV_32FC1), clean(v.size(), CV_32FC1);
        for (int y = 0; y < v.rows; ++y) {
            const float *vr = v.ptr<float>(y), *wr = w.ptr<float>(y);
            float *pr = weighted.ptr<float>(y), *cr = clean.ptr<float>(y);
            for (int x = 0; x < v.cols; ++x) {
                const bool ok = std::isfinite(vr[x]) && std::isfinite(wr[x]) && wr[x] > 0;
                cr[x] = ok ? wr[x] : 0.f;
                pr[x] = ok ? wr[x] * vr[x] : 0.f;
            }
        }
        auto filter = cv::ximgproc::createFastGlobalSmootherFilter(guide->mat, lambda, sigma_color,
                                                                   lambda_attenuation, iterations);
        cv::Mat numerator, denominator;
        filter->filter(weighted, numerator);
        filter->filter(clean, denominator);
        cv::Mat result(v.size(), CV_32FC1);
        const float floor = static_cast<float>(min_weight);
        for (int y = 0; y < v.rows; ++y) {
            const float *nr = numerator.ptr<float>(y), *dr = denominator.ptr<float>(y);
            float *rr = result.ptr<float>(y);
            for (int x = 0; x < v.cols; ++x)
                rr[x] = dr[x] > floor && dr[x] > 0 ? nr[x] / dr[x] : std::numeric_limits<float>::quiet_NaN();
        }
        if (int status = emit(std::move(result), out, err)) return status;
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
        // distanceTransform measures the distance to the nearest zero pixel.
        cv::Mat inverted = mask->mat == 0;
        cv::Mat result;
        cv::distanceTransform(inverted, result, cv::DIST_L2, cv::DIST_MASK_5, CV_32F);
        return emit(std::move(result), out, err);
    });
}

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
            for (int x = 0; x < d.cols; ++x) r[x] = std::isfinite(s[x]) && s[x] > 0 ? top - std::min(s[x], top - 0.1f) : 0.f;
        }
        cv::Mat diamond = (cv::Mat_<uint8_t>(5, 5) << 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0,
                           0, 1, 0, 0);
        cv::dilate(d, d, diamond);
        cv::morphologyEx(d, d, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, {5, 5}));
        auto fill_holes = [&](int size) {
            cv::Mat dilated;
            cv::dilate(d, dilated, cv::getStructuringElement(cv::MORPH_RECT, {size, size}));
            cv::Mat empty = d < 0.05f;
            dilated.copyTo(d, empty);
        };
        fill_holes(7);
        fill_holes(31);
        // Repeat the large fill until nothing is empty or nothing changes (very sparse input).
        for (int pass = 0; pass < 16 && cv::countNonZero(d < 0.05f) > 0; ++pass) fill_holes(31);
        cv::Mat median;
        cv::medianBlur(d, median, 5);
        cv::Mat valid = d > 0.05f;
        median.copyTo(d, valid);
        cv::Mat blurred;
        cv::GaussianBlur(d, blurred, {5, 5}, 0);
        blurred.copyTo(d, valid);
        cv::Mat result(d.size(), CV_32FC1);
        for (int y = 0; y < d.rows; ++y) {
            const float *s = d.ptr<float>(y);
            float *r = result.ptr<float>(y);
            for (int x = 0; x < d.cols; ++x)
                r[x] = s[x] > 0.05f ? top - s[x] : std::numeric_limits<float>::quiet_NaN();
        }
        return emit(std::move(result), out, err);
    });
}


extern "C" int dc_snap_depth_edges(const dc_mat *guide, const dc_mat *depth, int radius, int median_radius,
                                   double sigma, double min_ratio, double margin, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_snap_depth_edges: out is NULL");
        *out = nullptr;
        if (int status = check_guided(guide, depth, "depth", err)) return status;
        if (radius < 1 || median_radius < 1 || !(sigma > 0) || !(min_ratio > 1) || !(margin >= 0 && margin < 0.5))
            return fail(err, DC_ERR_ARGUMENT,
                        "radii must be at least 1, sigma positive, min_ratio above 1 and margin in [0, 0.5)");
        const cv::Mat &z = depth->mat;
        cv::Mat logz(z.size(), CV_32FC1), valid(z.size(), CV_8UC1);
        for (int y = 0; y < z.rows; ++y) {
            const float *zr = z.ptr<float>(y);
            float *lr = logz.ptr<float>(y);
            uint8_t *vr = valid.ptr<uint8_t>(y);
            for (int x = 0; x < z.cols; ++x) {
                const bool ok = std::isfinite(zr[x]) && zr[x] > 0;
                vr[x] = ok ? 255 : 0;
                lr[x] = ok ? std::log(zr[x]) : 0.f;
            }
        }
        // Local extremes of the depth over the window (missing = neutral).
        cv::Mat forMin = z.clone(), forMax = z.clone();
        forMin.setTo(std::numeric_limits<float>::max(), valid == 0);
        forMax.setTo(0.f, valid == 0);
        const cv::Mat window = cv::getStructuringElement(cv::MORPH_RECT, {2 * radius + 1, 2 * radius + 1});
        cv::Mat zmin, zmax;
        cv::erode(forMin, zmin, window);
        cv::dilate(forMax, zmax, window);
        // Flying pixels: between the extremes of a window spanning a large
        // ratio. They are left out of the median, which then votes among
        // pixels that lie on a surface.
        const float ratio = static_cast<float>(min_ratio), edge = static_cast<float>(margin);
        cv::Mat flying(z.size(), CV_8UC1, cv::Scalar(0)), surface(z.size(), CV_8UC1, cv::Scalar(0));
        for (int y = 0; y < z.rows; ++y) {
            const float *zr = z.ptr<float>(y), *nr = zmin.ptr<float>(y), *xr = zmax.ptr<float>(y);
            const uint8_t *vr = valid.ptr<uint8_t>(y);
            uint8_t *fr = flying.ptr<uint8_t>(y), *sr = surface.ptr<uint8_t>(y);
            for (int x = 0; x < z.cols; ++x) {
                if (!vr[x]) continue;
                sr[x] = 1;
                if (!(nr[x] > 0) || xr[x] < ratio * nr[x]) continue;
                const float a = std::log(nr[x]), b = std::log(xr[x]), t = (std::log(zr[x]) - a) / (b - a);
                if (t >= edge && t <= 1 - edge) { fr[x] = 1; sr[x] = 0; }
            }
        }
        // The weighted median of the window's surface pixels, reduced to the
        // two-way choice it makes here: the side (nearer to the minimum or to
        // the maximum in log depth) with the larger total colour weight
        // exp(-|g_p - g_q|^2 / (2 sigma^2)) (weightedMedianFilter's WMF_EXP).
        // Written by hand because the filter itself processes every pixel
        // (~25 ms at 320x240) where only the few flying pixels need a vote.
        const cv::Mat &g = guide->mat;
        const int channels = g.channels();
        const float inv2s2 = static_cast<float>(1.0 / (2.0 * sigma * sigma));
        cv::Mat result = z.clone();
        for (int y = 0; y < z.rows; ++y) {
            const float *nr = zmin.ptr<float>(y), *xr = zmax.ptr<float>(y);
            const uint8_t *fr = flying.ptr<uint8_t>(y), *gp = g.ptr<uint8_t>(y);
            float *rr = result.ptr<float>(y);
            for (int x = 0; x < z.cols; ++x) {
                if (!fr[x]) continue;
                const float a = std::log(nr[x]), b = std::log(xr[x]), mid = 0.5f * (a + b);
                float nearWeight = 0, farWeight = 0;
                for (int qy = std::max(0, y - median_radius); qy <= std::min(z.rows - 1, y + median_radius); ++qy) {
                    const float *lq = logz.ptr<float>(qy);
                    const uint8_t *sq = surface.ptr<uint8_t>(qy), *gq = g.ptr<uint8_t>(qy);
                    for (int qx = std::max(0, x - median_radius); qx <= std::min(z.cols - 1, x + median_radius); ++qx) {
                        if (!sq[qx]) continue;
                        float d2 = 0;
                        for (int c = 0; c < channels; ++c) {
                            const float d = float(gp[x * channels + c]) - float(gq[qx * channels + c]);
                            d2 += d * d;
                        }
                        const float w = std::exp(-d2 * inv2s2);
                        (lq[qx] <= mid ? nearWeight : farWeight) += w;
                    }
                }
                if (nearWeight + farWeight > 0) rr[x] = nearWeight >= farWeight ? nr[x] : xr[x];
            }
        }
        return emit(std::move(result), out, err);
    });
}
