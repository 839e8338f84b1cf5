/*
 * Stereo kernels: the left-right consistency check of two disparity maps
 * and the symmetric ZNCC Lucas-Kanade subpixel refinement. Rules in
 * dualcam_kernels.h. Disparity convention: a pixel at column x of the
 * reference view is at x - sign * d in the other view; NaN = no disparity.
 */
#ifndef DUALCAM_KERNELS_STEREO_H
#define DUALCAM_KERNELS_STEREO_H

#include "dualcam_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Keeps a disparity `ref` (float32, cols x rows, `stride` elements per row)
 * only where the other view's disparity at x - sign * d (rounded) exists and
 * differs by at most `tolerance` px, and where the optional validity masks
 * (uint8, 0 = no image data, `mask_stride` bytes per row; NULL = all valid)
 * are non-zero at both ends; other pixels become NaN. `conf` (float32,
 * `stride`) receives 1 - 0.5 (|difference| / tolerance)^2 where kept and is
 * left as is elsewhere. */
int dck_left_right_check(float *ref, const float *other, float *conf, size_t stride, int cols, int rows,
                         const uint8_t *ref_valid, const uint8_t *other_valid, size_t mask_stride, float sign,
                         double tolerance, dck_error *err);

/* Removes the islands of `disparity` (float32, cols x rows, `stride`
 * elements per row; NaN = no value): regions of 4-connected values whose
 * neighbours differ by at most `max_diff` px that have at most `max_size`
 * pixels become NaN, their `conf` (same layout) 0. The rule of SGBM's speckle
 * filter, for a float map. */
int dck_remove_islands(float *disparity, float *conf, size_t stride, int cols, int rows, int max_size,
                       double max_diff, dck_error *err);

/* Removes the regions of `disparity` (as dck_remove_islands: 4-connected,
 * neighbours within `max_diff` px) that the other view cannot see: at least
 * `share` of a region's pixels are hidden there behind a nearer measurement
 * of the same row. A pixel x with disparity d lands at x - sign d in the
 * other view (sign 1: the reference is the left view). Each row of the other
 * view is drawn as a depth buffer from the measurements (a measurement
 * covers the span to the previous measurement's landing point at the smaller
 * of their disparities: unmeasured gaps count as covered); a pixel is hidden
 * when every cell within `margin` px of its landing point holds a disparity
 * at least `margin` above its own. Removed pixels become NaN, their `conf` 0. */
int dck_remove_occluded_regions(float *disparity, float *conf, size_t stride, int cols, int rows, float sign,
                                double max_diff, double margin, double share, dck_error *err);

/* The first of dck_remove_occluded_regions' two steps, by rows so that a
 * caller can run it on several threads: marks in rows y0..<y1 of `occluded`
 * (uint8, cols x rows, row-major) the pixels the other view cannot see (1;
 * 0 elsewhere). */
int dck_mark_occluded_rows(const float *disparity, size_t stride, int cols, int rows, float sign, double margin,
                           uint8_t *occluded, int y0, int y1, dck_error *err);

/* The second step: removes the regions of `disparity` (as
 * dck_remove_islands) at least `share` of whose pixels `flags` (uint8, cols x
 * rows, row-major) marks; removed pixels become NaN, their `conf` 0. */
int dck_remove_flagged_regions(float *disparity, float *conf, size_t stride, int cols, int rows, double max_diff,
                               const uint8_t *flags, double share, dck_error *err);

/* SGBM's speckle filter (cv::filterSpeckles on a 16-bit map) by runs:
 * regions of 4-connected values other than `new_value` whose neighbours
 * differ by at most `max_diff` that have at most `max_size` pixels take
 * `new_value`. `disparity` is cols x rows with `stride` elements per row. */
int dck_filter_speckles_s16(int16_t *disparity, size_t stride, int cols, int rows, int16_t new_value, int max_size,
                            int max_diff, dck_error *err);

/* One refinement: the smoothed reference (`base`) and other (`match`) grey
 * images as float32 and their x gradients, the reference's disparity before
 * refinement (read only), and the disparity and confidence it refines in
 * place. All float buffers are cols x rows with `stride` elements per row;
 * `mask` (same stride, uint8) limits it to its non-zero pixels (NULL: every
 * pixel). */
typedef struct dck_refine_job {
    const float *base, *match, *base_dx, *match_dx, *disparity;
    float *ref, *conf;
    const uint8_t *mask;
    size_t stride;
    int cols, rows;
    float sign;           /* x_match = x_base - sign * d */
    int radius;           /* window radius, 1 to 10 */
    double texture_sigma; /* window gradient RMS (grey levels / px) where the texture term reaches 0.63 */
    double min_zncc;      /* refined matches below this ZNCC are invalid (in [-1, 1)) */
    float *sigma;         /* optional (NULL: none), same layout: each refined pixel's predicted disparity
                           * standard deviation (px), left as is elsewhere; see dck_refine_rows */
} dck_refine_job;

/* Refines every finite disparity of rows y0..<y1 (0 <= y0 <= y1 <= rows): a
 * pixel whose fit fails or whose ZNCC is below `min_zncc` becomes NaN with
 * confidence 0; otherwise its confidence is multiplied by the ZNCC term
 * clamp((zncc - min_zncc) / (1 - min_zncc)) and the texture term
 * 1 - exp(-gradient energy / texture_sigma^2). With `sigma`, a refined pixel
 * also gets the Gauss-Newton prediction of its disparity's standard deviation
 * sqrt(2 (1 - zncc) (sum w^2 / sum w) / sum(w j^2)): the normalised residual's
 * weighted mean square 2 (1 - zncc) as the noise variance of one window pixel,
 * over the curvature sum(w j^2), times sum w^2 / sum w for weights that are
 * not inverse variances (pixels taken as independent: neighbours correlated
 * by the images' smoothing make it an underestimate by a constant factor,
 * which callers calibrate). Row ranges are independent:
 * callers may run disjoint ranges concurrently. */
int dck_refine_rows(const dck_refine_job *job, int y0, int y1, dck_error *err);

#ifdef __cplusplus
}
#endif

#endif
