// Sub-pixel translation by ECC (cv::findTransformECC): unlike phase
// correlation it is not biased by image borders or by a difference in
// sharpness between the two images, which is what comparing a resampled
// view with a rendered one involves.
#include "shim_imgproc.hpp"
#include <opencv2/video/tracking.hpp>

using namespace dualcam_shim;

extern "C" int dc_ecc_translation(const dc_mat *a, const dc_mat *b, int iterations, double epsilon, int gauss_size,
                                  double *dx, double *dy, double *correlation, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!a || !b || !dx || !dy || !correlation) return fail(err, DC_ERR_ARGUMENT, "null argument");
        if (a->mat.size() != b->mat.size() || a->mat.channels() != 1 || b->mat.channels() != 1)
            return fail(err, DC_ERR_ARGUMENT, "ECC needs two 1-channel images of the same size");
        if (iterations < 1 || !(epsilon > 0) || (gauss_size != 0 && gauss_size % 2 == 0))
            return fail(err, DC_ERR_ARGUMENT, "ECC needs iterations >= 1, epsilon > 0 and an odd filter size or 0");
        cv::Mat fa, fb;
        a->mat.convertTo(fa, CV_32F);
        b->mat.convertTo(fb, CV_32F);
        // Warp W(x) = x + t with b(W(x)) ~ a(x): b shows a's content moved by +t.
        cv::Mat warp = cv::Mat::eye(2, 3, CV_32F);
        const cv::TermCriteria criteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, iterations, epsilon);
        *correlation = cv::findTransformECC(fa, fb, warp, cv::MOTION_TRANSLATION, criteria, cv::noArray(),
                                            gauss_size == 0 ? 1 : gauss_size);
        *dx = warp.at<float>(0, 2);
        *dy = warp.at<float>(1, 2);
        return DC_OK;
    });
}
