// Internal to the kernel target: the vectorized part of edge_solver.cpp's
// affinity rows for 3-channel guides (affinity_rows.cpp).
#pragma once
#include <cstdint>

namespace dualcam_kernels {

/// The affinities `all[d2]` (d2 the squared RGB distance) of one row of a
/// w-pixel 3-channel guide to the right (`right`, pixels x and x + 1) and,
/// with `next` (the row below), below (`below`), for x from 0 while a whole
/// run of 8 pixels and its right neighbours lie within the row; returns
/// where it stopped (the caller does the rest). Only where `cpu_has_avx2()`.
int affinity_row_avx2(const uint8_t *row, const uint8_t *next, int w, const float *all, float *right, float *below);

}  // namespace dualcam_kernels
