// Both views' SGBM for dc_stereo_match (see stereo_views.hpp): OpenCV's
// StereoSGBM for each view at once, the left view's speckle filter by
// CDualcamKernels, the float disparities and the refinement's images.
#include "stereo_views.hpp"
#include "shim_common.hpp"
#include "shim_handles.hpp"
#include "shim_kernels.hpp"
#include <opencv2/calib3d.hpp>
#include <opencv2/ximgproc.hpp>
#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace dualcam_shim {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
/// SGBM smoothness penalties per block pixel, OpenCV's recommendation for
/// grey images: P1 = 8 b^2 for 1-px disparity changes, P2 = 32 b^2 for jumps.
constexpr int kP1 = 8, kP2 = 32;
/// SGBM's own left-right check off (< 0): dc_stereo_match runs its own.
constexpr int kNoDisp12Check = -1;
/// SGBM's prefilter clip at its maximum: the least clipping of strong texture.
constexpr int kPreFilterCap = 63;
/// SGBM disparities are fixed point with 4 fractional bits.
constexpr int kSgbmScale = 16;

/// SGBM's speckle range in its disparity units (whole pixels, at least 1).
int sgbm_speckle_range(const dc_stereo_params *p) { return std::max(1, (int)std::ceil(p->speckle_range)); }

cv::Ptr<cv::StereoSGBM> make_sgbm(const dc_stereo_params *p) {
    int b = p->block_size;
    return cv::StereoSGBM::create(p->min_disparity, p->num_disparities, b, kP1 * b * b, kP2 * b * b, kNoDisp12Check,
                                  kPreFilterCap,
                                  p->uniqueness, p->speckle_window,
                                  sgbm_speckle_range(p), cv::StereoSGBM::MODE_SGBM_3WAY);
}

/// SGBM's last step, its speckle filter, on a raw SGBM disparity `raw` of
/// a matcher with the search of `p` (what StereoSGBM::compute does after
/// its median when the speckle window is set): CDualcamKernels' filter by
/// runs, the same regions as cv::filterSpeckles in a fraction of its time.
int filter_sgbm_speckles(cv::Mat &raw, const dc_stereo_params *p, dc_error *err) {
    CV_Assert(raw.type() == CV_16SC1);
    dck_error e{};
    const int status = dck_filter_speckles_s16(raw.ptr<int16_t>(), raw.step1(), raw.cols, raw.rows,
                                               (int16_t)((p->min_disparity - 1) * kSgbmScale), p->speckle_window,
                                               kSgbmScale * sgbm_speckle_range(p), &e);
    return kernel_status(status, e, err);
}

/// Runs `body(0)` and `body(1)` (the left and the right view) concurrently
/// on OpenCV's threads; rethrows the first view's exception, if any. OpenCV
/// runs parallel loops nested in these serially, so each view's SGBM runs
/// its stripes on one thread: the stripes follow cv::getNumThreads(), not the
/// thread, so the disparities are the same, and both cores stay busy through
/// the serial parts of SGBM (buffers, speckle filter) and of the smoothing.
template <typename Body>
void for_both_views(Body &&body) {
    std::exception_ptr failure[2];
    cv::parallel_for_(cv::Range(0, 2), [&](const cv::Range &range) {
        for (int view = range.start; view < range.end; ++view) {
            try {
                body(view);
            } catch (...) {
                failure[view] = std::current_exception();
            }
        }
    }, 2);
    for (const std::exception_ptr &f : failure)
        if (f) std::rethrow_exception(f);
}

}  // namespace

cv::Mat sgbm_to_pixels(const cv::Mat &raw, int min_valid, float sign) {
    cv::Mat out(raw.size(), CV_32F);
    for (int y = 0; y < raw.rows; ++y) {
        const int16_t *s = raw.ptr<int16_t>(y);
        float *d = out.ptr<float>(y);
        for (int x = 0; x < raw.cols; ++x) d[x] = s[x] < min_valid * kSgbmScale ? kNaN : sign * s[x] / (float)kSgbmScale;
    }
    return out;
}

int match_views(const cv::Mat &left, const cv::Mat &right, const dc_stereo_params &p, cv::Mat disparities[2],
                RefineImage views[2], dc_error *err) {
    // Per view (0 left, 1 right): its image, the other one, its matcher and, for
    // its float disparities, the lowest valid raw value / 16 and the sign
    // (the right matcher searches -(min + num - 1) .. -min).
    const cv::Mat *image[2] = {&left, &right};
    cv::Ptr<cv::StereoMatcher> matcher[2];
    matcher[0] = make_sgbm(&p);
    matcher[1] = cv::ximgproc::createRightMatcher(matcher[0]);
    // The left matcher's speckle filter runs after it (`filter_sgbm_speckles`);
    // the right matcher has none (createRightMatcher).
    matcher[0]->setSpeckleWindowSize(0);
    const bool speckles = p.speckle_window > 0;
    int speckleStatus = DC_OK;
    dc_error speckleError{};
    const int lowest[2] = {p.min_disparity, -(p.min_disparity + p.num_disparities - 1)};
    const float direction[2] = {1.0f, -1.0f};
    for_both_views([&](int view) {
        cv::Mat raw;
        matcher[view]->compute(*image[view], *image[1 - view], raw);
        if (view == 0 && speckles) speckleStatus = filter_sgbm_speckles(raw, &p, &speckleError);
        disparities[view] = sgbm_to_pixels(raw, lowest[view], direction[view]);
        if (p.refine) views[view] = make_refine_image(*image[view]);
    });
    if (speckleStatus != DC_OK && err) *err = speckleError;
    return speckleStatus;
}

}  // namespace dualcam_shim
