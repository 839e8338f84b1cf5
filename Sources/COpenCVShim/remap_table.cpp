// dc_remap_table: remap maps converted once to OpenCV's fixed-point form and
// applied to many images.
#include "shim_imgproc.hpp"
#include "shim_remap_table.hpp"
#include <new>

using namespace dualcam_shim;

extern "C" int dc_remap_table_create(const dc_mat *map_x, const dc_mat *map_y, dc_remap_table **out,
                                     dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_remap_table_create: out is NULL");
        *out = nullptr;
        if (int status = check_maps(map_x, map_y, err)) return status;
        auto table = new (std::nothrow) dc_remap_table;
        if (!table) return fail(err, DC_ERR_STD, "out of memory");
        try {
            cv::convertMaps(map_x->mat, map_y->mat, table->xy, table->a, CV_16SC2, false);
        } catch (...) {
            delete table;
            throw;
        }
        *out = table;
        return DC_OK;
    });
}

extern "C" int dc_remap_table_apply(const dc_remap_table *table, const dc_mat *src, int interpolation,
                                    int border, double border_value, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_remap_table_apply: out is NULL");
        *out = nullptr;
        if (!table) return fail(err, DC_ERR_ARGUMENT, "remap table is NULL");
        if (int status = check_input(src, "source image", err)) return status;
        if (int status = check_interpolation(interpolation, false, err)) return status;
        if (interpolation == DC_INTER_NEAREST)
            return fail(err, DC_ERR_ARGUMENT,
                        "a prepared remap table interpolates (use linear, cubic or lanczos4, or dc_remap for nearest)");
        int mode = 0;
        cv::Scalar value;
        if (int status = border_mode(border, border_value, src->mat.depth(), mode, value, err)) return status;
        cv::Mat result;
        cv::remap(src->mat, result, table->xy, table->a, interpolation, mode, value);
        return emit(std::move(result), out, err);
    });
}

extern "C" void dc_remap_table_free(dc_remap_table *table) {
    delete table;  // cv::Mat's destructor does not throw
}
