// Chessboard inner-corner detection with sub-pixel refinement (calib3d).
#include "dualcam_opencv_patterns.h"
#include "shim_handles.hpp"
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

using namespace dualcam_shim;

extern "C" int dc_find_chessboard_corners(const dc_mat *image, int cols, int rows, int half_window,
                                          int capacity, double *xy, int *found, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!image || !xy || !found) return fail(err, DC_ERR_ARGUMENT, "dc_find_chessboard_corners: NULL argument");
        *found = 0;
        if (cols < 2 || rows < 2)
            return fail(err, DC_ERR_ARGUMENT,
                        "a chessboard needs at least 2x2 inner corners, got " + std::to_string(cols) + "x" +
                            std::to_string(rows));
        if (long(capacity) < long(cols) * rows)
            return fail(err, DC_ERR_ARGUMENT, "room for " + std::to_string(capacity) + " corners, the board has " +
                                                  std::to_string(long(cols) * rows));
        if (half_window < 1) return fail(err, DC_ERR_ARGUMENT, "the refinement half-window must be at least 1");
        const cv::Mat &input = image->mat;
        if (input.empty() || input.depth() != CV_8U || (input.channels() != 1 && input.channels() != 3))
            return fail(err, DC_ERR_ARGUMENT, "chessboard detection needs a uint8 image with 1 or 3 channels");
        cv::Mat gray;
        if (input.channels() == 3) cv::cvtColor(input, gray, cv::COLOR_BGR2GRAY);
        else gray = input;
        std::vector<cv::Point2f> corners;
        const cv::Size pattern(cols, rows);
        if (!cv::findChessboardCorners(gray, pattern, corners,
                                       cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE))
            return DC_OK;
        if (long(corners.size()) != long(cols) * rows)
            return fail(err, DC_ERR_OPENCV, "findChessboardCorners returned a wrong number of corners");
        cv::cornerSubPix(gray, corners, cv::Size(half_window, half_window), cv::Size(-1, -1),
                         cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 30, 0.001));
        for (size_t i = 0; i < corners.size(); ++i) {
            xy[2 * i] = corners[i].x;
            xy[2 * i + 1] = corners[i].y;
        }
        *found = 1;
        return DC_OK;
    });
}
