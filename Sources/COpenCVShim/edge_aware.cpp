// Edge-aware filters (ximgproc) and sparse-to-dense helpers for depth fusion.
#include "dualcam_opencv_edge_aware.h"
#include "shim_imgproc.hpp"
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/ximgproc.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
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


// Hand-written: no OpenCV filter makes this two-way, edge-region-only
// choice (weightedMedianFilter processes every pixel, ~25 ms at 320x240,
// and cannot leave the flying pixels out of the vote).
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
        const int rows = depth->mat.rows, cols = depth->mat.cols, n = rows * cols;
        // Guide in (sqrt(luma_weight) Y, Cb, Cr) so that squared distances weigh luma as asked.
        std::vector<float> feature(static_cast<size_t>(n) * 3);
        const float lw = static_cast<float>(std::sqrt(luma_weight));
        for (int y = 0; y < rows; ++y) {
            const uint8_t *g = guide->mat.ptr<uint8_t>(y);
            for (int x = 0; x < cols; ++x) {
                const float r = g[3 * x], gg = g[3 * x + 1], b = g[3 * x + 2];
                const float luma = 0.299f * r + 0.587f * gg + 0.114f * b;
                float *f = &feature[(static_cast<size_t>(y) * cols + x) * 3];
                f[0] = lw * luma;
                f[1] = 0.564f * (b - luma);
                f[2] = 0.713f * (r - luma);
            }
        }
        cv::Mat current = depth->mat.clone();
        const float ratio = static_cast<float>(min_ratio), edge = static_cast<float>(margin);
        // exp(-d^2 / (2 sigma^2)) tabulated over d^2 in [0, 18 sigma^2) (beyond: below 1.3e-4, taken as 0:
        // the entry one past the table is 0, so clamped indices add exact zeros).
        constexpr int table_size = 1024;
        const float table_step = static_cast<float>(18.0 * sigma * sigma / table_size);
        float table[table_size + 1];
        for (int i = 0; i < table_size; ++i) table[i] = static_cast<float>(std::exp(-(i + 0.5) * table_step / (2.0 * sigma * sigma)));
        table[table_size] = 0.f;
        const float to_index = 1.f / table_step;
        const cv::Mat window = cv::getStructuringElement(cv::MORPH_RECT, {2 * radius + 1, 2 * radius + 1});
        // Per pixel: log depth, voter weight (1 or 0) and, for region pixels,
        // the log-range midpoint (voters at or below it count as near).
        std::vector<float> logz(n), voter(n), mid(n);
        for (int pass = 0; pass < iterations; ++pass) {
            cv::Mat valid = (current > 0) & (current == current);
            cv::Mat forMin = current.clone(), forMax = current.clone();
            forMin.setTo(std::numeric_limits<float>::max(), valid == 0);
            forMax.setTo(0.f, valid == 0);
            cv::Mat zmin, zmax;
            cv::erode(forMin, zmin, window);
            cv::dilate(forMax, zmax, window);
            // Region pixels first (no logarithms needed), then log depth and
            // voter flags only where a vote reads them: within vote_radius of
            // a region pixel (a few of the image's pixels, and the logarithms
            // are most of this pass).
            std::vector<int> regionPixels;
            cv::Mat regionMask(rows, cols, CV_8UC1);
            for (int y = 0; y < rows; ++y) {
                const float *zr = current.ptr<float>(y), *nr = zmin.ptr<float>(y), *xr = zmax.ptr<float>(y);
                uint8_t *mr = regionMask.ptr<uint8_t>(y);
                for (int x = 0; x < cols; ++x) {
                    const int p = y * cols + x;
                    const bool ok = std::isfinite(zr[x]) && zr[x] > 0;
                    const bool region = ok && nr[x] > 0 && xr[x] >= ratio * nr[x];
                    mr[x] = region ? 255 : 0;
                    if (region) regionPixels.push_back(p);
                }
            }
            cv::Mat needed;
            cv::dilate(regionMask, needed, cv::getStructuringElement(cv::MORPH_RECT, {2 * vote_radius + 1, 2 * vote_radius + 1}));
            for (int y = 0; y < rows; ++y) {
                const float *zr = current.ptr<float>(y);
                const uint8_t *nd = needed.ptr<uint8_t>(y);
                for (int x = 0; x < cols; ++x) {
                    if (!nd[x]) continue;
                    const int p = y * cols + x;
                    const bool ok = std::isfinite(zr[x]) && zr[x] > 0;
                    logz[p] = ok ? std::log(zr[x]) : 0.f;
                    voter[p] = ok ? 1.f : 0.f;
                }
            }
            for (const int p : regionPixels) {
                const int y = p / cols, x = p % cols;
                const float a = std::log(zmin.at<float>(y, x)), b = std::log(zmax.at<float>(y, x)), t = (logz[p] - a) / (b - a);
                if (t >= edge && t <= 1 - edge) voter[p] = 0.f;
                mid[p] = 0.5f * (a + b);
            }
            cv::Mat next = current.clone();
            // Region pixels vote independently (they read `current`, write
            // `next`), in stripes over OpenCV's threads. The vote is branch-
            // free: non-voters, the pixel itself and colours beyond the table
            // add exact zeros, so the sums are those of skipping them.
            std::atomic<int> changed_total{0};
            const int count = static_cast<int>(regionPixels.size());
            cv::parallel_for_(cv::Range(0, count), [&](const cv::Range &range) {
            int changed = 0;
            for (int k = range.start; k < range.end; ++k) {
                const int p = regionPixels[k], y = p / cols, x = p % cols;
                const float m = mid[p];
                const float *fp = &feature[static_cast<size_t>(p) * 3];
                float wn = 0, wf = 0, sn = 0, sf = 0;
                const int x0 = std::max(0, x - vote_radius), x1 = std::min(cols - 1, x + vote_radius);
                for (int qy = std::max(0, y - vote_radius); qy <= std::min(rows - 1, y + vote_radius); ++qy) {
                    const int row = qy * cols;
                    for (int qx = x0; qx <= x1; ++qx) {
                        const int q = row + qx;
                        const float *fq = &feature[static_cast<size_t>(q) * 3];
                        const float d0 = fp[0] - fq[0], d1 = fp[1] - fq[1], d2 = fp[2] - fq[2];
                        const float scaled = std::min((d0 * d0 + d1 * d1 + d2 * d2) * to_index, static_cast<float>(table_size));
                        const float w = table[static_cast<int>(scaled)] * voter[q] * static_cast<float>(q != p);
                        const float near = static_cast<float>(logz[q] <= m);
                        const float wnq = w * near, wfq = w - wnq;
                        wn += wnq;
                        sn += wnq * logz[q];
                        wf += wfq;
                        sf += wfq * logz[q];
                    }
                }
                if (wn + wf <= 0) continue;
                const bool near = wn >= wf;
                // A pixel already on the chosen surface keeps its own value.
                if (voter[p] > 0 && (logz[p] <= m) == near) continue;
                float *out_row = next.ptr<float>(y);
                const float value = near ? std::exp(sn / wn) : std::exp(sf / wf);
                if (value != out_row[x]) ++changed;
                out_row[x] = value;
            }
            changed_total += changed;
            }, 8);
            current = next;
            if (!changed_total) break;
        }
        return emit(std::move(current), out, err);
    });
}

