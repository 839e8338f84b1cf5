// The prepared remap table (dc_remap_table): shared by remap_table.cpp,
// which makes and applies it, and converge_kernels.cpp, which applies it to
// parts of an image.
#pragma once
#include "dualcam_opencv_imgproc.h"
#include <opencv2/core.hpp>

struct dc_remap_table {
    cv::Mat xy;  // CV_16SC2: integer source positions
    cv::Mat a;   // CV_16UC1: 1/32-pixel fractions (interpolation table indices)
};
