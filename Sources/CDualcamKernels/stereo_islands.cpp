// Removal of small islands from the measured disparity map. Written by hand
// because OpenCV's filterSpeckles takes 8- and 16-bit maps only; the refined
// disparities are float and their confidences go with them.
#include "kernel_common.hpp"
#include <cmath>
#include <limits>
#include <utility>
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
        // The pixels of one island as (x, y), also the fill's queue; offsets
        // into the map are y * stride + x, with no division per access.
        std::vector<std::pair<int, int>> region;
        const float maxDiff = (float)max_diff;
        for (int y0 = 0; y0 < rows; ++y0) {
            for (int x0 = 0; x0 < cols; ++x0) {
                if (seen[(size_t)y0 * cols + x0] || std::isnan(disparity[(size_t)y0 * stride + x0])) continue;
                region.assign(1, {x0, y0});
                seen[(size_t)y0 * cols + x0] = 1;
                for (size_t next = 0; next < region.size(); ++next) {
                    const int x = region[next].first, y = region[next].second;
                    const float d = disparity[(size_t)y * stride + x];
                    const auto visit = [&](int qx, int qy) {
                        const size_t s = (size_t)qy * cols + qx;
                        const float v = disparity[(size_t)qy * stride + qx];
                        if (seen[s] || std::isnan(v) || std::fabs(v - d) > maxDiff) return;
                        seen[s] = 1;
                        region.emplace_back(qx, qy);
                    };
                    if (x > 0) visit(x - 1, y);
                    if (x + 1 < cols) visit(x + 1, y);
                    if (y > 0) visit(x, y - 1);
                    if (y + 1 < rows) visit(x, y + 1);
                }
                if (region.size() > (size_t)max_size) continue;
                for (const auto &[x, y] : region) {
                    disparity[(size_t)y * stride + x] = nan;
                    conf[(size_t)y * stride + x] = 0;
                }
            }
        }
        return DCK_OK;
    });
}
