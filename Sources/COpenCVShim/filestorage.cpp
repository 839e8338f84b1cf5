// dc_fs lifetime: opening files or memory documents, listing keys, releasing.
#include "shim_handles.hpp"
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>

using namespace dualcam_shim;

namespace {

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// True when OpenCV will pick YAML, XML or JSON from the file name.
bool known_storage_extension(std::string path) {
    std::transform(path.begin(), path.end(), path.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (ends_with(path, ".gz")) path.resize(path.size() - 3);
    for (const char *ext : {".yml", ".yaml", ".xml", ".json"})
        if (ends_with(path, ext)) return true;
    return false;
}

int adopt(dc_fs *handle, dc_fs **out, dc_error *err) {
    if (!handle->storage.isOpened()) {
        delete handle;
        return fail(err, DC_ERR_IO, "cannot open the document");
    }
    *out = handle;
    return DC_OK;
}

}  // namespace

namespace {
/// OpenCV's parser errors, for a user: its message when it is one (some are
/// only the name of an internal function, such as "parseTag"), else a plain line.
std::string parse_failure(const cv::Exception &e) {
    const std::string what = e.err.empty() ? std::string(e.what()) : e.err;
    if (what.find(' ') == std::string::npos) return "cannot parse as an OpenCV FileStorage file (YAML or XML)";
    return "cannot parse as an OpenCV FileStorage file: " + what;
}
}  // namespace

extern "C" int dc_fs_open(const char *path, int mode, dc_fs **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!path || !out) return fail(err, DC_ERR_ARGUMENT, "dc_fs_open: NULL argument");
        *out = nullptr;
        if (mode != DC_FS_READ && mode != DC_FS_WRITE)
            return fail(err, DC_ERR_ARGUMENT, "unknown file storage mode " + std::to_string(mode));
        if (mode == DC_FS_WRITE && !known_storage_extension(path))
            return fail(err, DC_ERR_ARGUMENT,
                        "unknown file storage extension, expected .yml, .yaml, .xml or .json");
        if (mode == DC_FS_READ) {
            if (int status = check_readable_file(path, err)) return status;
        } else {
            // Probe first: OpenCV logs an error line of its own when it cannot create the file.
            FILE *probe = std::fopen(path, "wb");
            if (!probe) return fail(err, DC_ERR_IO, std::string("cannot open for writing: ") + std::strerror(errno));
            std::fclose(probe);
        }
        std::unique_ptr<dc_fs> handle(new dc_fs);
        handle->path = path;
        handle->writing = mode == DC_FS_WRITE;
        bool opened = false;
        try {
            opened = handle->storage.open(path, handle->writing ? cv::FileStorage::WRITE
                                                                 : cv::FileStorage::READ);
        } catch (const cv::Exception &e) {
            if (handle->writing) throw;
            return fail(err, DC_ERR_DECODE, parse_failure(e));
        }
        if (!opened)
            return fail(err, DC_ERR_IO, handle->writing ? "cannot open for writing"
                                                   : "cannot read as an OpenCV FileStorage file (YAML or XML): empty or incomplete");
        *out = handle.release();
        return DC_OK;
    });
}

extern "C" int dc_fs_open_memory_read(const char *text, size_t length, dc_fs **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!text || !out) return fail(err, DC_ERR_ARGUMENT, "dc_fs_open_memory_read: NULL argument");
        *out = nullptr;
        auto handle = new dc_fs;
        handle->memory = true;
        try {
            handle->storage.open(std::string(text, length), cv::FileStorage::READ | cv::FileStorage::MEMORY);
        } catch (const cv::Exception &e) {
            delete handle;
            return fail(err, DC_ERR_DECODE, parse_failure(e));
        }
        return adopt(handle, out, err);
    });
}

extern "C" int dc_fs_open_memory_write(int format, dc_fs **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_fs_open_memory_write: out is NULL");
        *out = nullptr;
        int flags = cv::FileStorage::WRITE | cv::FileStorage::MEMORY;
        switch (format) {
        case DC_FS_FORMAT_YAML: flags |= cv::FileStorage::FORMAT_YAML; break;
        case DC_FS_FORMAT_XML: flags |= cv::FileStorage::FORMAT_XML; break;
        case DC_FS_FORMAT_JSON: flags |= cv::FileStorage::FORMAT_JSON; break;
        default: return fail(err, DC_ERR_ARGUMENT, "unknown file storage format " + std::to_string(format));
        }
        auto handle = new dc_fs;
        handle->memory = true;
        handle->writing = true;
        try {
            handle->storage.open("", flags);
        } catch (...) {
            delete handle;
            throw;
        }
        return adopt(handle, out, err);
    });
}

extern "C" int dc_fs_has_key(const dc_fs *fs, const char *key, int *out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!fs || !key || !out) return fail(err, DC_ERR_ARGUMENT, "dc_fs_has_key: NULL argument");
        if (fs->writing || fs->released)
            return fail(err, DC_ERR_ARGUMENT, "the file storage is not open for reading");
        const cv::FileNode root = fs->storage.root();
        *out = root.isMap() && !root[key].empty() ? 1 : 0;
        return DC_OK;
    });
}

extern "C" int dc_fs_list_top_keys(const dc_fs *fs, char *buffer, size_t capacity, size_t *length,
                                   dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!fs) return fail(err, DC_ERR_ARGUMENT, "dc_fs_list_top_keys: NULL argument");
        if (fs->writing || fs->released)
            return fail(err, DC_ERR_ARGUMENT, "the file storage is not open for reading");
        std::string joined;
        const cv::FileNode root = fs->storage.root();
        if (root.isMap()) {
            for (auto it = root.begin(); it != root.end(); ++it) {
                if (!joined.empty()) joined += '\n';
                joined += (*it).name();
            }
        }
        return copy_out_string(joined, buffer, capacity, length, err);
    });
}

extern "C" int dc_fs_release(dc_fs *fs, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!fs) return fail(err, DC_ERR_ARGUMENT, "dc_fs_release: NULL argument");
        if (fs->released) return fail(err, DC_ERR_ARGUMENT, "the file storage was already released");
        fs->released = true;
        fs->storage.release();
        if (fs->writing && !fs->memory) {
            struct stat st;
            if (::stat(fs->path.c_str(), &st) != 0 || st.st_size == 0)
                return fail(err, DC_ERR_IO, "the document was not written");
        }
        return DC_OK;
    });
}

extern "C" int dc_fs_release_to_string(dc_fs *fs, char **out, size_t *length, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!fs || !out || !length) return fail(err, DC_ERR_ARGUMENT, "dc_fs_release_to_string: NULL argument");
        *out = nullptr;
        *length = 0;
        if (!fs->memory || !fs->writing)
            return fail(err, DC_ERR_ARGUMENT, "the file storage is not an in-memory document being written");
        if (fs->released) return fail(err, DC_ERR_ARGUMENT, "the file storage was already released");
        fs->released = true;
        const std::string text = fs->storage.releaseAndGetString();
        auto *buffer = static_cast<char *>(std::malloc(text.size() + 1));
        if (!buffer) return fail(err, DC_ERR_STD, "out of memory");
        std::memcpy(buffer, text.data(), text.size());
        buffer[text.size()] = '\0';
        *out = buffer;
        *length = text.size();
        return DC_OK;
    });
}

extern "C" void dc_fs_free(dc_fs *fs) {
    if (!fs) return;
    try {
        if (!fs->released) fs->storage.release();
    } catch (...) {
        // Nothing to report to: the caller chose not to check dc_fs_release.
    }
    delete fs;
}
