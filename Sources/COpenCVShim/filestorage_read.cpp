// dc_fs readers: typed access to top-level keys with strict type checks.
#include "shim_handles.hpp"
#include <cctype>

using namespace dualcam_shim;

namespace {

std::string kind(const cv::FileNode &node) {
    if (node.isInt()) return "an integer";
    if (node.isReal()) return "a real number";
    if (node.isString()) return "a string";
    if (node.isSeq()) return "a sequence";
    if (node.isMap()) return "a map";
    return "an empty value";
}

/// Finds `key` at the top level; returns DC_OK and sets `node`, or fails.
int lookup(const dc_fs *fs, const char *key, cv::FileNode &node, dc_error *err) {
    if (!fs || !key) return fail(err, DC_ERR_ARGUMENT, "NULL file storage or key");
    if (fs->writing || fs->released) return fail(err, DC_ERR_ARGUMENT, "the file storage is not open for reading");
    const cv::FileNode root = fs->storage.root();
    if (root.isMap()) node = root[key];
    if (!root.isMap() || node.empty()) return fail(err, DC_ERR_NOT_FOUND, std::string("missing key '") + key + "'");
    return DC_OK;
}

int wrong_kind(dc_error *err, const char *key, const cv::FileNode &node, const char *expected) {
    return fail(err, DC_ERR_DECODE, std::string("key '") + key + "' holds " + kind(node) + ", expected " + expected);
}

/// Largest rows or columns of a matrix read from a file (calibration
/// matrices are 3x3, 1x5, 3x4; a lookup table may be a few thousand wide).
constexpr long long kMaxMatrixSide = 16384;

}  // namespace

extern "C" int dc_fs_read_matrix(const dc_fs *fs, const char *key, int *rows, int *cols, double *buffer,
                                 size_t capacity, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!rows || !cols) return fail(err, DC_ERR_ARGUMENT, "dc_fs_read_matrix: NULL argument");
        cv::FileNode node;
        if (int status = lookup(fs, key, node, err)) return status;
        cv::Mat values;
        if (node.isMap()) {
            if (node["rows"].empty() || node["cols"].empty() || node["dt"].empty() || node["data"].empty())
                return wrong_kind(err, key, node, "a matrix (rows, cols, dt, data)");
            // Checked before OpenCV allocates rows x cols and asserts on the
            // data count (its messages name its internals, not the file).
            const cv::FileNode rowsNode = node["rows"], colsNode = node["cols"], dataNode = node["data"];
            if (!rowsNode.isInt() || !colsNode.isInt() || !node["dt"].isString() || !dataNode.isSeq())
                return wrong_kind(err, key, node, "a matrix with integer rows and cols, a dt string and a data sequence");
            const long long r = int(rowsNode), c = int(colsNode);
            const std::string dt = node["dt"].string();
            const long long channels = (dt.size() == 2 && std::isdigit((unsigned char)dt[0])) ? dt[0] - '0' : 1;
            if (r < 1 || c < 1 || r > kMaxMatrixSide || c > kMaxMatrixSide)
                return fail(err, DC_ERR_DECODE, std::string("key '") + key + "' declares a " + std::to_string(r) + "x" +
                                                    std::to_string(c) + " matrix; expected 1 to " +
                                                    std::to_string(kMaxMatrixSide) + " rows and columns");
            if ((long long)dataNode.size() != r * c * channels)
                return fail(err, DC_ERR_DECODE, std::string("key '") + key + "' declares a " + std::to_string(r) + "x" +
                                                    std::to_string(c) + " matrix but its data has " +
                                                    std::to_string(dataNode.size()) + " values (expected " +
                                                    std::to_string(r * c * channels) + ")");
            cv::Mat stored;
            node >> stored;
            if (stored.channels() != 1)
                return fail(err, DC_ERR_DECODE, std::string("key '") + key + "' holds a " +
                                                    std::to_string(stored.channels()) +
                                                    "-channel matrix, expected 1 channel");
            stored.convertTo(values, CV_64F);
        } else if (node.isSeq()) {
            std::vector<double> flat;
            for (auto it = node.begin(); it != node.end(); ++it) {
                const cv::FileNode item = *it;
                if (!item.isInt() && !item.isReal()) return wrong_kind(err, key, node, "a sequence of numbers");
                flat.push_back(item.isInt() ? double(int(item)) : double(item));
            }
            if (!flat.empty()) cv::Mat(1, int(flat.size()), CV_64F, flat.data()).copyTo(values);
        } else {
            return wrong_kind(err, key, node, "a matrix");
        }
        *rows = values.rows;
        *cols = values.cols;
        const size_t count = size_t(values.rows) * size_t(values.cols);
        if (!buffer || count == 0) return DC_OK;
        if (capacity < count)
            return fail(err, DC_ERR_ARGUMENT, "buffer of " + std::to_string(capacity) +
                                                  " doubles is too small for " + std::to_string(count));
        for (int r = 0; r < values.rows; ++r)
            std::memcpy(buffer + size_t(r) * values.cols, values.ptr<double>(r), sizeof(double) * values.cols);
        return DC_OK;
    });
}

extern "C" int dc_fs_read_real(const dc_fs *fs, const char *key, double *out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_fs_read_real: NULL argument");
        cv::FileNode node;
        if (int status = lookup(fs, key, node, err)) return status;
        if (node.isInt()) *out = double(int(node));
        else if (node.isReal()) *out = double(node);
        else return wrong_kind(err, key, node, "a number");
        return DC_OK;
    });
}

extern "C" int dc_fs_read_int(const dc_fs *fs, const char *key, int64_t *out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_fs_read_int: NULL argument");
        cv::FileNode node;
        if (int status = lookup(fs, key, node, err)) return status;
        if (!node.isInt()) return wrong_kind(err, key, node, "an integer");
        *out = int64_t(int(node));
        return DC_OK;
    });
}

extern "C" int dc_fs_read_string(const dc_fs *fs, const char *key, char *buffer, size_t capacity,
                                 size_t *length, dc_error *err) {
    return guarded(err, [&]() -> int {
        cv::FileNode node;
        if (int status = lookup(fs, key, node, err)) return status;
        if (!node.isString()) return wrong_kind(err, key, node, "a string");
        return copy_out_string(std::string(node), buffer, capacity, length, err);
    });
}
