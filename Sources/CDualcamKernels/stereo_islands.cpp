// Removal of small islands from the measured disparity map. Written by hand
// because OpenCV's filterSpeckles takes 8- and 16-bit maps only; the refined
// disparities are float and their confidences go with them.
#include "kernel_common.hpp"
#include <cmath>
#include <limits>
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
        std::vector<uint8_t> seen((size_t)cols * rows, 0);
        std::vector<int> region;  // the pixels (y * cols + x) of one island, also the fill's queue
        const auto at = [&](int p) -> float & { return disparity[(size_t)(p / cols) * stride + p % cols]; };
        for (int start = 0; start < cols * rows; ++start) {
            if (seen[start] || std::isnan(at(start))) continue;
            region.assign(1, start);
            seen[start] = 1;
            for (size_t next = 0; next < region.size(); ++next) {
                const int p = region[next], x = p % cols, y = p / cols;
                const float d = at(p);
                const int neighbours[4] = {x > 0 ? p - 1 : -1, x + 1 < cols ? p + 1 : -1, y > 0 ? p - cols : -1,
                                           y + 1 < rows ? p + cols : -1};
                for (int q : neighbours) {
                    if (q < 0 || seen[q] || std::isnan(at(q)) || std::fabs(at(q) - d) > max_diff) continue;
                    seen[q] = 1;
                    region.push_back(q);
                }
            }
            if (region.size() > (size_t)max_size) continue;
            for (int p : region) {
                at(p) = nan;
                conf[(size_t)(p / cols) * stride + p % cols] = 0;
            }
        }
        return DCK_OK;
    });
}
