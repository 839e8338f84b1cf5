/*
 * Depth-edge handling for filtered disparity maps behind dualcam's OpenCV
 * wall. Same rules as dualcam_opencv.h: DC_OK or a DC_ERR_* code, no C++
 * exception crosses, every `dc_mat **out` receives a new matrix the caller
 * frees with dc_mat_free.
 */
#ifndef DUALCAM_OPENCV_STEREO_EDGES_H
#define DUALCAM_OPENCV_STEREO_EDGES_H

#include "dualcam_opencv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of dc_disparity_edge_snap. A jump between disparities a and b
 * is |a - b| > max(jump_pixels, jump_relative * min(a, b)). */
typedef struct dc_edge_snap_params {
    double jump_pixels;    /* absolute part of the jump threshold (pixels) */
    double jump_relative;  /* relative part of the jump threshold */
    int margin;            /* half-size of the square zone around jump pixels (pixels) */
    int radius;            /* half-size of the square window the surfaces are fitted in (pixels) */
    int occlusion_side;    /* +1: half-occlusions lie right of the nearer surface (the reference is the
                              right view of the rectified pair), -1: left of it */
    double disparity_scale; /* map pixels per disparity pixel along the rows (a half-occlusion is
                               jump x disparity_scale pixels wide) */
    double max_fit_rms;    /* a measurement is snapped only to a plane whose weighted RMS residual over
                              its support is at most this (pixels) */
} dc_edge_snap_params;

/* Snaps a dense (filtered) disparity map to the surfaces on either side of
 * the depth discontinuities of the measured map.
 *
 * `measured` float32 (NaN = no measurement), `filled` float32 dense, same
 * size, `covered` optional uint8 (0 = leave the pixel alone). Jump pixels are
 * horizontally or vertically adjacent measurements that jump, three measured
 * pixels in a row or column whose ends jump (a step smoothed into a ramp),
 * and the runs of holes (along a row or a column) whose two bounding
 * measurements jump.
 * The zone is every covered pixel within `margin` of a jump pixel.
 * Measurements outside the zone are reliable; within a window of `radius`
 * about the pixel (for a hole of a row run, about the point `margin` + 1
 * beyond the run's end on the side it takes) the 8-connected pieces of reliable pixels (the zone
 * separates the surfaces) each get a distance-weighted plane fit (weights
 * 1 / (1 + (r / 0.4 radius)^2); slopes ridge-regularised towards 0, so a
 * sliver of support extrapolates flat), refitted once with Cauchy weights of
 * the residuals (scale 0.15 px). The windows are centred on a 4-px grid (the
 * pixels of a cell share the fits, each evaluated at its own position).
 * Pieces whose fit leaves an RMS residual above the jump threshold are not
 * one surface and are skipped. A run of holes bounded by a jump on the
 * occlusion side of the nearer surface is split: the jump x disparity_scale
 * pixels next to the farther measurement are half-occluded and take the piece
 * nearest to that measurement (the plane evaluated at most `radius` from the
 * anchor), the rest (failed matches at the nearer surface's rim) the piece
 * nearest to the nearer measurement. A measured pixel takes the piece nearest
 * to its measurement when within twice the jump threshold and the piece's fit
 * RMS is at most `max_fit_rms` (otherwise it keeps `filled`), moving from
 * `filled` towards the plane by its `confidence` (optional float32 in [0, 1],
 * NULL = 1: a doubtful match may be of the wrong surface); another hole
 * the piece nearest to the mean measurement within 2 pixels (or to `filled`).
 * Outside the zone, `out` = `filled`. */
int dc_disparity_edge_snap(const dc_mat *measured, const dc_mat *confidence, const dc_mat *filled,
                           const dc_mat *covered, const dc_edge_snap_params *params, dc_mat **out, dc_error *err);

/* The zone of dc_disparity_edge_snap alone: uint8, 255 for every pixel within
 * `margin` of a jump pixel of `measured` (float32, NaN = no measurement), 0
 * elsewhere. Measurements in the zone come from windows that may straddle a
 * depth edge; only the jump and margin fields of `params` are used (all are
 * validated). */
int dc_disparity_edge_zone(const dc_mat *measured, const dc_edge_snap_params *params, dc_mat **out, dc_error *err);

/* The depth edges of `measured` found once for both uses: `zone` receives
 * dc_disparity_edge_zone's zone, `out` the edges (free with
 * dc_edge_zone_free) for dc_edge_zone_snap, which is dc_disparity_edge_snap
 * of the same measured map and parameters without finding the edges again. */
typedef struct dc_edge_zone dc_edge_zone;
int dc_edge_zone_find(const dc_mat *measured, const dc_edge_snap_params *params, dc_edge_zone **out, dc_mat **zone,
                      dc_error *err);
void dc_edge_zone_free(dc_edge_zone *edges);
int dc_edge_zone_snap(const dc_edge_zone *edges, const dc_mat *confidence, const dc_mat *filled, const dc_mat *covered,
                      dc_mat **out, dc_error *err);

#ifdef __cplusplus
}
#endif

#endif
