// dc_mat: an owned cv::Mat created from caller memory and inspected by Swift.
#include "shim_handles.hpp"
#include <cstring>
#include <new>

using namespace dualcam_shim;

static_assert(DC_DEPTH_U8 == CV_8U && DC_DEPTH_S8 == CV_8S && DC_DEPTH_U16 == CV_16U &&
                  DC_DEPTH_S16 == CV_16S && DC_DEPTH_S32 == CV_32S && DC_DEPTH_F32 == CV_32F &&
                  DC_DEPTH_F64 == CV_64F && DC_DEPTH_F16 == CV_16F,
              "DC_DEPTH_* must equal OpenCV's depth codes");

static bool valid_depth(int depth) { return depth >= CV_8U && depth <= CV_16F; }

extern "C" int dc_mat_create(int rows, int cols, int channels, int depth, const void *data,
                             size_t row_stride, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_mat_create: out is NULL");
        *out = nullptr;
        if (rows < 1 || cols < 1)
            return fail(err, DC_ERR_ARGUMENT,
                        "matrix size " + std::to_string(rows) + "x" + std::to_string(cols) +
                            " must be at least 1x1");
        if (channels < 1 || channels > CV_CN_MAX)
            return fail(err, DC_ERR_ARGUMENT,
                        "channel count " + std::to_string(channels) + " is outside 1..." +
                            std::to_string(CV_CN_MAX));
        if (!valid_depth(depth))
            return fail(err, DC_ERR_ARGUMENT, "unknown depth code " + std::to_string(depth));
        const int type = CV_MAKETYPE(depth, channels);
        const size_t row_bytes = size_t(cols) * CV_ELEM_SIZE(type);
        if (data && row_stride < row_bytes)
            return fail(err, DC_ERR_ARGUMENT,
                        "row stride " + std::to_string(row_stride) + " is smaller than a row (" +
                            std::to_string(row_bytes) + " bytes)");
        auto handle = new (std::nothrow) dc_mat;
        if (!handle) return fail(err, DC_ERR_STD, "out of memory");
        try {
            handle->mat.create(rows, cols, type);
            if (data) {
                const auto *src = static_cast<const uint8_t *>(data);
                for (int r = 0; r < rows; ++r)
                    std::memcpy(handle->mat.ptr(r), src + size_t(r) * row_stride, row_bytes);
            } else {
                handle->mat.setTo(cv::Scalar::all(0));
            }
        } catch (...) {
            delete handle;
            throw;
        }
        *out = handle;
        return DC_OK;
    });
}

extern "C" int dc_mat_get_info(const dc_mat *mat, dc_mat_info *out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!mat || !out) return fail(err, DC_ERR_ARGUMENT, "dc_mat_get_info: NULL argument");
        const cv::Mat &m = mat->mat;
        out->rows = m.rows;
        out->cols = m.cols;
        out->channels = m.channels();
        out->depth = m.depth();
        out->elem_size = m.elemSize();
        out->step = m.step[0];
        out->data = m.data;
        return DC_OK;
    });
}

extern "C" void dc_mat_free(dc_mat *mat) {
    delete mat;  // cv::Mat's destructor does not throw
}

extern "C" void dc_free_buffer(void *buffer) { std::free(buffer); }
