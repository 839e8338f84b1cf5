// Per-pixel operations: grey conversion, element-type conversion, blur.
#include "shim_imgproc.hpp"

using namespace dualcam_shim;

extern "C" int dc_convert_to_gray(const dc_mat *src, int rgb_order, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_convert_to_gray: out is NULL");
        *out = nullptr;
        if (int status = check_input(src, "source image", err)) return status;
        cv::Mat result;
        switch (src->mat.channels()) {
        case 1: result = src->mat.clone(); break;
        case 3: cv::cvtColor(src->mat, result, rgb_order ? cv::COLOR_RGB2GRAY : cv::COLOR_BGR2GRAY); break;
        case 4: cv::cvtColor(src->mat, result, rgb_order ? cv::COLOR_RGBA2GRAY : cv::COLOR_BGRA2GRAY); break;
        default:
            return fail(err, DC_ERR_ARGUMENT,
                        std::to_string(src->mat.channels()) + " channels cannot be converted to grey (expected 1, 3 or 4)");
        }
        return emit(std::move(result), out, err);
    });
}

extern "C" int dc_convert_depth(const dc_mat *src, int depth, double scale, double offset, dc_mat **out,
                                dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_convert_depth: out is NULL");
        *out = nullptr;
        if (int status = check_input(src, "source image", err)) return status;
        if (depth < CV_8U || depth > CV_16F)
            return fail(err, DC_ERR_ARGUMENT, "unknown depth code " + std::to_string(depth));
        cv::Mat result;
        src->mat.convertTo(result, depth, scale, offset);
        return emit(std::move(result), out, err);
    });
}

extern "C" int dc_gaussian_blur(const dc_mat *src, double sigma, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_gaussian_blur: out is NULL");
        *out = nullptr;
        if (int status = check_input(src, "source image", err)) return status;
        if (!(sigma > 0) || !std::isfinite(sigma))
            return fail(err, DC_ERR_ARGUMENT, "sigma must be a positive number of pixels, got " + std::to_string(sigma));
        cv::Mat result;
        cv::GaussianBlur(src->mat, result, cv::Size(0, 0), sigma, sigma, cv::BORDER_REFLECT_101);
        return emit(std::move(result), out, err);
    });
}
