/*
 * Edge-aware filtering and sparse-to-dense helpers behind dualcam's OpenCV
 * wall (ximgproc's fast global smoother and guided filter, distance
 * transform, morphology) and the fills built on dualcam's own kernels
 * (CDualcamKernels: the shared-guide solver, the depth-edge relabelling).
 * Same rules as dualcam_opencv.h: DC_OK or a DC_ERR_* code, no C++
 * exception crosses, every `dc_mat **out` receives a new matrix the caller
 * frees with dc_mat_free.
 *
 * Guides are 8-bit with 1 or 3 channels (any channel order: channels are
 * compared alike). Values and weights are float32 with 1 channel and the
 * guide's size.
 */
#ifndef DUALCAM_OPENCV_EDGE_AWARE_H
#define DUALCAM_OPENCV_EDGE_AWARE_H

#include "dualcam_opencv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Confidence-weighted edge-aware fill with the fast global smoother
 * (cv::ximgproc::FastGlobalSmootherFilter, Min et al. 2014), normalized as
 * in the WLS disparity filter:
 *   out = FGS(w * v) / FGS(w),  weight_out = FGS(w),
 * where FGS minimises sum_p (u_p - f_p)^2 + lambda sum_{p~q} a_pq (u_p - u_q)^2
 * with affinities a_pq = exp(-|g_p - g_q| / sigma_color) from the guide.
 * w = min(weights, max_weight) (INFINITY: weights as given; 1 for
 * confidences), or 1 where `weights` is NULL. Pixels with w <= 0 (or
 * non-finite v or w) contribute nothing; where FGS(w) is at most
 * `min_weight` (or not positive) the output is NaN. `weight_out` may be NULL.
 * This is the one fill on ximgproc itself: stereo fills disparities with it,
 * and the tests hold dc_edge_solver_fill against it. */
int dc_fgs_fill(const dc_mat *guide, const dc_mat *values, const dc_mat *weights, double max_weight, double lambda,
                double sigma_color, double lambda_attenuation, int iterations, double min_weight,
                dc_mat **out, dc_mat **weight_out, dc_error *err);

/* The same fill with the guide's affinities computed once and shared:
 * dc_edge_solver_create prepares a guide for `sigma_color` (free with
 * dc_edge_solver_free); dc_edge_solver_fill then runs dc_fgs_fill's solve
 * with any lambda, attenuation and iteration count (values and weights of the
 * guide's size), solving FGS(w v) and FGS(w) in one elimination. Results
 * match dc_fgs_fill to float rounding. A solver may fill concurrently.
 * With `log_domain` non-zero the fill runs on log v (only v > 0 counts) and
 * returns exp of the result: a weighted geometric mean. */
typedef struct dc_edge_solver dc_edge_solver;
int dc_edge_solver_create(const dc_mat *guide, double sigma_color, dc_edge_solver **out, dc_error *err);
void dc_edge_solver_free(dc_edge_solver *solver);
int dc_edge_solver_fill(const dc_edge_solver *solver, const dc_mat *values, const dc_mat *weights, double lambda,
                        double lambda_attenuation, int iterations, double min_weight, int log_domain,
                        dc_mat **out, dc_mat **weight_out, dc_error *err);

/* Guided filter (cv::ximgproc::guidedFilter, He et al.) of `values` with
 * `guide`, window radius `radius` px and regularization `eps` (in squared
 * guide units, 8-bit guide: 0..255^2). */
int dc_guided_filter(const dc_mat *guide, const dc_mat *values, int radius, double eps, dc_mat **out,
                     dc_error *err);

/* Euclidean distance (float32, pixels, cv::distanceTransform with a 5x5
 * mask) from each pixel to the nearest non-zero pixel of the 8-bit `mask`;
 * with no non-zero pixel every distance is very large (> 1e6). */
int dc_distance_to_nonzero(const dc_mat *mask, dc_mat **out, dc_error *err);

/* IP-Basic-style morphological completion of a sparse float32 depth map
 * (metres; 0, NaN or negative = missing), after Ku et al. 2018: invert
 * (max_depth - z), dilate with a 5x5 diamond, close 5x5, fill remaining
 * holes with a 7x7 dilation and then a 31x31 one, 5x5 median, 5x5 Gaussian
 * (only on filled values), invert back. Pixels still empty are NaN. */
int dc_morphological_fill(const dc_mat *sparse_depth, double max_depth, dc_mat **out, dc_error *err);

/* Put every pixel of a depth-edge region onto one of the two surfaces that
 * meet there. A pixel of the float32 `depth` (metres; 0/NaN = missing, left
 * as is) is in an edge region when the (2 radius + 1)^2 window around it
 * spans max/min >= `min_ratio`; the window's extremes split it in log depth
 * at their midpoint into a near and a far side. Voters are the valid pixels
 * not "flying" (a pixel of an edge region lying more than `margin` of the
 * log range from both extremes of its own window is flying). The pixel takes
 * the side with the larger total colour weight over the voters q != p of the
 * (2 vote_radius + 1)^2 window, w = exp(-d^2 / (2 sigma^2)) with
 * d^2 = luma_weight dY^2 + dCb^2 + dCr^2 (BT.601 YCbCr of the 8-bit RGB
 * `guide`, 8-bit units); a voter already on that side keeps its depth, any
 * other pixel takes the side's weighted geometric mean depth.
 * Repeated up to `iterations` times (each pass on the previous result, stops
 * early when nothing changes). Elsewhere the depth is unchanged. */
int dc_relabel_depth_edges(const dc_mat *guide, const dc_mat *depth, int radius, int vote_radius, double sigma,
                           double luma_weight, double min_ratio, double margin, int iterations, dc_mat **out,
                           dc_error *err);

#ifdef __cplusplus
}
#endif

#endif
