// Stereo: rectification maps, point undistortion, SGBM with left-right check
// and subpixel refinement (CDualcamKernels), SGBM + WLS reference.
#include "dualcam_opencv_stereo.h"
#include "shim_imgproc.hpp"
#include "shim_kernels.hpp"
#include "stereo_refine.hpp"
#include "stereo_views.hpp"
#include <opencv2/calib3d.hpp>
#include <opencv2/ximgproc.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

using namespace dualcam_shim;

namespace {

/// Texture scale (grey levels / px of window gradient RMS) when the caller
/// gives none: the gradient of a faint but matchable texture.
constexpr double kDefaultTextureSigma = 2.0;

int check_distortion(int count, dc_error *err) {
    if (count != 0 && count != 4 && count != 5 && count != 8)
        return fail(err, DC_ERR_ARGUMENT,
                    "distortion needs 0, 4, 5 or 8 coefficients, got " + std::to_string(count));
    return DC_OK;
}

cv::Mat matrix3(const double *v) { return cv::Mat(3, 3, CV_64F, const_cast<double *>(v)).clone(); }

cv::Mat distortion(const double *v, int count) {
    if (count == 0) return cv::Mat();
    return cv::Mat(1, count, CV_64F, const_cast<double *>(v)).clone();
}

int check_params(const dc_stereo_params *p, dc_error *err) {
    if (!p) return fail(err, DC_ERR_ARGUMENT, "stereo parameters are NULL");
    if (p->num_disparities < 16 || p->num_disparities % 16 != 0)
        return fail(err, DC_ERR_ARGUMENT,
                    "the number of disparities must be a positive multiple of 16, got " +
                        std::to_string(p->num_disparities));
    if (p->block_size < 1 || p->block_size % 2 == 0 || p->block_size > 11)
        return fail(err, DC_ERR_ARGUMENT, "the block size must be odd, 1 to 11, got " + std::to_string(p->block_size));
    if (p->refine_radius < 1 || p->refine_radius > 10)
        return fail(err, DC_ERR_ARGUMENT, "the refinement radius must be 1 to 10, got " + std::to_string(p->refine_radius));
    if (!(p->lr_tolerance > 0)) return fail(err, DC_ERR_ARGUMENT, "the left-right tolerance must be positive");
    if (!(p->occlusion_margin >= 0) || (p->occlusion_margin > 0 && !(p->occlusion_share > 0 && p->occlusion_share <= 1)))
        return fail(err, DC_ERR_ARGUMENT, "the occlusion margin must be 0 or more, its share in (0, 1]");
    return DC_OK;
}

int check_pair(const dc_mat *left, const dc_mat *right, dc_error *err) {
    if (int status = check_input(left, "left image", err)) return status;
    if (int status = check_input(right, "right image", err)) return status;
    if (left->mat.type() != CV_8UC1 || right->mat.type() != CV_8UC1)
        return fail(err, DC_ERR_ARGUMENT, "stereo images must be 8-bit grey");
    if (left->mat.size() != right->mat.size())
        return fail(err, DC_ERR_ARGUMENT, "the left and right images differ in size");
    return DC_OK;
}

/// Block matching needs the whole search plus one block along a row and one
/// block of rows: below that OpenCV's SGBM aborts (an exception thrown from a
/// buffer's cleanup, past any catch) or writes out of bounds.
int check_fits(cv::Size size, int num_disparities, int block_size, dc_error *err) {
    if (size.width < num_disparities + block_size || size.height < block_size)
        return fail(err, DC_ERR_ARGUMENT,
                    "the images (" + std::to_string(size.width) + "x" + std::to_string(size.height) +
                        ") are too small for stereo matching: a " + std::to_string(num_disparities) +
                        "-disparity search with a " + std::to_string(block_size) + "-pixel block needs at least " +
                        std::to_string(num_disparities + block_size) + "x" + std::to_string(block_size));
    return DC_OK;
}

/// A mask's pixels as one continuous uint8 buffer (NULL for no mask).
const uint8_t *mask_pixels(const dc_mat *mask, cv::Mat &keep) {
    if (!mask) return nullptr;
    keep = continuous(mask->mat);
    return keep.ptr<uint8_t>();
}

/// CDualcamKernels' left-right check of `ref` against `other` (see
/// dck_left_right_check); all matrices continuous, one size.
int left_right_check(cv::Mat &ref, const cv::Mat &other, cv::Mat &conf, const dc_mat *refValid,
                     const dc_mat *otherValid, float sign, double tolerance, dc_error *err) {
    CV_Assert(ref.isContinuous() && other.isContinuous() && conf.isContinuous());
    cv::Mat rv, ov;
    const uint8_t *refMask = mask_pixels(refValid, rv), *otherMask = mask_pixels(otherValid, ov);
    const size_t n = (size_t)ref.cols;
    // Rows are independent: stripes of rows run on OpenCV's threads.
    return parallel_kernel(cv::Range(0, ref.rows), err, [&](int y0, int y1, dck_error *e) {
        const size_t at = (size_t)y0 * n;
        return dck_left_right_check(ref.ptr<float>() + at, other.ptr<float>() + at, conf.ptr<float>() + at, n, ref.cols,
                                    y1 - y0, refMask ? refMask + at : nullptr, otherMask ? otherMask + at : nullptr, n,
                                    sign, tolerance, e);
    });
}

}  // namespace

extern "C" int dc_rectify_maps(const double *k, const double *dist, int dist_count, const double *r,
                               const double *p, int cols, int rows, dc_mat **map_x, dc_mat **map_y,
                               dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!map_x || !map_y) return fail(err, DC_ERR_ARGUMENT, "dc_rectify_maps: out is NULL");
        *map_x = nullptr; *map_y = nullptr;
        if (!k || !r || !p || (dist_count > 0 && !dist)) return fail(err, DC_ERR_ARGUMENT, "matrix is NULL");
        if (int status = check_distortion(dist_count, err)) return status;
        if (int status = check_size(cols, rows, err)) return status;
        cv::Mat mx, my;
        cv::initUndistortRectifyMap(matrix3(k), distortion(dist, dist_count), matrix3(r), matrix3(p),
                                    cv::Size(cols, rows), CV_32FC1, mx, my);
        if (int status = emit(std::move(mx), map_x, err)) return status;
        return emit(std::move(my), map_y, err);
    });
}

extern "C" int dc_undistort_rectify_points(const double *k, const double *dist, int dist_count, const double *r,
                                           const double *p, int count, const double *points, double *out,
                                           dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!k || !r || !p || !points || !out || (dist_count > 0 && !dist))
            return fail(err, DC_ERR_ARGUMENT, "dc_undistort_rectify_points: NULL argument");
        if (int status = check_distortion(dist_count, err)) return status;
        if (count < 1) return fail(err, DC_ERR_ARGUMENT, "no points");
        cv::Mat src(count, 1, CV_64FC2, const_cast<double *>(points));
        cv::Mat dst;
        cv::undistortPoints(src, dst, matrix3(k), distortion(dist, dist_count), matrix3(r), matrix3(p),
                            cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 20, 1e-9));
        std::memcpy(out, dst.ptr<double>(0), sizeof(double) * 2 * (size_t)count);
        return DC_OK;
    });
}

extern "C" int dc_stereo_match(const dc_mat *left, const dc_mat *right, const dc_mat *left_valid,
                               const dc_mat *right_valid, const dc_stereo_params *params, int reference_right,
                               const dc_mat *refine_mask, dc_mat **disparity, dc_mat **confidence,
                               dc_mat **disparity_sigma, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!disparity || !confidence) return fail(err, DC_ERR_ARGUMENT, "dc_stereo_match: out is NULL");
        *disparity = nullptr; *confidence = nullptr;
        if (disparity_sigma) *disparity_sigma = nullptr;
        if (int status = check_pair(left, right, err)) return status;
        if (int status = check_params(params, err)) return status;
        const cv::Size size = left->mat.size();
        if (int status = check_fits(size, params->num_disparities, params->block_size, err)) return status;
        for (const dc_mat *mask : {left_valid, right_valid, refine_mask})
            if (mask && (mask->mat.type() != CV_8UC1 || mask->mat.size() != size))
                return fail(err, DC_ERR_ARGUMENT, "masks must be 8-bit, 1 channel, the images' size");
        const dc_stereo_params &p = *params;
        cv::Mat disparities[2];
        RefineImage views[2];
        if (int status = match_views(left->mat, right->mat, p, disparities, views, err))
            return status;
        const float direction[2] = {1.0f, -1.0f};
        const int r = reference_right != 0 ? 1 : 0;
        cv::Mat &ref = disparities[r];
        const cv::Mat &other = disparities[1 - r];
        const dc_mat *valid[2] = {left_valid, right_valid};
        const float sign = direction[r];  // x_other = x - sign * d
        cv::Mat conf(size, CV_32F, cv::Scalar(0));
        if (int status = left_right_check(ref, other, conf, valid[r], valid[1 - r], sign, p.lr_tolerance, err))
            return status;
        // NaN wherever the refinement predicts nothing (not refined, or no refinement).
        cv::Mat sigma;
        if (disparity_sigma) sigma = cv::Mat(size, CV_32F, cv::Scalar(std::numeric_limits<float>::quiet_NaN()));
        if (p.refine) {
            const RefineInputs in{std::move(views[r]), std::move(views[1 - r]), ref.clone(), sign, p.refine_radius,
                                  p.texture_sigma > 0 ? p.texture_sigma : kDefaultTextureSigma};
            if (int status = refine_disparities(in, ref, conf, refine_mask ? refine_mask->mat : cv::Mat(), p.min_zncc,
                                                disparity_sigma ? &sigma : nullptr, err))
                return status;
        }
        // The left-right check and the refinement break SGBM's regions into
        // pieces; SGBM's speckle rule applies again to what they leave.
        if (p.speckle_window > 0) {
            dck_error kerr{};
            const int status = dck_remove_islands(ref.ptr<float>(), conf.ptr<float>(), (size_t)ref.cols, ref.cols, ref.rows,
                                                  p.speckle_window, p.speckle_range, &kerr);
            if (int failed = kernel_status(status, kerr, err)) return failed;
        }
        // What the other view cannot see is no measurement: regions hidden
        // there behind a nearer measurement of the same row go.
        if (p.occlusion_margin > 0) {
            cv::Mat occluded(size, CV_8UC1);
            const int status = parallel_kernel(cv::Range(0, ref.rows), err, [&](int y0, int y1, dck_error *e) {
                return dck_mark_occluded_rows(ref.ptr<float>(), (size_t)ref.cols, ref.cols, ref.rows, sign,
                                              p.occlusion_margin, occluded.ptr<uint8_t>(), y0, y1, e);
            });
            if (status != DC_OK) return status;
            dck_error kerr{};
            const int removed = dck_remove_flagged_regions(ref.ptr<float>(), conf.ptr<float>(), (size_t)ref.cols, ref.cols,
                                                           ref.rows, p.speckle_range, occluded.ptr<uint8_t>(),
                                                           p.occlusion_share, &kerr);
            if (int failed = kernel_status(removed, kerr, err)) return failed;
        }
        if (int status = emit(std::move(ref), disparity, err)) return status;
        if (disparity_sigma)
            if (int status = emit(std::move(sigma), disparity_sigma, err)) return status;
        return emit(std::move(conf), confidence, err);
    });
}

extern "C" int dc_stereo_opencv(const dc_mat *left, const dc_mat *right, const dc_opencv_matcher *m,
                                int reference_right, dc_mat **disparity, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!disparity) return fail(err, DC_ERR_ARGUMENT, "dc_stereo_opencv: out is NULL");
        *disparity = nullptr;
        if (!m) return fail(err, DC_ERR_ARGUMENT, "matcher settings are NULL");
        if (int status = check_input(left, "left image", err)) return status;
        if (int status = check_input(right, "right image", err)) return status;
        const int type = left->mat.type();
        if (type != right->mat.type() || left->mat.size() != right->mat.size())
            return fail(err, DC_ERR_ARGUMENT, "the left and right images differ in size or type");
        if (type != CV_8UC1 && !(m->algorithm == 0 && type == CV_8UC3))
            return fail(err, DC_ERR_ARGUMENT, m->algorithm == 0 ? "SGBM images must be 8-bit with 1 or 3 channels"
                                                                : "BM images must be 8-bit grey");
        if (m->num_disparities < 16 || m->num_disparities % 16 != 0)
            return fail(err, DC_ERR_ARGUMENT, "the number of disparities must be a positive multiple of 16, got " +
                                                  std::to_string(m->num_disparities));
        if (int status = check_fits(left->mat.size(), m->num_disparities, m->block_size, err)) return status;
        cv::Ptr<cv::StereoMatcher> matcher;
        if (m->algorithm == 0) {
            if (m->block_size < 1 || m->block_size % 2 == 0 || m->block_size > 11)
                return fail(err, DC_ERR_ARGUMENT, "the SGBM block size must be odd, 1 to 11");
            if (!(m->p1 > 0 && m->p2 > m->p1)) return fail(err, DC_ERR_ARGUMENT, "SGBM needs 0 < P1 < P2");
            if (m->sgbm_mode < 0 || m->sgbm_mode > 3) return fail(err, DC_ERR_ARGUMENT, "unknown SGBM mode");
            matcher = cv::StereoSGBM::create(m->min_disparity, m->num_disparities, m->block_size, m->p1, m->p2,
                                             m->disp12_max_diff, m->pre_filter_cap, m->uniqueness, m->speckle_window,
                                             m->speckle_range, m->sgbm_mode);
        } else if (m->algorithm == 1) {
            if (m->block_size < 5 || m->block_size % 2 == 0 || m->block_size > 255)
                return fail(err, DC_ERR_ARGUMENT, "the BM block size must be odd, 5 to 255");
            auto bm = cv::StereoBM::create(m->num_disparities, m->block_size);
            bm->setMinDisparity(m->min_disparity);
            bm->setPreFilterCap(m->pre_filter_cap);
            bm->setUniquenessRatio(m->uniqueness);
            bm->setSpeckleWindowSize(m->speckle_window);
            bm->setSpeckleRange(m->speckle_range);
            bm->setTextureThreshold(m->texture_threshold);
            bm->setDisp12MaxDiff(m->disp12_max_diff);
            matcher = bm;
        } else {
            return fail(err, DC_ERR_ARGUMENT, "unknown matcher algorithm");
        }
        // Fresh headers: flipping into a header of the inputs would overwrite them.
        cv::Mat base, match;
        if (!reference_right) {
            base = left->mat;
            match = right->mat;
        } else {
            cv::flip(right->mat, base, 1);
            cv::flip(left->mat, match, 1);
        }
        cv::Mat raw;
        matcher->compute(base, match, raw);
        if (m->wls) {
            auto rightMatcher = cv::ximgproc::createRightMatcher(matcher);
            cv::Mat rawR, filtered;
            rightMatcher->compute(match, base, rawR);
            auto wls = cv::ximgproc::createDisparityWLSFilter(matcher);
            wls->setLambda(m->wls_lambda);
            wls->setSigmaColor(m->wls_sigma);
            wls->filter(raw, base, filtered, rawR);
            raw = filtered;
        }
        cv::Mat result = sgbm_to_pixels(raw, m->min_disparity, 1.0f);
        if (reference_right) cv::flip(result.clone(), result, 1);
        return emit(std::move(result), disparity, err);
    });
}
