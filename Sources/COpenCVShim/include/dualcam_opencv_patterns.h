/*
 * Calibration patterns behind dualcam's OpenCV wall: ChArUco boards
 * (opencv_contrib aruco, OpenCV 4.6 API) and chessboards (calib3d). Same rules
 * as dualcam_opencv.h. Image coordinates have pixel centres at integers.
 */
#ifndef DUALCAM_OPENCV_PATTERNS_H
#define DUALCAM_OPENCV_PATTERNS_H

#include "dualcam_opencv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A ChArUco board: `squares_x` x `squares_y` chessboard squares (each >= 2),
 * the top-left one black, with markers of `dictionary` (ids 0, 1, ... row by
 * row) in the white squares. Only the ratio marker_length / square_length
 * (in (0, 1)) matters for images. `dictionary` is an OpenCV name:
 * DICT_4X4_50, _100, _250, _1000, the same for 5X5, 6X6 and 7X7, or
 * DICT_ARUCO_ORIGINAL; other names are DC_ERR_ARGUMENT with a message listing
 * them, as is a dictionary with fewer markers than the board needs.
 * ChArUco corner id i is the inner corner at column i % (squares_x - 1) and
 * row i / (squares_x - 1), counted from the top-left inner corner. */
typedef struct dc_charuco_board {
    const char *dictionary;
    int squares_x;
    int squares_y;
    double square_length;
    double marker_length;
} dc_charuco_board;

/* Renders the board as a `width` x `height` uint8 1-channel image (0 black,
 * 255 white) with no margin: the size must have the board's aspect ratio
 * (height within 1 pixel of width * squares_y / squares_x), so the board spans
 * the whole image. `border_bits` (>= 1) is the markers' black border width in
 * marker cells. */
int dc_charuco_render(const dc_charuco_board *board, int width, int height, int border_bits,
                      dc_mat **out, dc_error *err);

/* Detects the board's markers in `image` (uint8, 1 or 3 channels BGR) with
 * cv::aruco::detectMarkers and interpolates the ChArUco corners from them
 * (cv::aruco::interpolateCornersCharuco), then refines each corner with
 * cv::cornerSubPix to 0.001 px (OpenCV 4.6 alone stops at 0.1 px). Writes up to
 * `capacity` corners: ids into `ids`, positions as x, y pairs into `xy`
 * (2 * capacity doubles), and their number into `*count` (0 when nothing is
 * found). `capacity` must be at least (squares_x - 1) * (squares_y - 1). */
int dc_charuco_detect(const dc_mat *image, const dc_charuco_board *board, int capacity, int *ids,
                      double *xy, int *count, dc_error *err);

/* Finds the `cols` x `rows` inner corners of a chessboard (cols, rows >= 2)
 * in `image` (uint8, 1 or 3 channels BGR) with cv::findChessboardCorners
 * (CALIB_CB_ADAPTIVE_THRESH | CALIB_CB_NORMALIZE_IMAGE), then refines them
 * with cv::cornerSubPix over a (2 * half_window + 1)^2 window (half_window
 * >= 1; 30 iterations or 0.001 px). On success `*found` is 1 and `xy` holds
 * cols * rows x, y pairs in OpenCV's corner order (row by row, `cols` corners
 * per row); `capacity` (in corners) must be >= cols * rows. When the board is
 * not found, `*found` is 0 and DC_OK is returned. */
int dc_find_chessboard_corners(const dc_mat *image, int cols, int rows, int half_window,
                               int capacity, double *xy, int *found, dc_error *err);

#ifdef __cplusplus
}
#endif

#endif
