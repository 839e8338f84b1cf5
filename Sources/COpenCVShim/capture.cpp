// Camera buffer conversions for V4L2 capture (YUYV -> BGR). MJPEG frames are
// decoded with dc_imdecode (codecs.cpp).
#include "dualcam_opencv_capture.h"
#include "shim_imgproc.hpp"
#include <string>

using namespace dualcam_shim;

extern "C" int dc_yuyv_to_bgr(const void *data, size_t size, int width, int height, int bytes_per_line,
                              dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_yuyv_to_bgr: out is NULL");
        *out = nullptr;
        if (!data) return fail(err, DC_ERR_ARGUMENT, "the YUYV buffer is NULL");
        if (width <= 0 || height <= 0 || width % 2 != 0)
            return fail(err, DC_ERR_ARGUMENT,
                        "a YUYV frame needs an even width and a positive height, got " + std::to_string(width) + "x" +
                            std::to_string(height));
        if (bytes_per_line < 2 * width)
            return fail(err, DC_ERR_ARGUMENT,
                        "YUYV rows of " + std::to_string(bytes_per_line) + " bytes cannot hold " +
                            std::to_string(width) + " pixels");
        if (size < size_t(bytes_per_line) * size_t(height))
            return fail(err, DC_ERR_ARGUMENT,
                        "the YUYV buffer holds " + std::to_string(size) + " bytes, a " + std::to_string(width) + "x" +
                            std::to_string(height) + " frame needs " +
                            std::to_string(size_t(bytes_per_line) * size_t(height)));
        const cv::Mat packed(height, width, CV_8UC2, const_cast<void *>(data), size_t(bytes_per_line));
        cv::Mat result;
        cv::cvtColor(packed, result, cv::COLOR_YUV2BGR_YUYV);
        return emit(std::move(result), out, err);
    });
}
