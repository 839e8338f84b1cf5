/*
 * Depth-edge snapping of a filtered disparity map, in steps (the shim's
 * dc_disparity_edge_snap runs them with OpenCV's morphology and connected
 * components in between; dualcam_opencv_stereo_edges.h describes the whole):
 *   1. dck_edge_jumps: jump pixels and the anchors of half-occlusion holes;
 *   2. (connected components of the jump pixels) dck_edge_drop_small;
 *   3. (dilation of the jump pixels by `margin`: the zone) dck_edge_reliable;
 *   4. (8-connected pieces of the reliable pixels) dck_edge_snap_rows.
 * Rules in dualcam_kernels.h. All buffers of one call are cols x rows with
 * `stride` elements per row; disparities are float32, NaN = no measurement.
 */
#ifndef DUALCAM_KERNELS_EDGES_H
#define DUALCAM_KERNELS_EDGES_H

#include "dualcam_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest zone margin and fit radius (px): the snap's windows and zone are
 * local; beyond this a caller has mixed up units. */
#define DCK_MAX_EDGE_REACH 32

/* The fields of the shim's dc_edge_snap_params (same meaning). A jump between
 * disparities a and b is |a - b| > max(jump_pixels, jump_relative * min(a, b)). */
typedef struct dck_edge_params {
    double jump_pixels, jump_relative;
    int margin, radius, occlusion_side;
    double disparity_scale, max_fit_rms;
} dck_edge_params;

/* Step 1: `edge` (uint8) = 1 at jump pixels (adjacent measurements that jump,
 * three in a row or column whose ends jump, and the runs of holes along a row
 * or column whose bounding measurements jump), else 0; for each hole of a
 * half-occlusion run along a row, `anchor` (int32) the column of its window
 * centre and `side_value` (float32) the bounding measurement of the surface it
 * takes; -1 and NaN elsewhere. */
int dck_edge_jumps(const float *measured, size_t stride, int cols, int rows, const dck_edge_params *params,
                   uint8_t *edge, int32_t *anchor, float *side_value, dck_error *err);

/* Step 2: clears the jump pixels of components (labels 1..<count, `labels`
 * int32, 0 = background) whose area (`areas[label]`) is too small to be a
 * depth edge: isolated outliers. */
void dck_edge_drop_small(uint8_t *edge, const int32_t *labels, const int32_t *areas, int count, size_t stride,
                         int cols, int rows);

/* Step 3: `reliable` (uint8) = 255 where there is a measurement outside the
 * zone (`zone` non-zero), else 0. */
void dck_edge_reliable(const float *measured, const uint8_t *zone, uint8_t *reliable, size_t stride, int cols,
                       int rows);

/* Step 4: the snap of the zone's pixels. `out` holds the filled disparity
 * and is changed in place; `confidence` (NULL = 1) and `covered` (NULL = all)
 * are optional; `labels` the 8-connected pieces of the reliable pixels. */
typedef struct dck_edge_snap_job {
    const float *measured, *confidence, *side_value;
    float *out;
    const uint8_t *covered, *zone;
    const int32_t *anchor, *labels;
    size_t stride;
    int cols, rows;
    dck_edge_params params;
} dck_edge_snap_job;

/* Snaps rows y0..<y1 (0 <= y0 <= y1 <= rows). Row ranges are independent:
 * callers may run disjoint ranges concurrently. */
int dck_edge_snap_rows(const dck_edge_snap_job *job, int y0, int y1, dck_error *err);

#ifdef __cplusplus
}
#endif

#endif
