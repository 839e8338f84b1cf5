/*
 * Camera buffer conversions behind dualcam's OpenCV wall (V4L2 capture).
 * Same rules as dualcam_opencv.h.
 */
#ifndef DUALCAM_OPENCV_CAPTURE_H
#define DUALCAM_OPENCV_CAPTURE_H

#include "dualcam_opencv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Converts a packed YUYV 4:2:2 buffer (V4L2_PIX_FMT_YUYV: Y0 U Y1 V per two
 * pixels, rows `bytes_per_line` apart) of `width` x `height` pixels to an
 * 8-bit BGR matrix with cv::cvtColor(COLOR_YUV2BGR_YUYV). `width` must be
 * even, `bytes_per_line` >= 2 * width, and `size` >= bytes_per_line * height
 * (DC_ERR_ARGUMENT otherwise). */
int dc_yuyv_to_bgr(const void *data, size_t size, int width, int height, int bytes_per_line, dc_mat **out,
                   dc_error *err);

#ifdef __cplusplus
}
#endif

#endif
