// Removal of small islands from the measured disparity map. Written by hand
// because OpenCV's filterSpeckles takes 8- and 16-bit maps only; the refined
// disparities are float and their confidences go with them.
#include "kernel_common.hpp"
#include <cmath>
#include <limits>
#include <algorithm>
#include <vector>

using namespace dualcam_kernels;

extern "C" int dck_remove_islands(float *disparity, float *conf, size_t stride, int cols, int rows, int max_size,
                                  double max_diff, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (!disparity || !conf) return fail(err, DCK_ERR_ARGUMENT, "island removal: a buffer is NULL");
        if (cols < 1 || rows < 1 || stride < (size_t)cols)
            return fail(err, DCK_ERR_ARGUMENT, "island removal: bad image size or stride");
        if (max_size < 0 || !(max_diff >= 0))
            return fail(err, DCK_ERR_ARGUMENT, "island removal needs a size and a difference of 0 or more");
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float maxDiff = (float)max_diff;
        // Connected components by runs: each row splits into runs of values
        // whose left neighbours are within max_diff; a run joins (union-find)
        // every run above it that one of its pixels touches within max_diff.
        // The same regions as a flood fill from every pixel, with one union
        // per touching pair of runs, not per pixel; a region's size is the sum
        // of its runs' lengths.
        std::vector<int> label((size_t)cols * rows, -1), parent, length;
        const auto find = [&](int i) {
            int root = i;
            while (parent[root] != root) root = parent[root];
            while (parent[i] != root) { const int next = parent[i]; parent[i] = root; i = next; }
            return root;
        };
        for (int y = 0; y < rows; ++y) {
            const float *row = disparity + (size_t)y * stride, *up = y > 0 ? row - stride : nullptr;
            int *rowLabel = label.data() + (size_t)y * cols, *upLabel = y > 0 ? rowLabel - cols : nullptr;
            int run = -1, lastJoined = -1;
            for (int x = 0; x < cols; ++x) {
                const float d = row[x];
                if (std::isnan(d)) { run = -1; continue; }
                if (run < 0 || std::fabs(row[x - 1] - d) > maxDiff) {
                    run = (int)parent.size();
                    parent.push_back(run);
                    length.push_back(0);
                    lastJoined = -1;
                }
                rowLabel[x] = run;
                ++length[run];
                if (!up || upLabel[x] < 0 || upLabel[x] == lastJoined || std::fabs(up[x] - d) > maxDiff) continue;
                lastJoined = upLabel[x];
                const int a = find(run), b = find(upLabel[x]);
                if (a != b) parent[std::max(a, b)] = std::min(a, b);
            }
        }
        std::vector<int> size(parent.size(), 0);
        for (size_t r = 0; r < parent.size(); ++r) size[find((int)r)] += length[r];
        std::vector<uint8_t> small(parent.size());
        for (size_t r = 0; r < parent.size(); ++r) small[r] = size[find((int)r)] <= max_size;
        for (int y = 0; y < rows; ++y) {
            const int *rowLabel = label.data() + (size_t)y * cols;
            for (int x = 0; x < cols; ++x) {
                if (rowLabel[x] < 0 || !small[rowLabel[x]]) continue;
                disparity[(size_t)y * stride + x] = nan;
                conf[(size_t)y * stride + x] = 0;
            }
        }
        return DCK_OK;
    });
}
