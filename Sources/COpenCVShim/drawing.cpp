// Drawing for previews: colour maps and text.
#include "dualcam_opencv_drawing.h"
#include "shim_imgproc.hpp"

#include <opencv2/imgproc.hpp>

static_assert(DC_COLORMAP_JET == cv::COLORMAP_JET && DC_COLORMAP_TURBO == cv::COLORMAP_TURBO,
              "DC_COLORMAP_* must equal OpenCV's ColormapTypes");

using namespace dualcam_shim;

namespace {
int check_text(const char *text, double scale, int thickness, dc_error *err) {
    if (!text) return fail(err, DC_ERR_ARGUMENT, "the text is NULL");
    if (!(scale > 0) || !std::isfinite(scale))
        return fail(err, DC_ERR_ARGUMENT, "the text scale must be a positive number");
    if (thickness < 1 || thickness > 100)
        return fail(err, DC_ERR_ARGUMENT, "the text thickness must be 1...100 px, got " + std::to_string(thickness));
    return DC_OK;
}
}  // namespace

extern "C" int dc_apply_color_map(const dc_mat *src, int colormap, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_apply_color_map: out is NULL");
        *out = nullptr;
        if (int status = check_input(src, "source image", err)) return status;
        if (src->mat.type() != CV_8UC1)
            return fail(err, DC_ERR_ARGUMENT, "the colour map input must be uint8 with 1 channel");
        if (colormap != DC_COLORMAP_JET && colormap != DC_COLORMAP_TURBO)
            return fail(err, DC_ERR_ARGUMENT, "unknown colour map code " + std::to_string(colormap));
        cv::Mat result;
        cv::applyColorMap(src->mat, result, colormap);
        return emit(std::move(result), out, err);
    });
}

extern "C" int dc_put_text(const dc_mat *src, const char *text, int x, int y, double scale, int thickness,
                           const double *color, int color_count, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_put_text: out is NULL");
        *out = nullptr;
        if (int status = check_input(src, "source image", err)) return status;
        if (int status = check_text(text, scale, thickness, err)) return status;
        if (src->mat.depth() != CV_8U)
            return fail(err, DC_ERR_ARGUMENT, "text is drawn on uint8 images only");
        if (!color || color_count < 1 || color_count > 4)
            return fail(err, DC_ERR_ARGUMENT, "the colour must have 1 to 4 values");
        cv::Scalar value;
        for (int i = 0; i < color_count; ++i) value[i] = color[i];
        cv::Mat result = src->mat.clone();
        cv::putText(result, text, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, scale, value, thickness, cv::LINE_AA);
        return emit(std::move(result), out, err);
    });
}

extern "C" int dc_text_size(const char *text, double scale, int thickness, int *width, int *height, int *baseline,
                            dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!width || !height || !baseline) return fail(err, DC_ERR_ARGUMENT, "dc_text_size: an output is NULL");
        if (int status = check_text(text, scale, thickness, err)) return status;
        int base = 0;
        cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, scale, thickness, &base);
        *width = size.width;
        *height = size.height;
        *baseline = base;
        return DC_OK;
    });
}
