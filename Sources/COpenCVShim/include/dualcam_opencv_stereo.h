/*
 * Stereo behind dualcam's OpenCV wall: rectification maps, point undistortion,
 * semi-global matching with consistency checks and subpixel refinement (the
 * check and the refinement are CDualcamKernels'; the confidence-weighted fill
 * is dc_fgs_fill in dualcam_opencv_edge_aware.h). Same rules as
 * dualcam_opencv.h: DC_OK or a DC_ERR_* code, no C++ exception crosses, every
 * `dc_mat **out` receives a new matrix the caller frees with dc_mat_free.
 *
 * Disparity convention (rectified pair, same K, baseline along x): a point seen
 * at column x in the left image is at x - d in the right image (d >= 0 for
 * points in front). Disparity maps are float32 pixels, NaN where invalid.
 * Matrices with 3x3 parameters take them as 9 row-major doubles.
 */
#ifndef DUALCAM_OPENCV_STEREO_H
#define DUALCAM_OPENCV_STEREO_H

#include "dualcam_opencv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Undistort + rectify maps (cv::initUndistortRectifyMap): destination pixel
 * (u, v) of a `cols` x `rows` image samples the source sensor at
 * K distort(R^T P^-1 [u v 1]^T) (Brown-Conrady coefficients k1 k2 p1 p2 [k3 [k4 k5 k6]],
 * `dist_count` 0, 4, 5 or 8). Float32 1-channel maps. */
int dc_rectify_maps(const double *k, const double *dist, int dist_count, const double *r, const double *p,
                    int cols, int rows, dc_mat **map_x, dc_mat **map_y, dc_error *err);

/* The inverse direction for `count` sensor points (x, y interleaved in `points`):
 * out = P R undistort(K^-1 point) (cv::undistortPoints, iterative). */
int dc_undistort_rectify_points(const double *k, const double *dist, int dist_count, const double *r,
                                const double *p, int count, const double *points, double *out, dc_error *err);

/* Parameters of dc_stereo_match. */
typedef struct dc_stereo_params {
    int min_disparity;      /* smallest disparity searched (pixels) */
    int num_disparities;    /* positive multiple of 16 */
    int block_size;         /* SGBM block (odd, >= 1) */
    int uniqueness;         /* SGBM uniqueness ratio (percent) */
    int speckle_window;     /* largest speckle (pixels) removed, by SGBM and again after the checks; 0 = off */
    double speckle_range;   /* disparity step (pixels) that separates speckles */
    double lr_tolerance;    /* left-right consistency tolerance (pixels) */
    int refine;             /* 0: SGBM's own parabola fit; 1: symmetric ZNCC Lucas-Kanade refinement */
    int refine_radius;      /* refinement window radius (window is 2r+1 square) */
    double min_zncc;        /* refined matches below this ZNCC are invalid */
    double texture_sigma;   /* window gradient RMS (grey levels / px) where texture confidence reaches 0.63 */
    double occlusion_margin; /* regions (joined as speckle_range says) the other view cannot see are removed
                                (dck_remove_occluded_regions with this margin, px, after the speckle rule); 0 = off */
    double occlusion_share;  /* ... when at least this share (0-1] of a region's pixels is hidden */
} dc_stereo_params;

/* Matches a rectified 8-bit grey pair. Optional `left_valid`/`right_valid`
 * (uint8, 0 = no image data) mark where the rectified images have data.
 * `reference_right` selects whose disparity is returned: 0 the left view's
 * (x_right = x - d), 1 the right view's (x_left = x + d). The other view's
 * disparity is computed too and used for the left-right check. Optional
 * `refine_mask` (uint8, reference size) limits the subpixel refinement to its
 * non-zero pixels (others keep SGBM's value). Outputs (reference view):
 * `disparity` float32 (NaN invalid) and `confidence` float32 in [0, 1]
 * (0 where invalid); optional `disparity_sigma` (NULL: not computed) float32,
 * each refined pixel's predicted disparity standard deviation in pixels
 * (dck_refine_rows), NaN where the refinement did not run. */
int dc_stereo_match(const dc_mat *left, const dc_mat *right, const dc_mat *left_valid, const dc_mat *right_valid,
                    const dc_stereo_params *params, int reference_right, const dc_mat *refine_mask,
                    dc_mat **disparity, dc_mat **confidence, dc_mat **disparity_sigma, dc_error *err);

/* Settings of OpenCV's own matchers (dc_stereo_opencv), as their create() takes them. */
typedef struct dc_opencv_matcher {
    int algorithm;          /* 0: cv::StereoSGBM, 1: cv::StereoBM */
    int sgbm_mode;          /* cv::StereoSGBM::MODE_*: 0 SGBM, 1 HH, 2 SGBM_3WAY, 3 HH4 */
    int min_disparity;      /* smallest disparity searched (pixels) */
    int num_disparities;    /* positive multiple of 16 */
    int block_size;         /* odd; SGBM 1-11, BM 5-255 */
    int p1, p2;             /* SGBM smoothness penalties (0 < p1 < p2) */
    int disp12_max_diff;    /* built-in left-right check, pixels; < 0 off */
    int pre_filter_cap;     /* 1-63 */
    int uniqueness;         /* percent */
    int speckle_window;     /* largest speckle (pixels) removed; 0 = off */
    int speckle_range;      /* disparity step (pixels) that separates speckles */
    int texture_threshold;  /* BM only */
    int wls;                /* 1: ximgproc right matcher + DisparityWLSFilter */
    double wls_lambda, wls_sigma;
} dc_opencv_matcher;

/* Plain OpenCV on a rectified 8-bit pair (1 channel, or 3 for SGBM): the
 * matcher of `settings`, and with `wls` its right matcher
 * (ximgproc::createRightMatcher) and ximgproc's DisparityWLSFilter guided by
 * the reference image. Returns the reference view's disparity, float32
 * pixels, NaN below min_disparity (OpenCV's invalid marker): the left view's,
 * or with `reference_right` the right view's (both images mirrored and
 * swapped, so the right view is the matcher's base). Used as the reference
 * dualcam is compared with (tests, bench, `dualcam eval --baseline`). */
int dc_stereo_opencv(const dc_mat *left, const dc_mat *right, const dc_opencv_matcher *settings,
                     int reference_right, dc_mat **disparity, dc_error *err);

#ifdef __cplusplus
}
#endif

#endif
