// The zone steps of the depth-edge snap (see dualcam_kernels_edges.h): jump
// pixels, half-occlusion anchors, small-component removal, reliable pixels.
// Hand-written: finding where a measured disparity map jumps, and which side
// of a half-occlusion a hole belongs to, is specific to stereo; OpenCV does
// the morphology and the labelling between these steps (in the shim).
#include "edge_common.hpp"
#include <limits>

namespace dualcam_kernels {
namespace {

/// Fewer connected jump pixels than this are isolated outliers, not the
/// boundary of a surface (an edge crosses at least a few rows or columns).
constexpr int kMinEdgeArea = 10;
/// A hole's window is centred this many pixels beyond the zone (which reaches
/// `margin` past the run's bounding measurement), on reliable measurements.
constexpr int kAnchorBeyondZone = 1;

struct Grid {
    const float *u;
    uint8_t *edge;
    size_t stride;
    int W, H;
    const float *row(int y) const { return u + (size_t)y * stride; }
    uint8_t *edgeRow(int y) const { return edge + (size_t)y * stride; }
};

/// Jumps between measured neighbours of row y (to the right and below), and
/// across two pixels: a straddling window turns a step of a few tenths of a
/// pixel into a ramp whose neighbours each stay below the threshold.
void mark_adjacent_jumps(const Grid &g, const JumpTest &jump, int y) {
    const int W = g.W, H = g.H;
    const float *row = g.row(y), *below = y + 1 < H ? g.row(y + 1) : nullptr;
    uint8_t *e = g.edgeRow(y), *eb = y + 1 < H ? g.edgeRow(y + 1) : nullptr;
    for (int x = 0; x < W; ++x) {
        if (std::isnan(row[x])) continue;
        if (x + 1 < W && !std::isnan(row[x + 1]) && jump(row[x], row[x + 1])) e[x] = e[x + 1] = 1;
        if (below && !std::isnan(below[x]) && jump(row[x], below[x])) e[x] = eb[x] = 1;
        if (x + 2 < W && !std::isnan(row[x + 1]) && !std::isnan(row[x + 2]) && jump(row[x], row[x + 2]))
            e[x] = e[x + 1] = e[x + 2] = 1;
        if (y + 2 < H && !std::isnan(below[x]) && !std::isnan(g.row(y + 2)[x]) && jump(row[x], g.row(y + 2)[x]))
            e[x] = eb[x] = g.edgeRow(y + 2)[x] = 1;
    }
}

/// The runs of holes along row y bounded by a jump: jump pixels, and for a
/// half-occlusion run the anchor and side value of each hole.
void mark_row_runs(const Grid &g, const JumpTest &jump, const dck_edge_params &p, int y, int32_t *a, float *fv) {
    const int W = g.W, M = p.margin;
    const float *row = g.row(y);
    uint8_t *e = g.edgeRow(y);
    for (int x = 0; x < W;) {
        if (!std::isnan(row[x])) { ++x; continue; }
        const int x0 = x;
        while (x < W && std::isnan(row[x])) ++x;
        if (x0 == 0 || x == W) continue;
        const float l = row[x0 - 1], r = row[x];
        if (!jump(l, r)) continue;
        for (int i = x0 - 1; i <= x; ++i) e[i] = 1;
        // A half-occlusion lies beside the nearer surface on the occlusion
        // side and is as wide as the jump: its pixels take the farther
        // surface; the run's other pixels (matches that failed at the nearer
        // surface's rim) the nearer one. A run on the other side is no
        // half-occlusion (left to the hole rule).
        const bool nearLeft = l > r;
        if (nearLeft != (p.occlusion_side > 0)) continue;
        // (From the bounding measurements: where the windows straddled they
        // lean towards each other, so the width errs to the nearer surface,
        // the smaller depth error.)
        const int width = std::min(x - x0, (int)std::lround(std::fabs(l - r) * p.disparity_scale));
        const int leftAnchor = std::max(0, (x0 - 1) - (M + kAnchorBeyondZone));
        const int rightAnchor = std::min(W - 1, x + M + kAnchorBeyondZone);
        for (int i = x0; i < x; ++i) {
            const bool occluded = nearLeft ? i >= x - width : i < x0 + width;
            const bool takesLeft = occluded != nearLeft;
            a[i] = takesLeft ? leftAnchor : rightAnchor;
            fv[i] = takesLeft ? l : r;
        }
    }
}

/// Runs of holes down a column bounded by a jump (no half-occlusion across
/// the baseline, but the surfaces must stay apart).
void mark_column_runs(const Grid &g, const JumpTest &jump) {
    for (int x = 0; x < g.W; ++x) {
        for (int y = 0; y < g.H;) {
            if (!std::isnan(g.row(y)[x])) { ++y; continue; }
            const int y0 = y;
            while (y < g.H && std::isnan(g.row(y)[x])) ++y;
            if (y0 == 0 || y == g.H) continue;
            if (!jump(g.row(y0 - 1)[x], g.row(y)[x])) continue;
            for (int i = y0 - 1; i <= y; ++i) g.edgeRow(i)[x] = 1;
        }
    }
}

}  // namespace
}  // namespace dualcam_kernels

using namespace dualcam_kernels;

extern "C" int dck_edge_jumps(const float *measured, size_t stride, int cols, int rows, const dck_edge_params *params,
                              uint8_t *edge, int32_t *anchor, float *side_value, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (int status = check_edge_buffers(measured, stride, cols, rows, params, err)) return status;
        if (!edge || !anchor || !side_value) return fail(err, DCK_ERR_ARGUMENT, "edge jumps: an output is NULL");
        const dck_edge_params &p = *params;
        const JumpTest jump{(float)p.jump_pixels, (float)p.jump_relative};
        const Grid g{measured, edge, stride, cols, rows};
        for (int y = 0; y < rows; ++y) {
            std::fill(g.edgeRow(y), g.edgeRow(y) + cols, 0);
            std::fill(anchor + (size_t)y * stride, anchor + (size_t)y * stride + cols, -1);
            std::fill(side_value + (size_t)y * stride, side_value + (size_t)y * stride + cols,
                      std::numeric_limits<float>::quiet_NaN());
        }
        for (int y = 0; y < rows; ++y) {
            mark_adjacent_jumps(g, jump, y);
            mark_row_runs(g, jump, p, y, anchor + (size_t)y * stride, side_value + (size_t)y * stride);
        }
        mark_column_runs(g, jump);
        return DCK_OK;
    });
}

extern "C" void dck_edge_drop_small(uint8_t *edge, const int32_t *labels, const int32_t *areas, int count,
                                    size_t stride, int cols, int rows) {
    for (int y = 0; y < rows; ++y) {
        const int32_t *l = labels + (size_t)y * stride;
        uint8_t *e = edge + (size_t)y * stride;
        for (int x = 0; x < cols; ++x)
            if (l[x] > 0 && l[x] < count && areas[l[x]] < kMinEdgeArea) e[x] = 0;
    }
}

extern "C" void dck_edge_reliable(const float *measured, const uint8_t *zone, uint8_t *reliable, size_t stride,
                                  int cols, int rows) {
    for (int y = 0; y < rows; ++y) {
        const float *row = measured + (size_t)y * stride;
        const uint8_t *z = zone + (size_t)y * stride;
        uint8_t *r = reliable + (size_t)y * stride;
        for (int x = 0; x < cols; ++x) r[x] = !std::isnan(row[x]) && !z[x] ? 255 : 0;
    }
}
