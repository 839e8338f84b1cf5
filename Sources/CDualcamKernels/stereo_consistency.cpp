// Left-right consistency check of two SGBM disparity maps. Hand-written
// because OpenCV's own check (StereoSGBM's disp12MaxDiff) only drops
// matches; here the agreement also becomes the match's first confidence, and
// the rectified images' validity masks are checked at both ends.
#include "kernel_common.hpp"
#include <cmath>
#include <limits>

namespace {

/// Confidence lost at the tolerance: 1 - kFalloff (|difference| / tolerance)^2
/// keeps half the confidence for a match that agrees just within it.
constexpr double kFalloff = 0.5;

/// std::lround(v) for |v| < 2^31: half away from zero. v - trunc(v) is exact
/// in float, so this is the same integer as std::lround for every such float
/// (a scratch comparison of every float below 73728 in magnitude found no
/// difference). Written out because lroundf is a library call on the
/// baseline x86-64 build, one per pixel here.
inline int round_half_away(float v) {
    const int t = (int)v;
    const float f = v - (float)t;
    return t + (f >= 0.5f ? 1 : 0) - (f <= -0.5f ? 1 : 0);
}

}  // namespace

using namespace dualcam_kernels;

extern "C" int dck_left_right_check(float *ref, const float *other, float *conf, size_t stride, int cols, int rows,
                                    const uint8_t *ref_valid, const uint8_t *other_valid, size_t mask_stride,
                                    float sign, double tolerance, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (!ref || !other || !conf) return fail(err, DCK_ERR_ARGUMENT, "left-right check: a buffer is NULL");
        if (cols < 1 || rows < 1 || stride < (size_t)cols || ((ref_valid || other_valid) && mask_stride < (size_t)cols))
            return fail(err, DCK_ERR_ARGUMENT, "left-right check: bad image size or stride");
        if (!(tolerance > 0)) return fail(err, DCK_ERR_ARGUMENT, "the left-right tolerance must be positive");
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (int y = 0; y < rows; ++y) {
            float *d = ref + (size_t)y * stride, *c = conf + (size_t)y * stride;
            const float *o = other + (size_t)y * stride;
            const uint8_t *rv = ref_valid ? ref_valid + (size_t)y * mask_stride : nullptr;
            const uint8_t *ov = other_valid ? other_valid + (size_t)y * mask_stride : nullptr;
            for (int x = 0; x < cols; ++x) {
                if (std::isnan(d[x])) continue;
                // A landing point more than a pixel beyond the row's ends (or
                // not finite) rounds outside the row: no match, and no
                // conversion out of int's range. Compared in double, exact
                // at every row length.
                const float at = x - sign * d[x];
                const int xo = std::fabs((double)at) < (double)cols + 1 ? round_half_away(at) : -1;
                bool ok = xo >= 0 && xo < cols && !std::isnan(o[xo]) && std::fabs(o[xo] - d[x]) <= tolerance;
                if (ok && rv) ok = rv[x] != 0;
                if (ok && ov) ok = ov[xo] != 0;
                if (!ok) { d[x] = nan; continue; }
                const double e = std::fabs(o[xo] - d[x]) / tolerance;
                c[x] = (float)(1.0 - kFalloff * e * e);
            }
        }
        return DCK_OK;
    });
}
