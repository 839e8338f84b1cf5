/*
 * Edge-aware fill kernels: the weighting and normalisation of a
 * confidence-weighted fill out = F(w v) / F(w), the fast global smoother's
 * affinities, 1-D solves and the transposes between them (the shim's
 * dc_edge_solver runs them), and the depth-edge relabelling of
 * dc_relabel_depth_edges (the shim runs OpenCV's min/max filters in between).
 * Rules in dualcam_kernels.h.
 */
#ifndef DUALCAM_KERNELS_FILL_H
#define DUALCAM_KERNELS_FILL_H

#include "dualcam_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* num = w f and den = w where v and w are finite and w > 0, else 0, over n
 * elements, with w = min(weights, max_weight) (INFINITY: no cap) and f = v, or
 * f = logs (log v; then v must also be positive) when `logs` is not NULL. */
void dck_fill_weigh(const float *values, const float *logs, const float *weights, float max_weight, float *num,
                    float *den, int n);

/* num = num / den where den > floor (and > 0), NaN elsewhere, in place. */
void dck_fill_normalize(float *num, const float *den, float floor, int n);

/* num = NaN where den <= floor (or <= 0), unchanged elsewhere. */
void dck_fill_normalize_support(float *num, const float *den, float floor, int n);

/* The table of negative affinities -exp(-|g_p - g_q| / sigma) of 8-bit guide
 * colours for one sigma > 0, shared by every solver of that sigma (kept for
 * the process's lifetime for the first few sigmas). Release each acquired
 * handle once. */
typedef struct dck_affinity_table dck_affinity_table;
int dck_affinity_table_acquire(double sigma, dck_affinity_table **out, dck_error *err);
void dck_affinity_table_release(dck_affinity_table *table);

/* The affinities to the right (`right`, 0 in the last column) and below
 * (`below`, 0 in the last row) of the pixels of rows y0..<y1 of an 8-bit
 * guide with 1 or 3 interleaved channels (`guide_step` bytes per row);
 * `right` and `below` are cols x rows, continuous. */
int dck_affinity_rows(const dck_affinity_table *table, const uint8_t *guide, size_t guide_step, int cols, int rows,
                      int channels, float *right, float *below, int y0, int y1, dck_error *err);

/* out (cols x rows floats, continuous) = the distance of each pixel to the
 * nearest non-zero pixel of `mask` (8-bit, `mask_step` bytes per row),
 * exactly as OpenCV's distanceTransform with DIST_L2 and DIST_MASK_5 measures
 * it (the 5x5 chamfer; capped at 8192 where no pixel is non-zero). */
int dck_chamfer_distance(const uint8_t *mask, size_t mask_step, int cols, int rows, float *out, dck_error *err);

/* dst (cols x rows) = the transpose of src (rows x cols), both continuous
 * and not overlapping. */
void dck_transpose(const float *src, int rows, int cols, float *dst);

/* The 1-D solves of (I + lambda L) u = f down the columns x0..<x1 of a
 * rows x cols layout (continuous) for two right-hand sides `a` and `b` (in
 * place) sharing the coefficients `c` (affinity to the next row); `scratch`
 * is rows x cols. Column ranges are independent. */
void dck_solve_columns(const float *c, int rows, int cols, float lambda, float *a, float *b, float *scratch, int x0,
                       int x1);

/* Depth-edge relabelling state for one guide (see dc_relabel_depth_edges):
 * the guide's colour features, the vote's weight table and per-pass buffers.
 * All images are cols x rows, continuous; the guide is 8-bit RGB. */
typedef struct dck_relabel dck_relabel;
int dck_relabel_create(const uint8_t *rgb, size_t rgb_step, int cols, int rows, int vote_radius, double sigma,
                       double luma_weight, double min_ratio, double margin, dck_relabel **out, dck_error *err);
void dck_relabel_free(dck_relabel *state);

/* A pass, step 0: the inputs of the window extremes (min and max filters)
 * of `depth`'s n values: `for_min` = the value where valid (positive, not
 * NaN), else FLT_MAX; `for_max` = the value where valid, else 0. */
void dck_relabel_extremes_input(const float *depth, int n, float *for_min, float *for_max);

/* A pass, step 1: the edge-region pixels of `depth` (valid pixels whose
 * window extremes `zmin`, `zmax` span max/min >= min_ratio): `region` = 255
 * there, else 0. Returns the number of region pixels. */
int dck_relabel_regions(dck_relabel *state, const float *depth, const float *zmin, const float *zmax,
                        uint8_t *region);

/* Step 2: log depth and voter flags where `needed` (the region dilated by
 * vote_radius) is non-zero, and each region pixel's log-range midpoint. */
void dck_relabel_prepare(dck_relabel *state, const float *depth, const float *zmin, const float *zmax,
                         const uint8_t *needed);

/* Step 3: the votes of region pixels k0..<k1 (in the order step 1 found
 * them), written into `next` (a copy of the pass's depth). Returns how many
 * changed. Disjoint ranges may run concurrently. */
int dck_relabel_vote(const dck_relabel *state, float *next, int k0, int k1);

#ifdef __cplusplus
}
#endif

#endif
