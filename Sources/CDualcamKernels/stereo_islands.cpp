// Removal of regions from disparity maps: the refined float map's small
// islands, SGBM's speckles, and the regions the other view cannot see.
// Written by hand because OpenCV's filterSpeckles takes 8- and 16-bit maps
// only (the refined disparities are float and their confidences go with
// them), and on SGBM's 16-bit map it grows every region by a pixel-by-pixel
// flood fill; by runs the same regions take a fraction of its time on the
// critical path of a match. OpenCV has no visibility test of a disparity map.
#include "kernel_common.hpp"
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <algorithm>
#include <vector>

using namespace dualcam_kernels;

namespace {

/// The regions of `values` (cols x rows, `stride` elements per row): values
/// not `missing` joined with their 4-neighbours unless `apart(a, b)`.
/// Calls `remove(y, x)` for every pixel of a region for which
/// `doomed(size, flagged)` holds, with the region's pixel count and how many
/// of its pixels `flag(y, x)` marks (0 without `Counts`: `flag` is not called).
///
/// Connected components by runs: each row splits into runs of values whose
/// left neighbours are not apart; a run joins (union-find) every run above it
/// that one of its pixels touches without being apart. The same regions as a
/// flood fill from every pixel, with one union per touching pair of runs,
/// not per pixel; a region's size is the sum of its runs' lengths. Only two
/// rows of labels are kept: the runs themselves say which pixels to remove.
template <bool Counts, typename T, typename Missing, typename Apart, typename Flag, typename Doomed, typename Remove>
void remove_regions(const T *values, size_t stride, int cols, int rows, Missing missing, Apart apart, Flag flag,
                    Doomed doomed, Remove remove) {
    struct Run {
        int y, x0, x1;
    };
    std::vector<Run> runs;
    std::vector<int> parent, upLabel((size_t)cols, -1), rowLabel((size_t)cols, -1);
    const auto find = [&](int i) {
        int root = i;
        while (parent[root] != root) root = parent[root];
        while (parent[i] != root) { const int next = parent[i]; parent[i] = root; i = next; }
        return root;
    };
    for (int y = 0; y < rows; ++y) {
        const T *row = values + (size_t)y * stride, *up = y > 0 ? row - stride : nullptr;
        int *label = rowLabel.data();
        const int *upper = upLabel.data();
        for (int x = 0; x < cols;) {
            if (missing(row[x])) { label[x++] = -1; continue; }
            const int run = (int)parent.size(), x0 = x;
            parent.push_back(run);
            int lastJoined = -1;
            do {
                label[x] = run;
                if (up && upper[x] >= 0 && upper[x] != lastJoined && !apart(up[x], row[x])) {
                    lastJoined = upper[x];
                    const int a = find(run), b = find(lastJoined);
                    if (a != b) parent[std::max(a, b)] = std::min(a, b);
                }
                ++x;
            } while (x < cols && !missing(row[x]) && !apart(row[x - 1], row[x]));
            runs.push_back({y, x0, x});
        }
        std::swap(rowLabel, upLabel);
    }
    std::vector<int> size(parent.size(), 0), flagged(parent.size(), 0);
    for (size_t r = 0; r < parent.size(); ++r) {
        const int root = find((int)r);
        size[root] += runs[r].x1 - runs[r].x0;
        if constexpr (Counts)
            for (int x = runs[r].x0; x < runs[r].x1; ++x) flagged[root] += flag(runs[r].y, x) ? 1 : 0;
    }
    for (size_t r = 0; r < parent.size(); ++r) {
        const int root = find((int)r);
        if (!doomed(size[root], flagged[root])) continue;
        for (int x = runs[r].x0; x < runs[r].x1; ++x) remove(runs[r].y, x);
    }
}

/// `remove_regions` for regions of at most `max_size` pixels.
template <typename T, typename Missing, typename Apart, typename Remove>
void remove_small_regions(const T *values, size_t stride, int cols, int rows, int max_size, Missing missing,
                          Apart apart, Remove remove) {
    remove_regions<false>(
        values, stride, cols, rows, missing, apart, [](int, int) { return false; },
        [=](int size, int) { return size <= max_size; }, remove);
}

/// Marks in rows y0..<y1 of `occluded` (cols x rows, row-major) the pixels
/// of `disparity` that the other view cannot see: a pixel x with disparity d lands at
/// o(x) = x - sign d in the other view. Each row of the other view is drawn
/// as a depth buffer: a measured pixel covers [o(x), o(x) + 1) and the span
/// from its landing point to that of the previous measured pixel of the row,
/// at the smaller of their two disparities (an unmeasured gap between two
/// measurements is taken as covered by the farther of them: a uniform patch
/// of a surface hides what lies behind it as well as its measured texture
/// does); a cell keeps the largest disparity drawn into it. A pixel is hidden
/// when every cell from floor(o(x) - margin) to floor(o(x) + margin) (the
/// cells within `margin` of its landing point) holds a disparity at least
/// `margin` above its own: a nearer surface covers it there. Cells outside
/// the other view decide nothing (not hidden); so do values that are not
/// finite (no measurement).
void mark_occluded_rows(const float *disparity, size_t stride, int cols, float sign, float margin, uint8_t *occluded,
                        int y0, int y1) {
    std::fill(occluded + (size_t)y0 * cols, occluded + (size_t)y1 * cols, 0);
    if (!(margin > 0 && 2 * margin < (float)cols)) return;  // no landing point has a whole window in the row
    constexpr float kNone = -std::numeric_limits<float>::infinity();
    std::vector<float> depth((size_t)cols), lowest((size_t)cols);
    // floor without a library call (the baseline x86-64 build has no
    // rounding instruction), of values clamped to the row and a cell beyond.
    const auto floor_int = [](float v) {
        const int i = (int)v;
        return i - (v < (float)i ? 1 : 0);
    };
    const float beyond = (float)cols + 1;
    const auto draw = [&](float a, float b, float d) {
        const float lo = std::clamp(std::min(a, b), -1.0f, beyond), hi = std::clamp(std::max(a, b), -1.0f, beyond);
        const int c0 = std::max(0, floor_int(lo)), c1 = std::min(cols, -floor_int(-hi));
        for (int c = c0; c < c1; ++c) depth[c] = std::max(depth[c], d);
    };
    // The cells from floor(L - margin) to floor(L + margin) number either
    // `narrow` or `narrow` + 1 (exactly 2 margin + 1 for a whole margin).
    const int narrow = (int)std::floor(2 * margin) + 1;
    for (int y = y0; y < y1; ++y) {
        const float *row = disparity + (size_t)y * stride;
        float low = std::numeric_limits<float>::infinity(), high = -low;
        for (int x = 0; x < cols; ++x)
            if (std::isfinite(row[x])) { low = std::min(low, row[x]); high = std::max(high, row[x]); }
        // No measurement is nearer than another by the margin (the test
        // below, d + margin <= high, for the smallest d).
        if (!(low + margin <= high)) continue;
        std::fill(depth.begin(), depth.end(), kNone);
        int previous = -1;
        for (int x = 0; x < cols; ++x) {
            const float d = row[x];
            if (!std::isfinite(d)) continue;
            const float landing = (float)x - sign * d;
            // The span back to the previous measurement at the smaller
            // disparity; the pixel's own cell at its own where the span does
            // not cover it at that.
            const float before = previous >= 0 ? (float)previous - sign * row[previous] : landing;
            const float shared = previous >= 0 ? std::min(row[previous], d) : d;
            draw(before, landing + 1, shared);
            if (shared < d || before > landing) draw(landing, landing + 1, d);
            previous = x;
        }
        // lowest[c]: the smallest depth over the `narrow` cells from c (one
        // pass per cell of the window: a few at the usual margins).
        const int last = cols - narrow;
        for (int c = 0; c <= last; ++c) lowest[c] = depth[c];
        for (int k = 1; k < narrow; ++k)
            for (int c = 0; c <= last; ++c) lowest[c] = std::min(lowest[c], depth[c + k]);
        uint8_t *out = occluded + (size_t)y * cols;
        for (int x = 0; x < cols; ++x) {
            const float d = row[x];
            if (!std::isfinite(d) || !(d + margin <= high)) continue;
            const float landing = (float)x - sign * d;
            if (!(landing - margin >= 0 && landing + margin < (float)cols)) continue;
            const int c0 = floor_int(landing - margin), c1 = floor_int(landing + margin);
            if (c0 > last) continue;  // only by float rounding at an exponent's boundary
            const float floorDepth = d + margin;
            bool hidden = lowest[c0] >= floorDepth;
            if (hidden && c1 - c0 + 1 > narrow) hidden = depth[c1] >= floorDepth;
            out[x] = hidden ? 1 : 0;
        }
    }
}

int check_map(const float *disparity, size_t stride, int cols, int rows, const char *what, dck_error *err) {
    if (!disparity) return fail(err, DCK_ERR_ARGUMENT, std::string(what) + ": a buffer is NULL");
    if (cols < 1 || rows < 1 || stride < (size_t)cols)
        return fail(err, DCK_ERR_ARGUMENT, std::string(what) + ": bad image size or stride");
    return DCK_OK;
}

}  // namespace

extern "C" int dck_remove_islands(float *disparity, float *conf, size_t stride, int cols, int rows, int max_size,
                                  double max_diff, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (int status = check_map(disparity, stride, cols, rows, "island removal", err)) return status;
        if (!conf) return fail(err, DCK_ERR_ARGUMENT, "island removal: a buffer is NULL");
        if (max_size < 0 || !(max_diff >= 0))
            return fail(err, DCK_ERR_ARGUMENT, "island removal needs a size and a difference of 0 or more");
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float maxDiff = (float)max_diff;
        remove_small_regions(
            disparity, stride, cols, rows, max_size, [](float d) { return std::isnan(d); },
            [=](float a, float b) { return std::fabs(a - b) > maxDiff; },
            [&](int y, int x) {
                disparity[(size_t)y * stride + x] = nan;
                conf[(size_t)y * stride + x] = 0;
            });
        return DCK_OK;
    });
}

extern "C" int dck_filter_speckles_s16(int16_t *disparity, size_t stride, int cols, int rows, int16_t new_value,
                                       int max_size, int max_diff, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (!disparity) return fail(err, DCK_ERR_ARGUMENT, "speckle filter: the buffer is NULL");
        if (cols < 1 || rows < 1 || stride < (size_t)cols)
            return fail(err, DCK_ERR_ARGUMENT, "speckle filter: bad image size or stride");
        if (max_size < 0 || max_diff < 0)
            return fail(err, DCK_ERR_ARGUMENT, "the speckle filter needs a size and a difference of 0 or more");
        remove_small_regions(
            disparity, stride, cols, rows, max_size, [=](int16_t d) { return d == new_value; },
            [=](int16_t a, int16_t b) { return std::abs((int)a - (int)b) > max_diff; },
            [&](int y, int x) { disparity[(size_t)y * stride + x] = new_value; });
        return DCK_OK;
    });
}

extern "C" int dck_mark_occluded_rows(const float *disparity, size_t stride, int cols, int rows, float sign,
                                      double margin, uint8_t *occluded, int y0, int y1, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (int status = check_map(disparity, stride, cols, rows, "occluded regions", err)) return status;
        if (!occluded) return fail(err, DCK_ERR_ARGUMENT, "occluded regions: a buffer is NULL");
        if (!(sign == 1.0f || sign == -1.0f)) return fail(err, DCK_ERR_ARGUMENT, "occluded regions: sign must be 1 or -1");
        if (!(margin > 0)) return fail(err, DCK_ERR_ARGUMENT, "occluded regions need a positive margin");
        if (int status = check_rows(y0, y1, rows, "occluded regions", err)) return status;
        mark_occluded_rows(disparity, stride, cols, sign, (float)margin, occluded, y0, y1);
        return DCK_OK;
    });
}

extern "C" int dck_remove_flagged_regions(float *disparity, float *conf, size_t stride, int cols, int rows,
                                          double max_diff, const uint8_t *flags, double share, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (int status = check_map(disparity, stride, cols, rows, "occluded regions", err)) return status;
        if (!conf || !flags) return fail(err, DCK_ERR_ARGUMENT, "occluded regions: a buffer is NULL");
        if (!(max_diff >= 0) || !(share > 0 && share <= 1))
            return fail(err, DCK_ERR_ARGUMENT, "occluded regions need a difference of 0 or more and a share in (0, 1]");
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float maxDiff = (float)max_diff;
        remove_regions<true>(
            disparity, stride, cols, rows, [](float d) { return std::isnan(d); },
            [=](float a, float b) { return std::fabs(a - b) > maxDiff; },
            [&](int y, int x) { return flags[(size_t)y * cols + x] != 0; },
            [=](int size, int flagged) { return flagged > 0 && (double)flagged >= share * size; },
            [&](int y, int x) {
                disparity[(size_t)y * stride + x] = nan;
                conf[(size_t)y * stride + x] = 0;
            });
        return DCK_OK;
    });
}

extern "C" int dck_remove_occluded_regions(float *disparity, float *conf, size_t stride, int cols, int rows, float sign,
                                           double max_diff, double margin, double share, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (int status = check_map(disparity, stride, cols, rows, "occluded regions", err)) return status;
        if (!conf) return fail(err, DCK_ERR_ARGUMENT, "occluded regions: a buffer is NULL");
        if (!(max_diff >= 0) || !(share > 0 && share <= 1))
            return fail(err, DCK_ERR_ARGUMENT, "occluded regions need a difference of 0 or more and a share in (0, 1]");
        std::vector<uint8_t> occluded((size_t)cols * (size_t)rows);
        if (int status = dck_mark_occluded_rows(disparity, stride, cols, rows, sign, margin, occluded.data(), 0, rows, err))
            return status;
        return dck_remove_flagged_regions(disparity, conf, stride, cols, rows, max_diff, occluded.data(), share, err);
    });
}
