// Definitions of the opaque handles declared in dualcam_opencv.h. Shared by the
// translation units that create or use them; never visible to Swift.
#pragma once
#include "shim_common.hpp"
#include <opencv2/core/persistence.hpp>
#include <cerrno>
#include <cstdio>
#include <string>
#include <sys/stat.h>

struct dc_mat {
    cv::Mat mat;
};

struct dc_fs {
    cv::FileStorage storage;
    std::string path;     // empty for in-memory documents
    bool writing = false;
    bool memory = false;
    bool released = false;
};

namespace dualcam_shim {

/// Copies `text` into a caller buffer following the header's two-call
/// protocol (report length; copy when capacity allows).
inline int copy_out_string(const std::string &text, char *buffer, size_t capacity,
                           size_t *length, dc_error *err) {
    if (length) *length = text.size();
    if (!buffer) return DC_OK;
    if (capacity <= text.size())
        return fail(err, DC_ERR_ARGUMENT,
                    "buffer of " + std::to_string(capacity) + " bytes is too small for " +
                        std::to_string(text.size() + 1));
    std::memcpy(buffer, text.data(), text.size());
    buffer[text.size()] = '\0';
    return DC_OK;
}

/// Checks that `path` names a readable regular file; fills `err` otherwise
/// (missing: DC_ERR_NOT_FOUND with message "no such file"; else DC_ERR_IO).
inline int check_readable_file(const char *path, dc_error *err) {
    struct stat st;
    if (::stat(path, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) return fail(err, DC_ERR_NOT_FOUND, "no such file");
        return fail(err, DC_ERR_IO, std::string("cannot access: ") + std::strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) return fail(err, DC_ERR_IO, "is a directory, expected a file");
    FILE *f = std::fopen(path, "rb");
    if (!f) return fail(err, DC_ERR_IO, std::string("cannot open for reading: ") + std::strerror(errno));
    std::fclose(f);
    return DC_OK;
}

}  // namespace dualcam_shim
