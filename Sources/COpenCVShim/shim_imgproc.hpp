// Helpers shared by the image-operation translation units: argument checks,
// DC_INTER_* / DC_BORDER_* decoding and handing a result matrix to the caller.
#pragma once
#include "dualcam_opencv_imgproc.h"
#include "shim_handles.hpp"
#include <opencv2/imgproc.hpp>
#include <cmath>
#include <string>

static_assert(DC_INTER_NEAREST == cv::INTER_NEAREST && DC_INTER_LINEAR == cv::INTER_LINEAR &&
                  DC_INTER_CUBIC == cv::INTER_CUBIC && DC_INTER_AREA == cv::INTER_AREA &&
                  DC_INTER_LANCZOS4 == cv::INTER_LANCZOS4,
              "DC_INTER_* must equal OpenCV's InterpolationFlags");

namespace dualcam_shim {

/// Fails unless `mat` is a non-NULL, non-empty matrix; `what` names it.
inline int check_input(const dc_mat *mat, const char *what, dc_error *err) {
    if (!mat) return fail(err, DC_ERR_ARGUMENT, std::string(what) + " is NULL");
    if (mat->mat.empty()) return fail(err, DC_ERR_ARGUMENT, std::string(what) + " is empty");
    return DC_OK;
}

/// Fails unless the requested output size is at least 1x1.
/// Validates a remap's pair of maps: two float32 1-channel matrices of one size.
inline int check_maps(const dc_mat *map_x, const dc_mat *map_y, dc_error *err) {
    if (int status = check_input(map_x, "x map", err)) return status;
    if (int status = check_input(map_y, "y map", err)) return status;
    if (map_x->mat.type() != CV_32FC1 || map_y->mat.type() != CV_32FC1)
        return fail(err, DC_ERR_ARGUMENT, "the maps must be float32 with 1 channel");
    if (map_x->mat.size() != map_y->mat.size())
        return fail(err, DC_ERR_ARGUMENT,
                    "the x map is " + std::to_string(map_x->mat.cols) + "x" + std::to_string(map_x->mat.rows) +
                        " but the y map is " + std::to_string(map_y->mat.cols) + "x" + std::to_string(map_y->mat.rows));
    return DC_OK;
}

inline int check_size(int cols, int rows, dc_error *err) {
    if (cols < 1 || rows < 1)
        return fail(err, DC_ERR_ARGUMENT,
                    "output size " + std::to_string(cols) + "x" + std::to_string(rows) +
                        " must be at least 1x1");
    return DC_OK;
}

/// Checks a DC_INTER_* code; INTER_AREA only where `allow_area`.
inline int check_interpolation(int code, bool allow_area, dc_error *err) {
    if (code < DC_INTER_NEAREST || code > DC_INTER_LANCZOS4)
        return fail(err, DC_ERR_ARGUMENT, "unknown interpolation code " + std::to_string(code));
    if (code == DC_INTER_AREA && !allow_area)
        return fail(err, DC_ERR_ARGUMENT,
                    "area interpolation is only available for resizing (use nearest, linear, cubic or lanczos4)");
    return DC_OK;
}

/// Decodes a DC_BORDER_* code and value for matrices of `depth`.
inline int border_mode(int code, double value, int depth, int &mode, cv::Scalar &scalar, dc_error *err) {
    switch (code) {
    case DC_BORDER_CONSTANT:
        if (!std::isfinite(value) && depth != CV_32F && depth != CV_64F && depth != CV_16F)
            return fail(err, DC_ERR_ARGUMENT, "a non-finite border value needs a float image");
        mode = cv::BORDER_CONSTANT;
        scalar = cv::Scalar::all(value);
        return DC_OK;
    case DC_BORDER_REPLICATE:
        mode = cv::BORDER_REPLICATE;
        scalar = cv::Scalar();
        return DC_OK;
    default:
        return fail(err, DC_ERR_ARGUMENT, "unknown border code " + std::to_string(code));
    }
}

/// Hands `result` to the caller as a new dc_mat.
inline int emit(cv::Mat &&result, dc_mat **out, dc_error *err) {
    if (result.empty()) return fail(err, DC_ERR_OPENCV, "OpenCV returned an empty matrix");
    *out = new dc_mat{std::move(result)};
    return DC_OK;
}

}  // namespace dualcam_shim
