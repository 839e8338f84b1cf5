// Subpixel refinement of SGBM disparities (used by stereo.cpp's dc_stereo_match).
#pragma once
#include <opencv2/core.hpp>

namespace dualcam_shim {

/// What the refinement reads: the smoothed float images and their x
/// gradients, the reference view's SGBM disparity (float, NaN = none).
struct RefineInputs {
    cv::Mat base, match, baseDx, matchDx;
    cv::Mat disparity;
    float sign;           // x_match = x_base - sign * d
    int radius;           // window radius, 1 to 10
    double textureSigma;  // gradient energy scale of the texture term
};

/// The inputs for grey 8-bit `base`/`match` images: a Gaussian of sigma 0.7
/// px against aliasing, and central-difference x gradients.
RefineInputs make_refine_inputs(const cv::Mat &base, const cv::Mat &match, const cv::Mat &disparity, float sign,
                                int radius, double textureSigma);

/// Refines every finite disparity of `ref` (where `mask` is non-zero, or
/// everywhere when it is empty) in place, in parallel over rows. A pixel whose
/// fit fails or whose ZNCC is below `minZncc` becomes NaN with confidence 0;
/// otherwise its confidence is multiplied by the ZNCC term
/// clamp((zncc - minZncc) / (1 - minZncc)) and the texture term.
void refine_disparities(const RefineInputs &in, cv::Mat &ref, cv::Mat &conf, const cv::Mat &mask, double minZncc);

}  // namespace dualcam_shim
