// Geometric image operations: homography warps, remapping and resizing.
#include "shim_imgproc.hpp"

using namespace dualcam_shim;

extern "C" int dc_warp_perspective(const dc_mat *src, const double *h, int h_count, int dst_cols,
                                   int dst_rows, int interpolation, int border, double border_value,
                                   int inverse_map, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_warp_perspective: out is NULL");
        *out = nullptr;
        if (int status = check_input(src, "source image", err)) return status;
        if (!h || h_count != 9)
            return fail(err, DC_ERR_ARGUMENT,
                        "the homography must be 3x3 (9 values), got " + std::to_string(h ? h_count : 0));
        for (int i = 0; i < 9; ++i)
            if (!std::isfinite(h[i])) return fail(err, DC_ERR_ARGUMENT, "the homography has non-finite entries");
        if (int status = check_size(dst_cols, dst_rows, err)) return status;
        if (int status = check_interpolation(interpolation, false, err)) return status;
        int mode = 0;
        cv::Scalar value;
        if (int status = border_mode(border, border_value, src->mat.depth(), mode, value, err)) return status;
        // OpenCV inverts a forward homography itself but silently yields zeros
        // when it is singular; invert here to report that instead.
        const cv::Mat given(3, 3, CV_64F, const_cast<double *>(h));
        cv::Mat backward = given.clone();
        if (!inverse_map && cv::invert(given, backward, cv::DECOMP_LU) == 0)
            return fail(err, DC_ERR_ARGUMENT, "the homography is singular");
        cv::Mat result;
        cv::warpPerspective(src->mat, result, backward, cv::Size(dst_cols, dst_rows),
                            interpolation | cv::WARP_INVERSE_MAP, mode, value);
        return emit(std::move(result), out, err);
    });
}

extern "C" int dc_remap(const dc_mat *src, const dc_mat *map_x, const dc_mat *map_y, int interpolation,
                        int border, double border_value, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_remap: out is NULL");
        *out = nullptr;
        if (int status = check_input(src, "source image", err)) return status;
        if (int status = check_maps(map_x, map_y, err)) return status;
        if (int status = check_interpolation(interpolation, false, err)) return status;
        int mode = 0;
        cv::Scalar value;
        if (int status = border_mode(border, border_value, src->mat.depth(), mode, value, err)) return status;
        cv::Mat result;
        cv::remap(src->mat, result, map_x->mat, map_y->mat, interpolation, mode, value);
        return emit(std::move(result), out, err);
    });
}

extern "C" int dc_resize(const dc_mat *src, int dst_cols, int dst_rows, int interpolation, dc_mat **out,
                         dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_resize: out is NULL");
        *out = nullptr;
        if (int status = check_input(src, "source image", err)) return status;
        if (int status = check_size(dst_cols, dst_rows, err)) return status;
        if (int status = check_interpolation(interpolation, true, err)) return status;
        cv::Mat result;
        cv::resize(src->mat, result, cv::Size(dst_cols, dst_rows), 0, 0, interpolation);
        return emit(std::move(result), out, err);
    });
}
