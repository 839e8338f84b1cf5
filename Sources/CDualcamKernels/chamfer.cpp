// The distance to the nearest non-zero mask pixel as OpenCV's
// distanceTransform computes it for DIST_L2 with DIST_MASK_5 (the 5x5
// chamfer: steps 1, 1.4 and 2.1969 in 16-bit fixed point, one forward and
// one backward raster pass, pixels beyond the border never sources), value
// for value.
//
// Written by hand because OpenCV's passes take the minimum of eight
// candidates with a branch each: on a scattered mask (LiDAR samples) those
// branches are unpredictable, and the transform took about as long as a
// whole edge-aware fill. Here the minima are branch-free (on masks mostly
// non-zero OpenCV's branches skip most pixels and it is the faster: the shim
// keeps it there).
#include "kernel_common.hpp"
#include <algorithm>
#include <climits>
#include <vector>

namespace dualcam_kernels {
namespace {

/// OpenCV's fixed point (DIST_SHIFT), border value (INIT_DIST0) and cap
/// (DIST_MAX), and its 5x5 L2 steps cvRound(step * 2^16) of the float steps
/// 1, 1.4f and 2.1969f.
constexpr int kShift = 16;
constexpr unsigned kInit = INT_MAX, kCap = INT_MAX >> 2;
constexpr unsigned kAxis = 65536, kDiagonal = 91750, kKnight = 143976;
/// Border columns and rows around the image in the work buffer.
constexpr int kBorder = 2;

/// The two passes over the work buffer `t` (image origin; `step` per row),
/// every candidate taken without branches.
void chamfer_passes(const uint8_t *mask, size_t mask_step, int cols, int rows, unsigned *t, int step, float *out) {
    // Forward: from the two rows above, then the pixel to the left (kept in
    // a register: through memory, each pixel waited on the one before).
    for (int y = 0; y < rows; ++y, t += step) {
        const uint8_t *m = mask + static_cast<size_t>(y) * mask_step;
        const unsigned *a = t - 2 * step, *b = t - step;
        unsigned left = t[-1];
        for (int x = 0; x < cols; ++x) {
            const unsigned above = std::min({a[x - 1] + kKnight, a[x + 1] + kKnight, b[x - 2] + kKnight, b[x - 1] + kDiagonal,
                                             b[x] + kAxis, b[x + 1] + kDiagonal, b[x + 2] + kKnight});
            left = m[x] ? 0u : std::min(above, left + kAxis);
            t[x] = left;
        }
    }
    // Backward: from the two rows below, then the pixel to the right (OpenCV
    // leaves values up to one axis step as they are); then capped and scaled
    // as OpenCV converts to float (values below 2^31: as signed, the same floats).
    const float scale = 1.f / (1 << kShift);
    for (int y = rows - 1; y >= 0; --y) {
        t -= step;
        const unsigned *a = t + 2 * step, *b = t + step;
        float *o = out + static_cast<size_t>(y) * cols;
        unsigned right = t[cols];
        for (int x = cols - 1; x >= 0; --x) {
            const unsigned here = t[x];
            const unsigned below = std::min({here, a[x + 1] + kKnight, a[x - 1] + kKnight, b[x + 2] + kKnight,
                                             b[x + 1] + kDiagonal, b[x] + kAxis, b[x - 1] + kDiagonal, b[x - 2] + kKnight});
            right = here > kAxis ? std::min(below, right + kAxis) : here;
            t[x] = right;
            o[x] = static_cast<float>(static_cast<int>(std::min(right, kCap))) * scale;
        }
    }
}

}  // namespace
}  // namespace dualcam_kernels

using namespace dualcam_kernels;

extern "C" int dck_chamfer_distance(const uint8_t *mask, size_t mask_step, int cols, int rows, float *out,
                                    dck_error *err) {
    return guarded(err, [&]() -> int {
        if (!mask || !out || cols < 1 || rows < 1 || mask_step < static_cast<size_t>(cols))
            return fail(err, DCK_ERR_ARGUMENT, "chamfer distance: no mask or output, or a bad size or step");
        const int step = cols + 2 * kBorder;
        std::vector<unsigned> work(static_cast<size_t>(step) * (rows + 2 * kBorder), kInit);
        unsigned *t = work.data() + static_cast<size_t>(step) * kBorder + kBorder;
        chamfer_passes(mask, mask_step, cols, rows, t, step, out);
        return DCK_OK;
    });
}
