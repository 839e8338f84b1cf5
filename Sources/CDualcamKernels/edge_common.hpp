// Shared by the edge-snap kernels (edge_zone.cpp, edge_snap.cpp): the jump
// test and the parameter check.
#pragma once
#include "kernel_common.hpp"
#include <algorithm>
#include <cmath>

namespace dualcam_kernels {

/// Largest zone margin and fit radius (px): DCK_MAX_EDGE_REACH.
constexpr int kMaxEdgeReach = DCK_MAX_EDGE_REACH;

struct JumpTest {
    float absolute, relative;
    float threshold(float a, float b) const { return std::max(absolute, relative * std::min(a, b)); }
    bool operator()(float a, float b) const { return std::fabs(a - b) > threshold(a, b); }
};

inline int check_edge_buffers(const void *measured, size_t stride, int cols, int rows, const dck_edge_params *p,
                              dck_error *err) {
    if (!measured || !p) return fail(err, DCK_ERR_ARGUMENT, "edge snap: a buffer or the parameters are NULL");
    if (cols < 1 || rows < 1 || stride < (size_t)cols)
        return fail(err, DCK_ERR_ARGUMENT, "edge snap: bad image size or stride");
    if (!(p->jump_pixels > 0) || !(p->jump_relative >= 0) || p->margin < 0 || p->margin > kMaxEdgeReach ||
        p->radius < 1 || p->radius > kMaxEdgeReach)
        return fail(err, DCK_ERR_ARGUMENT, "edge snap: jump_pixels > 0, jump_relative >= 0, margin 0 to 32, radius 1 to 32");
    return DCK_OK;
}

}  // namespace dualcam_kernels
