/*
 * Camera and stereo calibration behind dualcam's OpenCV wall (calib3d):
 * calibrateCamera / stereoCalibrate with per-view errors and standard
 * deviations, stereoRectify, undistortPoints, solvePnP, and OpenCV image lists.
 * Same rules as dualcam_opencv.h. Pixel centres at integer coordinates.
 *
 * Matrices are row-major doubles: K is 3x3 (9), R 3x3 (9), P 3x4 (12).
 * Distortion is OpenCV's 5-coefficient Brown-Conrady (k1 k2 p1 p2 k3).
 */
#ifndef DUALCAM_OPENCV_CALIBRATE_H
#define DUALCAM_OPENCV_CALIBRATE_H

#include "dualcam_opencv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Corner observations of a planar target, view after view: view i has
 * point_counts[i] (>= 4) points; object_xyz holds 3 doubles per point (the
 * target's unit, e.g. mm; translations come out in that unit), image_xy 2 per
 * point for the first camera and image2_xy (NULL for one camera) for the
 * second, the same points in the same order. */
typedef struct dc_calib_views {
    int view_count;
    const int *point_counts;
    const double *object_xyz;
    const double *image_xy;
    const double *image2_xy;
} dc_calib_views;

/* Model options (bit flags) for dc_calibrate_camera and dc_stereo_calibrate:
 * DC_CALIB_ZERO_TANGENT: p1 = p2 = 0 (CALIB_ZERO_TANGENT_DIST);
 * DC_CALIB_FIX_K3: k3 kept at its given value (CALIB_FIX_K3). */
enum {
    DC_CALIB_ZERO_TANGENT = 1,
    DC_CALIB_FIX_K3 = 2,
};

/* cv::calibrateCamera (the Extended overload) for one camera with images of
 * width x height, with the DC_CALIB_* `model` flags. With use_guess, `camera_matrix` and `dist` are the starting
 * point (CALIB_USE_INTRINSIC_GUESS); otherwise they are outputs only.
 * Outputs: camera_matrix (9), dist (5), per view rvecs/tvecs (3 each, board to
 * camera), std_intrinsics (9: fx fy cx cy k1 k2 p1 p2 k3, OpenCV's standard
 * deviations), per_view_rms (view_count), rms (overall RMS, px). */
int dc_calibrate_camera(const dc_calib_views *views, int width, int height, int model, int use_guess,
                        double *camera_matrix, double *dist, double *rvecs, double *tvecs,
                        double *std_intrinsics, double *per_view_rms, double *rms, dc_error *err);

/* cv::stereoCalibrate (the Extended overload, per-view errors) on views with
 * image2_xy set. fix_intrinsic = 1: CALIB_FIX_INTRINSIC, only R and T are
 * estimated. fix_intrinsic = 0: a joint refinement of both cameras'
 * intrinsics and distortion and R, T, starting from the given values
 * (CALIB_USE_INTRINSIC_GUESS | CALIB_USE_EXTRINSIC_GUESS). k1, d1, k2, d2, r
 * (9), t (3) are in/out; X_2 = R X_1 + T. per_view_rms gets 2 per view
 * (camera 1, camera 2); rms the overall RMS. width x height is camera 1's
 * image size (OpenCV uses it only to initialise intrinsics). `model`: the
 * DC_CALIB_* flags, used by the joint refinement. */
int dc_stereo_calibrate(const dc_calib_views *views, int width, int height, int model, int fix_intrinsic,
                        double *k1, double *d1, double *k2, double *d2, double *r, double *t,
                        double *per_view_rms, double *rms, dc_error *err);

/* cv::stereoRectify (CALIB_ZERO_DISPARITY, alpha -1) for images of width x
 * height: rectifying rotations r1, r2 (9) and projections p1, p2 (12). */
int dc_stereo_rectify(const double *k1, const double *d1, const double *k2, const double *d2,
                      int width, int height, const double *r, const double *t,
                      double *r1, double *r2, double *p1, double *p2, dc_error *err);

/* cv::undistortPoints of `count` pixels xy (2 per point) with K and dist,
 * then rotation `r` (9, or NULL) and projection `p` (12, or NULL: normalised
 * coordinates). Writes 2 doubles per point to out. */
int dc_undistort_points(const double *k, const double *dist, const double *r, const double *p,
                        int count, const double *xy, double *out, dc_error *err);

/* cv::solvePnP (SOLVEPNP_ITERATIVE) of `count` (>= 4) object points (3 each)
 * seen at pixels xy (2 each) by a camera with K and dist: rvec, tvec (3 each,
 * object to camera). */
int dc_solve_pnp(int count, const double *object_xyz, const double *xy, const double *k,
                 const double *dist, double *rvec, double *tvec, dc_error *err);

/* Reads an OpenCV image list (FileStorage XML/YAML/JSON, like the stereo_calib
 * sample's stereo_calib.xml): the strings of the first top-level sequence
 * (usually `imagelist`), joined with '\n', through the two-call buffer
 * protocol of dualcam_opencv.h (NULL buffer: *length only). A missing file is
 * DC_ERR_NOT_FOUND; a file without a sequence of strings DC_ERR_ARGUMENT. */
int dc_read_image_list(const char *path, char *buffer, size_t capacity, size_t *length, dc_error *err);

#ifdef __cplusplus
}
#endif

#endif
