#ifndef DUALCAM_OPENCV_CONVERGE_H
#define DUALCAM_OPENCV_CONVERGE_H
/* Convergence kernels that read the caller's pixel buffers in place (no
 * copy into a dc_mat first): a frame's grey level for the plane sweep, and
 * the split view composed straight from the two images. Buffers hold rows
 * `step` bytes apart, channels interleaved in the caller's order (RGB). */
#include "dualcam_opencv.h"
#include "dualcam_opencv_imgproc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The luma of the `roi_cols` x `roi_rows` region at (roi_x, roi_y) of an
 * image (1, 3 or 4 channels, RGB(A); DC_DEPTH_U8, _U16 or _F32) as float32,
 * resized to `out_cols` x `out_rows` by pixel-area averaging (cv::resize,
 * INTER_AREA) unless that is the region's size. 8-bit colour is converted in
 * 8 bits (cv::cvtColor, rounded) then widened; other depths are widened
 * first. Y = 0.299 R + 0.587 G + 0.114 B; 1-channel images are only widened. */
int dc_grey_level(const void *data, int rows, int cols, int channels, int depth, size_t step, int roi_x, int roi_y,
                  int roi_cols, int roi_rows, int out_cols, int out_rows, dc_mat **out, dc_error *err);

/* The split view of a registered pair written into `out` (rows x cols, 3
 * channels, uint8, `out_step` bytes per row): columns x < cols/2 from the
 * left image, the others from the right one, then columns seam_start..<seam_end
 * set to `seam_rgb`. The moving image (m_rows x m_cols, 3-channel uint8) is
 * resampled through `moving_table` (bilinear, black outside) only on its
 * half (`moving_left`: the left one); where `valid` (rows x cols, 1 channel,
 * 0 = no moving data; NULL when all valid) is 0 its half shows the fixed
 * image instead. The fixed image (rows x cols without `fixed_table`, else
 * f_rows x f_cols resampled through it, bilinear) fills its own half. Both
 * tables are rows x cols. */
int dc_remap_split(const dc_remap_table *moving_table, const void *moving, int m_rows, int m_cols, size_t m_step,
                   const dc_remap_table *fixed_table, const void *fixed, int f_rows, int f_cols, size_t f_step,
                   const uint8_t *valid, size_t valid_step, int rows, int cols, int moving_left, int seam_start,
                   int seam_end, const uint8_t *seam_rgb, void *out, size_t out_step, dc_error *err);

#ifdef __cplusplus
}
#endif
#endif
