// The OpenCV side of the subpixel refinement: smoothing and gradients of the
// images; the refinement itself is CDualcamKernels' dck_refine_rows.
#include "stereo_refine.hpp"
#include "shim_kernels.hpp"
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <initializer_list>
#include <utility>

namespace dualcam_shim {
namespace {

/// Gaussian sigma (px) of the images the refinement resamples: just enough
/// against aliasing of the bilinear interpolation, little loss of texture.
constexpr double kSmoothingSigma = 0.7;
/// Row stripes per thread of the refinement: its cost per row follows the
/// refined pixels (the mask, the matches), so the rows of the last stripes
/// can take far longer than others; small stripes keep both threads busy to
/// the end. At most this many: fewer where a stripe would have under two
/// windows' rows, as each stripe copies its rows plus a window's halo.
constexpr int kRefineStripesPerThread = 16;
/// Sobel scale of a 1-px aperture: (f(x+1) - f(x-1)) / 2, the central difference.
constexpr double kCentralDifference = 0.5;

cv::Mat smoothed(const cv::Mat &grey) {
    cv::Mat f;
    grey.convertTo(f, CV_32F);
    cv::GaussianBlur(f, f, cv::Size(0, 0), kSmoothingSigma, kSmoothingSigma, cv::BORDER_REFLECT_101);
    return f;
}

cv::Mat x_gradient(const cv::Mat &f) {
    cv::Mat g;
    cv::Sobel(f, g, CV_32F, 1, 0, 1, kCentralDifference, 0, cv::BORDER_REFLECT_101);
    return g;
}

}  // namespace

RefineImage make_refine_image(const cv::Mat &grey) {
    RefineImage view;
    view.image = smoothed(grey);
    view.dx = x_gradient(view.image);
    return view;
}

int refine_disparities(const RefineInputs &in, cv::Mat &ref, cv::Mat &conf, const cv::Mat &mask, double minZncc,
                       cv::Mat *sigma, dc_error *err) {
    for (const cv::Mat *m : std::initializer_list<const cv::Mat *>{&in.base.image, &in.match.image, &in.base.dx,
                                                                    &in.match.dx, &in.disparity, &ref, &conf})
        CV_Assert(m->type() == CV_32FC1 && m->isContinuous() && m->size() == ref.size());
    CV_Assert(!sigma || (sigma->type() == CV_32FC1 && sigma->isContinuous() && sigma->size() == ref.size()));
    CV_Assert(mask.empty() || (mask.type() == CV_8UC1 && mask.isContinuous() && mask.size() == ref.size()));
    const dck_refine_job job{in.base.image.ptr<float>(), in.match.image.ptr<float>(), in.base.dx.ptr<float>(),
                             in.match.dx.ptr<float>(), in.disparity.ptr<float>(), ref.ptr<float>(), conf.ptr<float>(),
                             mask.empty() ? nullptr : mask.ptr<uint8_t>(), (size_t)ref.cols, ref.cols, ref.rows,
                             in.sign, in.radius, in.textureSigma, minZncc, sigma ? sigma->ptr<float>() : nullptr};
    // Each stripe copies its rows plus a window's halo: at least two windows' rows (4 r) per stripe.
    const int stripes = std::clamp(ref.rows / (4 * in.radius * std::max(1, cv::getNumThreads())), 1, kRefineStripesPerThread);
    return parallel_kernel(
        cv::Range(0, ref.rows), err, [&](int y0, int y1, dck_error *e) { return dck_refine_rows(&job, y0, y1, e); },
        stripes);
}

}  // namespace dualcam_shim
