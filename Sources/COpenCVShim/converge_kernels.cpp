// Convergence kernels on the caller's buffers. OpenCV does the work
// (cvtColor, resize, remap, copyTo); what is ours is only wrapping the
// caller's memory in cv::Mat headers, so that a 1920x1440 frame is not
// copied into OpenCV and back for every level or view (a copy costs as much
// as the remap itself at that size).
#include "dualcam_opencv_converge.h"
#include "shim_imgproc.hpp"
#include "shim_remap_table.hpp"
#include <string>

using namespace dualcam_shim;

extern "C" int dc_grey_level(const void *data, int rows, int cols, int channels, int depth, size_t step, int roi_x,
                             int roi_y, int roi_cols, int roi_rows, int out_cols, int out_rows, dc_mat **out,
                             dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_grey_level: out is NULL");
        *out = nullptr;
        if (!data || rows < 1 || cols < 1) return fail(err, DC_ERR_ARGUMENT, "grey level: no image");
        if (channels != 1 && channels != 3 && channels != 4)
            return fail(err, DC_ERR_ARGUMENT, "grey level: expected 1, 3 or 4 channels, got " + std::to_string(channels));
        if (depth != DC_DEPTH_U8 && depth != DC_DEPTH_U16 && depth != DC_DEPTH_F32)
            return fail(err, DC_ERR_ARGUMENT, "grey level: expected uint8, uint16 or float32 pixels");
        if (roi_x < 0 || roi_y < 0 || roi_cols < 1 || roi_rows < 1 || roi_x + roi_cols > cols || roi_y + roi_rows > rows)
            return fail(err, DC_ERR_ARGUMENT, "grey level: region outside the image");
        if (int status = check_size(out_cols, out_rows, err)) return status;
        const cv::Mat image(rows, cols, CV_MAKETYPE(depth, channels), const_cast<void *>(data), step);
        const cv::Mat region = image(cv::Rect(roi_x, roi_y, roi_cols, roi_rows));
        cv::Mat grey;
        if (channels == 1) {
            region.convertTo(grey, CV_32F);
        } else if (depth == DC_DEPTH_U8) {
            cv::Mat grey8;
            cv::cvtColor(region, grey8, channels == 3 ? cv::COLOR_RGB2GRAY : cv::COLOR_RGBA2GRAY);
            grey8.convertTo(grey, CV_32F);
        } else {
            cv::Mat wide;
            region.convertTo(wide, CV_32F);
            cv::cvtColor(wide, grey, channels == 3 ? cv::COLOR_RGB2GRAY : cv::COLOR_RGBA2GRAY);
        }
        if (out_cols == roi_cols && out_rows == roi_rows) return emit(std::move(grey), out, err);
        cv::Mat result;
        cv::resize(grey, result, cv::Size(out_cols, out_rows), 0, 0, cv::INTER_AREA);
        return emit(std::move(result), out, err);
    });
}

extern "C" int dc_remap_split(const dc_remap_table *moving_table, const void *moving, int m_rows, int m_cols,
                              size_t m_step, const dc_remap_table *fixed_table, const void *fixed, int f_rows,
                              int f_cols, size_t f_step, const uint8_t *valid, size_t valid_step, int rows, int cols,
                              int moving_left, int seam_start, int seam_end, const uint8_t *seam_rgb, void *out,
                              size_t out_step, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!moving_table || !moving || !fixed || !out || !seam_rgb)
            return fail(err, DC_ERR_ARGUMENT, "split view: a table or buffer is NULL");
        if (rows < 1 || cols < 2 || m_rows < 1 || m_cols < 1 || f_rows < 1 || f_cols < 1)
            return fail(err, DC_ERR_ARGUMENT, "split view: empty image");
        if (moving_table->xy.rows != rows || moving_table->xy.cols != cols ||
            (fixed_table && (fixed_table->xy.rows != rows || fixed_table->xy.cols != cols)))
            return fail(err, DC_ERR_ARGUMENT, "split view: the tables are not the canvas size");
        if (!fixed_table && (f_rows != rows || f_cols != cols))
            return fail(err, DC_ERR_ARGUMENT, "split view: the fixed image is not the canvas size");
        const cv::Mat movingImage(m_rows, m_cols, CV_8UC3, const_cast<void *>(moving), m_step);
        const cv::Mat fixedImage(f_rows, f_cols, CV_8UC3, const_cast<void *>(fixed), f_step);
        cv::Mat view(rows, cols, CV_8UC3, out, out_step);
        const int half = cols / 2;
        const cv::Rect left(0, 0, half, rows), right(half, 0, cols - half, rows);
        const cv::Rect movingHalf = moving_left ? left : right, fixedHalf = moving_left ? right : left;

        // The fixed image on a part of the canvas, written into `dst` (in
        // place when `dst` already has the part's size and type).
        auto putFixed = [&](const cv::Rect &part, cv::Mat &dst) {
            if (fixed_table) {
                cv::remap(fixedImage, dst, fixed_table->xy(part), fixed_table->a(part), cv::INTER_LINEAR,
                          cv::BORDER_CONSTANT, cv::Scalar());
            } else {
                fixedImage(part).copyTo(dst);
            }
        };
        cv::Mat movingOut = view(movingHalf);
        cv::remap(movingImage, movingOut, moving_table->xy(movingHalf), moving_table->a(movingHalf), cv::INTER_LINEAR,
                  cv::BORDER_CONSTANT, cv::Scalar());
        if (valid) {
            const cv::Mat validMask(rows, cols, CV_8UC1, const_cast<uint8_t *>(valid), valid_step);
            const cv::Mat missing = validMask(movingHalf) == 0;
            if (cv::countNonZero(missing) > 0) {
                cv::Mat fill;
                putFixed(movingHalf, fill);
                fill.copyTo(movingOut, missing);
            }
        }
        cv::Mat fixedOut = view(fixedHalf);
        putFixed(fixedHalf, fixedOut);
        const int s0 = std::max(0, seam_start), s1 = std::min(cols, seam_end);
        if (s1 > s0) view(cv::Rect(s0, 0, s1 - s0, rows)).setTo(cv::Scalar(seam_rgb[0], seam_rgb[1], seam_rgb[2]));
        return DC_OK;
    });
}
