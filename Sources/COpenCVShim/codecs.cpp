// Image codecs: cv::imread / imdecode / imwrite / imencode behind the C API,
// turning OpenCV's silent failures (empty Mat, `false`) into error codes.
#include "shim_handles.hpp"
#include <opencv2/imgcodecs.hpp>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <vector>

using namespace dualcam_shim;

static_assert(int(DC_IMWRITE_JPEG_QUALITY) == int(cv::IMWRITE_JPEG_QUALITY), "ImwriteFlags changed");
static_assert(int(DC_IMWRITE_PNG_COMPRESSION) == int(cv::IMWRITE_PNG_COMPRESSION), "ImwriteFlags changed");
static_assert(int(DC_IMWRITE_EXR_TYPE) == int(cv::IMWRITE_EXR_TYPE), "ImwriteFlags changed");
static_assert(int(DC_IMWRITE_TIFF_COMPRESSION) == int(cv::IMWRITE_TIFF_COMPRESSION), "ImwriteFlags changed");
static_assert(int(DC_IMWRITE_EXR_TYPE_HALF) == int(cv::IMWRITE_EXR_TYPE_HALF), "ImwriteEXRTypeFlags changed");
static_assert(int(DC_IMWRITE_EXR_TYPE_FLOAT) == int(cv::IMWRITE_EXR_TYPE_FLOAT), "ImwriteEXRTypeFlags changed");

namespace {

/// The extension of the last path component including its dot, or "" if none.
std::string extension_of(const std::string &path) {
    const size_t slash = path.find_last_of('/');
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    return path.substr(dot);
}

/// OpenCV's imread flags for a DC_IMREAD_* mode; false for an unknown mode.
bool imread_flags(int mode, int &flags) {
    switch (mode) {
    case DC_IMREAD_UNCHANGED: flags = cv::IMREAD_UNCHANGED; return true;
    case DC_IMREAD_COLOR: flags = cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION; return true;
    case DC_IMREAD_GRAYSCALE: flags = cv::IMREAD_GRAYSCALE | cv::IMREAD_IGNORE_ORIENTATION; return true;
    default: return false;
    }
}

std::string dotted(const char *extension) {
    std::string ext = extension ? extension : "";
    if (ext.empty() || ext[0] != '.') ext = "." + ext;
    return ext;
}

std::vector<int> param_vector(const int *params, int count) {
    if (!params || count <= 0) return {};
    return std::vector<int>(params, params + count);
}

int finish_decode(cv::Mat &&image, dc_mat **out, dc_error *err) {
    if (image.empty())
        return fail(err, DC_ERR_DECODE, "cannot decode the image (unknown format or corrupt data)");
    *out = new dc_mat{std::move(image)};
    return DC_OK;
}

/// Holds what OpenCV writes to std::cerr while a decoder runs (its EXR and
/// TIFF readers print "imdecode_(...): can't read header: ..." there before
/// returning an empty image), so the user sees one dualcam line instead.
class CerrCapture {
public:
    CerrCapture() : previous_(std::cerr.rdbuf(captured_.rdbuf())) {}
    ~CerrCapture() { std::cerr.rdbuf(previous_); }
    CerrCapture(const CerrCapture &) = delete;
    CerrCapture &operator=(const CerrCapture &) = delete;

private:
    std::ostringstream captured_;
    std::streambuf *previous_;
};

}  // namespace

extern "C" int dc_imread(const char *path, int flags, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!path || !out) return fail(err, DC_ERR_ARGUMENT, "dc_imread: NULL argument");
        *out = nullptr;
        int cv_flags = 0;
        if (!imread_flags(flags, cv_flags))
            return fail(err, DC_ERR_ARGUMENT, "unknown imread mode " + std::to_string(flags));
        if (int status = check_readable_file(path, err)) return status;
        return finish_decode(cv::imread(path, cv_flags), out, err);
    });
}

extern "C" int dc_imdecode(const void *data, size_t length, int flags, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_imdecode: out is NULL");
        *out = nullptr;
        int cv_flags = 0;
        if (!imread_flags(flags, cv_flags))
            return fail(err, DC_ERR_ARGUMENT, "unknown imread mode " + std::to_string(flags));
        if (!data || length == 0) return fail(err, DC_ERR_DECODE, "no image data (0 bytes)");
        if (length > size_t(INT32_MAX)) return fail(err, DC_ERR_ARGUMENT, "image data over 2 GiB");
        const cv::Mat buffer(1, int(length), CV_8UC1, const_cast<void *>(data));
        cv::Mat decoded;
        {
            CerrCapture quiet;
            decoded = cv::imdecode(buffer, cv_flags);
        }
        return finish_decode(std::move(decoded), out, err);
    });
}

extern "C" int dc_imwrite(const char *path, const dc_mat *mat, const int *params, int param_count,
                          dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!path || !mat) return fail(err, DC_ERR_ARGUMENT, "dc_imwrite: NULL argument");
        if (!cv::haveImageWriter(path))
            return fail(err, DC_ERR_ARGUMENT, "no image writer for extension '" + extension_of(path) + "'");
        if (!cv::imwrite(path, mat->mat, param_vector(params, param_count)))
            return fail(err, DC_ERR_IO, "the image encoder could not write the file");
        return DC_OK;
    });
}

extern "C" int dc_imencode(const char *extension, const dc_mat *mat, const int *params,
                           int param_count, uint8_t **out, size_t *length, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!mat || !out || !length) return fail(err, DC_ERR_ARGUMENT, "dc_imencode: NULL argument");
        *out = nullptr;
        *length = 0;
        const std::string ext = dotted(extension);
        if (!cv::haveImageWriter("x" + ext))
            return fail(err, DC_ERR_ARGUMENT, "no image writer for extension '" + ext + "'");
        std::vector<uchar> bytes;
        if (!cv::imencode(ext, mat->mat, bytes, param_vector(params, param_count)) || bytes.empty())
            return fail(err, DC_ERR_DECODE, "the '" + ext + "' encoder failed");
        auto *buffer = static_cast<uint8_t *>(std::malloc(bytes.size()));
        if (!buffer) return fail(err, DC_ERR_STD, "out of memory");
        std::memcpy(buffer, bytes.data(), bytes.size());
        *out = buffer;
        *length = bytes.size();
        return DC_OK;
    });
}

extern "C" int dc_have_image_writer(const char *extension, int *out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_have_image_writer: out is NULL");
        *out = 0;
        const std::string ext = dotted(extension);
        if (ext.size() < 2 || !cv::haveImageWriter("x" + ext)) return DC_OK;
        std::string lower = ext;
        for (char &c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
        const bool floating = lower == ".exr" || lower == ".hdr" || lower == ".pic" || lower == ".pfm";
        const cv::Mat probe(1, 1, floating ? CV_32FC3 : CV_8UC3, cv::Scalar::all(1));
        try {
            std::vector<uchar> bytes;
            *out = cv::imencode(ext, probe, bytes) && !bytes.empty() ? 1 : 0;
        } catch (const cv::Exception &) {
            *out = 0;  // e.g. OpenEXR compiled in but disabled at run time
        }
        return DC_OK;
    });
}
