// Subpixel refinement of SGBM disparities (used by stereo.cpp's
// dc_stereo_match): OpenCV prepares the images, CDualcamKernels'
// dck_refine_rows refines the rows on OpenCV's threads.
#pragma once
#include "dualcam_opencv.h"
#include <opencv2/core.hpp>

namespace dualcam_shim {

/// One view as the refinement resamples it: a grey 8-bit image as float32
/// with a Gaussian against aliasing, and its central-difference x gradient.
struct RefineImage {
    cv::Mat image, dx;
};
RefineImage make_refine_image(const cv::Mat &grey);

/// What the refinement reads: the two views (`RefineImage`), the reference
/// view's SGBM disparity (float, NaN = none; a copy, as `ref` is refined in place).
struct RefineInputs {
    RefineImage base, match;
    cv::Mat disparity;
    float sign;           // x_match = x_base - sign * d
    int radius;           // window radius, 1 to 10
    double textureSigma;  // gradient energy scale of the texture term
};

/// Refines every finite disparity of `ref` (where `mask` is non-zero, or
/// everywhere when it is empty) in place, in parallel over rows (see
/// dck_refine_rows). Returns DC_OK or the kernel's error.
/// `sigma` (nullable, float32 of ref's size): each refined pixel's predicted
/// disparity standard deviation (dck_refine_rows), other pixels left as is.
int refine_disparities(const RefineInputs &in, cv::Mat &ref, cv::Mat &conf, const cv::Mat &mask, double minZncc,
                       cv::Mat *sigma, dc_error *err);

}  // namespace dualcam_shim
