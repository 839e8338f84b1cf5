// The SGBM side of dc_stereo_match (stereo.cpp): both views' SGBM, their
// float disparities and the refinement's images.
#pragma once
#include "dualcam_opencv_stereo.h"
#include "stereo_refine.hpp"
#include <opencv2/core.hpp>

namespace dualcam_shim {

/// SGBM fixed-point output (1/16 px) to float pixels, NaN below `min_valid`;
/// `sign` -1 turns the right matcher's negative disparities positive.
cv::Mat sgbm_to_pixels(const cv::Mat &raw, int min_valid, float sign);

/// SGBM of the left view against the right one and of the right against the
/// left (the search of `p`, the right matcher's by createRightMatcher) at
/// once, as float pixels with positive disparities (`disparities`, NaN =
/// none), and with `p.refine` each view's `RefineImage` (`views`). DC_OK or
/// an error.
int match_views(const cv::Mat &left, const cv::Mat &right, const dc_stereo_params &p, cv::Mat disparities[2],
                RefineImage views[2], dc_error *err);

}  // namespace dualcam_shim
