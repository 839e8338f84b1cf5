/*
 * Image operations behind dualcam's OpenCV wall: warps, resampling, colour and
 * element-type conversion, blur and phase correlation. Same rules as
 * dualcam_opencv.h: DC_OK or a DC_ERR_* code, no C++ exception crosses, every
 * `dc_mat **out` receives a new matrix the caller frees with dc_mat_free.
 *
 * Coordinates follow OpenCV: x is the column, y the row, and pixel centres are
 * at integer coordinates (pixel (0, 0) covers [-0.5, 0.5) x [-0.5, 0.5)).
 * Colour matrices are in OpenCV's BGR / BGRA order.
 */
#ifndef DUALCAM_OPENCV_IMGPROC_H
#define DUALCAM_OPENCV_IMGPROC_H

#include "dualcam_opencv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Interpolation codes (values equal OpenCV's InterpolationFlags). */
enum {
    DC_INTER_NEAREST = 0,
    DC_INTER_LINEAR = 1,
    DC_INTER_CUBIC = 2,
    DC_INTER_AREA = 3,     /* dc_resize only */
    DC_INTER_LANCZOS4 = 4,
};

/* How pixels outside the source are filled. */
enum {
    DC_BORDER_CONSTANT = 0,  /* `border_value` in every channel */
    DC_BORDER_REPLICATE = 1, /* nearest edge pixel */
};

/* Warps `src` with the 3x3 homography `h` (row-major, `h_count` must be 9)
 * into a `dst_cols` x `dst_rows` matrix of the same type.
 *   inverse_map == 0: `h` maps source pixels to destination pixels,
 *                     dst(x) = src(h^-1 x); a singular `h` is DC_ERR_ARGUMENT.
 *   inverse_map != 0: `h` maps destination pixels to source pixels,
 *                     dst(x) = src(h x).
 * Interpolation: nearest, linear, cubic or lanczos4 (area is DC_ERR_ARGUMENT).
 * With DC_BORDER_CONSTANT, `border_value` is saturated to the element type;
 * a non-finite value (NaN) is accepted for float matrices only, and with
 * interpolation other than nearest it reaches every pixel whose kernel touches
 * the outside, even with weight 0 (the last row and column of an identity
 * remap). Source
 * positions are quantized to 1/32 pixel (OpenCV's INTER_BITS). */
int dc_warp_perspective(const dc_mat *src, const double *h, int h_count, int dst_cols, int dst_rows,
                        int interpolation, int border, double border_value, int inverse_map,
                        dc_mat **out, dc_error *err);

/* dst(x, y) = src(map_x(x, y), map_y(x, y)). The maps are float32,
 * 1 channel, of equal size, which is the size of the result. Interpolation and
 * border as for dc_warp_perspective (positions quantized to 1/32 pixel). */
int dc_remap(const dc_mat *src, const dc_mat *map_x, const dc_mat *map_y, int interpolation,
             int border, double border_value, dc_mat **out, dc_error *err);

/* A remap table prepared once and applied to many images: the float32 maps of
 * dc_remap converted with cv::convertMaps to OpenCV's fixed-point form
 * (CV_16SC2 integer positions + CV_16UC1 1/32-pixel fractions), which is what
 * cv::remap computes internally from float maps on every call when it
 * interpolates. Results equal dc_remap's for linear, cubic and lanczos4;
 * nearest is DC_ERR_ARGUMENT (fixed-point positions truncate instead of
 * rounding). Free with dc_remap_table_free. Applying is thread-safe. */
typedef struct dc_remap_table dc_remap_table;

/* Prepares `map_x`, `map_y` (float32, 1 channel, equal size) as *out. */
int dc_remap_table_create(const dc_mat *map_x, const dc_mat *map_y, dc_remap_table **out, dc_error *err);

/* dst(x, y) = src(map_x(x, y), map_y(x, y)) as dc_remap, with `table`. */
int dc_remap_table_apply(const dc_remap_table *table, const dc_mat *src, int interpolation, int border,
                         double border_value, dc_mat **out, dc_error *err);

/* Frees a table from dc_remap_table_create; NULL is ignored. */
void dc_remap_table_free(dc_remap_table *table);

/* Resizes to `dst_cols` x `dst_rows` (cv::resize; all DC_INTER_* codes). */
int dc_resize(const dc_mat *src, int dst_cols, int dst_rows, int interpolation, dc_mat **out,
              dc_error *err);

/* Converts a 1-, 3- (BGR) or 4-channel (BGRA) matrix to 1 channel with
 * cv::cvtColor (Y = 0.299 R + 0.587 G + 0.114 B), keeping the depth
 * (uint8, uint16 or float32); with `rgb_order` non-zero the channels are
 * RGB(A) instead. A 1-channel input is copied. */
int dc_convert_to_gray(const dc_mat *src, int rgb_order, dc_mat **out, dc_error *err);

/* dst = saturate(src * scale + offset) as `depth` (DC_DEPTH_*), channels kept
 * (cv::Mat::convertTo: integer results round to nearest and saturate). */
int dc_convert_depth(const dc_mat *src, int depth, double scale, double offset, dc_mat **out,
                     dc_error *err);

/* Gaussian blur with standard deviation `sigma` > 0 pixels in x and y; the
 * kernel size follows from sigma, borders reflect (BORDER_REFLECT_101). */
int dc_gaussian_blur(const dc_mat *src, double sigma, dc_mat **out, dc_error *err);

/* Windows for dc_phase_correlate. */
enum {
    DC_WINDOW_NONE = 0,
    DC_WINDOW_HANNING = 1,
};

/* Sub-pixel estimators for dc_phase_correlate. */
enum {
    /* The maximum of the band-limited correlation surface (the inverse DFT
     * of the normalized cross-power spectrum evaluated off the pixel grid,
     * "upsampled DFT"), refined to 0.0005 px. Exact for a circular shift. */
    DC_SUBPIXEL_UPSAMPLED = 0,
    /* cv::phaseCorrelate verbatim: 5x5 weighted centroid around the peak,
     * biased towards whole pixels by up to ~0.35 px for fractional shifts. */
    DC_SUBPIXEL_OPENCV_CENTROID = 1,
};

/* Phase correlation of two 1-channel matrices of the same size (any depth,
 * converted to float64; NaN and infinities are DC_ERR_ARGUMENT), optionally
 * multiplied by a Hanning window first. Constant images are DC_ERR_ARGUMENT
 * for DC_SUBPIXEL_UPSAMPLED. Sets `*dx`, `*dy` to the shift of `b`
 * relative to `a`: if b(x) = a(x - s) then the result is s (cv::phaseCorrelate's
 * convention). `*response`: for DC_SUBPIXEL_UPSAMPLED the surface maximum over
 * the number of spectrum bins used (1 for an exact circular shift, near 0 for
 * unrelated images); for DC_SUBPIXEL_OPENCV_CENTROID cv::phaseCorrelate's value. */
int dc_phase_correlate(const dc_mat *a, const dc_mat *b, int window, int subpixel, double *dx,
                       double *dy, double *response, dc_error *err);

/* Sub-pixel translation between two 1-channel images of the same size by
 * OpenCV's ECC maximisation (cv::findTransformECC, MOTION_TRANSLATION,
 * Gaussian pre-filter of `gauss_size` (odd, 0 = none), at most `iterations`
 * steps or until the update is below `epsilon` px). Convention as
 * dc_phase_correlate: if b(x) = a(x - s), the result is s. `correlation` is
 * the enhanced correlation coefficient reached (1 = perfect). Fails with
 * DC_ERR_OPENCV when ECC does not converge. */
int dc_ecc_translation(const dc_mat *a, const dc_mat *b, int iterations, double epsilon, int gauss_size,
                       double *dx, double *dy, double *correlation, dc_error *err);

#ifdef __cplusplus
}
#endif

#endif
