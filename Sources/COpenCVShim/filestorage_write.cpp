// dc_fs writers: top-level scalars, strings and double matrices.
#include "shim_handles.hpp"

using namespace dualcam_shim;

namespace {

int check_writable(const dc_fs *fs, const char *key, dc_error *err) {
    if (!fs || !key) return fail(err, DC_ERR_ARGUMENT, "NULL file storage or key");
    if (!fs->writing || fs->released) return fail(err, DC_ERR_ARGUMENT, "the file storage is not open for writing");
    if (!*key) return fail(err, DC_ERR_ARGUMENT, "empty key");
    return DC_OK;
}

}  // namespace

extern "C" int dc_fs_write_matrix(dc_fs *fs, const char *key, int rows, int cols, const double *data,
                                  dc_error *err) {
    return guarded(err, [&]() -> int {
        if (int status = check_writable(fs, key, err)) return status;
        if (!data || rows < 1 || cols < 1)
            return fail(err, DC_ERR_ARGUMENT, "matrix '" + std::string(key) + "' must be at least 1x1 with data");
        fs->storage.write(key, cv::Mat(rows, cols, CV_64F, const_cast<double *>(data)));
        return DC_OK;
    });
}

extern "C" int dc_fs_write_real(dc_fs *fs, const char *key, double value, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (int status = check_writable(fs, key, err)) return status;
        fs->storage.write(key, value);
        return DC_OK;
    });
}

extern "C" int dc_fs_write_int(dc_fs *fs, const char *key, int value, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (int status = check_writable(fs, key, err)) return status;
        fs->storage.write(key, value);
        return DC_OK;
    });
}

extern "C" int dc_fs_write_string(dc_fs *fs, const char *key, const char *value, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (int status = check_writable(fs, key, err)) return status;
        if (!value) return fail(err, DC_ERR_ARGUMENT, "NULL string value");
        fs->storage.write(key, std::string(value));
        return DC_OK;
    });
}
