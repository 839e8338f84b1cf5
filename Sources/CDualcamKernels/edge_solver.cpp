// The fast global smoother's arithmetic on raw buffers, for the shim's
// dc_edge_solver (a solver whose guide affinities are computed once and
// shared by many fills) and its confidence-weighted fills.
//
// Written by hand because OpenCV's FastGlobalSmootherFilter (ximgproc) ties
// the affinities to one lambda: every filter object rebuilds a 196608-entry
// exp table and both affinity maps, and filters each channel on its own.
// Depth fusion runs several confidence-weighted fills on a few guides per
// frame, each needing FGS(w v) and FGS(w) with the same coefficients; here
// the affinities are made once per guide (from a table, not an exp per pixel
// pair), one elimination serves both channels, and the horizontal solve runs
// on transposed data (transposed by the shim) so that both directions
// vectorize. The arithmetic is OpenCV's (Min et al. 2014, separable 1-D
// solves of (I + lambda L) u = f), so results match
// cv::ximgproc::fastGlobalSmootherFilter to float rounding (tested against it).
#include "kernel_common.hpp"
#include "affinity_rows.hpp"
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define DCK_TRANSPOSE_AVX 1
#endif

namespace dualcam_kernels {
namespace {

/// One row y of the forward elimination, from row y - 1 ("p" pointers) to
/// row y ("o" pointers), over n columns. The rows are passed as separate
/// restrict pointers: indexed from one base, the compiler guarded the
/// vector loop with an overlap test that failed, and the solves ran scalar.
__attribute__((always_inline)) inline void forward_row(const float *__restrict cp, const float *__restrict co,
                                                       const float *__restrict sp, float *__restrict so,
                                                       const float *__restrict ap, float *__restrict ao,
                                                       const float *__restrict bp, float *__restrict bo, float lambda, int n) {
    for (int x = 0; x < n; ++x) {
        const float coef_prev = lambda * cp[x], coef_cur = lambda * co[x];
        const float inv = 1.f / ((1.f - coef_prev - coef_cur) - sp[x] * coef_prev);
        so[x] = coef_cur * inv;
        ao[x] = (ao[x] - ap[x] * coef_prev) * inv;
        bo[x] = (bo[x] - bp[x] * coef_prev) * inv;
    }
}

/// One row y of the back substitution, from row y + 1 ("n" pointers).
__attribute__((always_inline)) inline void backward_row(const float *__restrict so, float *__restrict ao,
                                                        const float *__restrict an, float *__restrict bo,
                                                        const float *__restrict bn, int n) {
    for (int x = 0; x < n; ++x) {
        ao[x] -= so[x] * an[x];
        bo[x] -= so[x] * bn[x];
    }
}

/// -exp(-sqrt(d2) / sigma) for squared 8-bit colour distances d2 (what
/// OpenCV's table holds): exact from a table for d2 < kNear (most neighbour
/// pairs), beyond that tabulated over the distance in kStep steps and
/// interpolated linearly (relative error below 1e-5 for sigma >= 1); `all`
/// holds the result for every 3-channel d2, filled on creation: textured
/// guides put many neighbour pairs beyond kNear, where the square root and
/// interpolation per pair would take most of a solver's creation.
struct AffinityTable {
    /// Distance step of the interpolated table (8-bit colour units): fine
    /// enough for the 1e-5 error above at sigma >= 1.
    static constexpr float kStep = 1.f / 16;
    /// Squared distances below this are tabulated exactly (the small colour
    /// differences that make up most of an image).
    static constexpr int kNear = 1024;
    /// Every squared distance of two 3-channel 8-bit colours: 0 ... 3 * 255^2.
    static constexpr int kAll = 3 * 255 * 255 + 1;
    std::vector<float> table, near, all;
    explicit AffinityTable(double sigma) {
        const int n = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(kAll - 1)) / kStep)) + 2;
        table.resize(n);
        for (int i = 0; i < n; ++i) table[i] = static_cast<float>(-std::exp(-(i * kStep) / sigma));
        near.resize(kNear);
        for (int i = 0; i < kNear; ++i) near[i] = static_cast<float>(-std::exp(-std::sqrt(static_cast<double>(i)) / sigma));
        all.resize(kAll);
        for (int d2 = 0; d2 < kAll; ++d2) all[d2] = (*this)(d2);
    }
    float operator()(int d2) const {
        if (d2 < kNear) return near[d2];
        const float t = std::sqrt(static_cast<float>(d2)) * (1.f / kStep);
        const int i = static_cast<int>(t);
        const float f = t - i;
        return table[i] + f * (table[i + 1] - table[i]);
    }
};

/// Tables kept for the process's lifetime: fusion makes several solvers per
/// frame with the same few sigmas, and a table costs thousands of exps.
/// Beyond this many sigmas (not a fusion pattern) tables are not kept.
constexpr size_t kKeptTables = 16;

/// The table for one sigma, built once per process (see kKeptTables).
std::shared_ptr<const AffinityTable> affinity_table(double sigma) {
    static std::mutex lock;
    static std::vector<std::pair<double, std::shared_ptr<const AffinityTable>>> tables;
    {
        std::lock_guard<std::mutex> guard(lock);
        for (const auto &entry : tables)
            if (entry.first == sigma) return entry.second;
    }
    std::shared_ptr<const AffinityTable> made = std::make_shared<AffinityTable>(sigma);
    std::lock_guard<std::mutex> guard(lock);
    for (const auto &entry : tables)
        if (entry.first == sigma) return entry.second;
    if (tables.size() < kKeptTables) tables.emplace_back(sigma, made);
    return made;
}

/// The affinities of rows y0..<y1 of a guide with CH channels; the channel
/// count is a template parameter so that the per-pixel distance unrolls.
template <int CH>
void fill_affinities(const uint8_t *guide, size_t step, int w, int h, const float *all, float *right, float *below,
                     int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
        const uint8_t *row = guide + (size_t)y * step, *next = y + 1 < h ? row + step : nullptr;
        float *r = right + static_cast<size_t>(y) * w, *b = below + static_cast<size_t>(y) * w;
        // 3 channels: runs of 8 pixels vectorized where the CPU can, the rest below.
        const int x0 = CH == 3 && cpu_has_avx2() ? affinity_row_avx2(row, next, w, all, r, b) : 0;
        for (int x = x0; x + 1 < w; ++x) {
            const uint8_t *p = row + x * CH;
            int d2 = 0;
            for (int k = 0; k < CH; ++k) { const int d = p[k] - p[CH + k]; d2 += d * d; }
            r[x] = all[d2];
        }
        if (w > 0) r[w - 1] = 0.f;  // no right neighbour
        if (!next) {
            std::fill(b, b + w, 0.f);  // no pixel below
            continue;
        }
        for (int x = x0; x < w; ++x) {
            const uint8_t *p = row + x * CH, *q = next + x * CH;
            int d2 = 0;
            for (int k = 0; k < CH; ++k) { const int d = p[k] - q[k]; d2 += d * d; }
            b[x] = all[d2];
        }
    }
}

}  // namespace
}  // namespace dualcam_kernels

using namespace dualcam_kernels;

struct dck_affinity_table {
    std::shared_ptr<const AffinityTable> table;
};

extern "C" int dck_affinity_table_acquire(double sigma, dck_affinity_table **out, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DCK_ERR_ARGUMENT, "affinity table: out is NULL");
        *out = nullptr;
        if (!(sigma > 0) || !std::isfinite(sigma)) return fail(err, DCK_ERR_ARGUMENT, "sigma_color must be positive");
        *out = new dck_affinity_table{affinity_table(sigma)};
        return DCK_OK;
    });
}

extern "C" void dck_affinity_table_release(dck_affinity_table *table) { delete table; }

extern "C" int dck_affinity_rows(const dck_affinity_table *table, const uint8_t *guide, size_t guide_step, int cols,
                                 int rows, int channels, float *right, float *below, int y0, int y1, dck_error *err) {
    return guarded(err, [&]() -> int {
        if (!table || !guide || !right || !below) return fail(err, DCK_ERR_ARGUMENT, "affinities: a buffer is NULL");
        if (channels != 1 && channels != 3) return fail(err, DCK_ERR_ARGUMENT, "the guide must have 1 or 3 channels");
        if (cols < 1 || rows < 1 || guide_step < (size_t)cols * channels)
            return fail(err, DCK_ERR_ARGUMENT, "affinities: bad size or step");
        if (int status = check_rows(y0, y1, rows, "affinities", err)) return status;
        const float *all = table->table->all.data();
        if (channels == 3)
            fill_affinities<3>(guide, guide_step, cols, rows, all, right, below, y0, y1);
        else
            fill_affinities<1>(guide, guide_step, cols, rows, all, right, below, y0, y1);
        return DCK_OK;
    });
}

/// The column solves run row by row so that the inner loops run along memory
/// and vectorize (OpenCV's VerticalPass_ParBody; its horizontal pass is the
/// same recursion along rows).
extern "C" DCK_MULTIVERSION void dck_solve_columns(const float *__restrict c, int rows, int cols, float lambda,
                                                   float *__restrict a, float *__restrict b,
                                                   float *__restrict scratch, int x0, int x1) {
    for (int x = x0; x < x1; ++x) {
        const float coef = lambda * c[x];
        const float inv = 1.f / (1.f - coef);
        scratch[x] = coef * inv;
        a[x] *= inv;
        b[x] *= inv;
    }
    const int n = x1 - x0;
    for (int y = 1; y < rows; ++y) {
        const size_t o = static_cast<size_t>(y) * cols + x0, q = o - cols;
        forward_row(c + q, c + o, scratch + q, scratch + o, a + q, a + o, b + q, b + o, lambda, n);
    }
    for (int y = rows - 2; y >= 0; --y) {
        const size_t o = static_cast<size_t>(y) * cols + x0, next = o + cols;
        backward_row(scratch + o, a + o, a + next, b + o, b + next, n);
    }
}

/// Branch-free so that it vectorizes: x - x is 0 only for finite x.
extern "C" DCK_MULTIVERSION void dck_fill_weigh(const float *__restrict v, const float *__restrict logs,
                                                const float *__restrict weights, float max_weight,
                                                float *__restrict num, float *__restrict den, int n) {
    const float *f = logs ? logs : v;
    const float floor = logs ? 0.f : -std::numeric_limits<float>::infinity();
    for (int i = 0; i < n; ++i) {
        const float w = std::min(weights[i], max_weight);
        const bool ok = (v[i] - v[i] == 0.f) & (v[i] > floor) & (w - w == 0.f) & (w > 0.f);
        den[i] = ok ? w : 0.f;
        num[i] = ok ? w * f[i] : 0.f;
    }
}

extern "C" DCK_MULTIVERSION void dck_fill_normalize(float *__restrict num, const float *__restrict den, float floor,
                                                    int n) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int i = 0; i < n; ++i) num[i] = ((den[i] > floor) & (den[i] > 0.f)) ? num[i] / den[i] : nan;
}

extern "C" DCK_MULTIVERSION void dck_fill_normalize_support(float *__restrict num, const float *__restrict den,
                                                            float floor, int n) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int i = 0; i < n; ++i) num[i] = ((den[i] > floor) & (den[i] > 0.f)) ? num[i] : nan;
}

namespace {

/// Side of the square blocks the transpose moves (one AVX register per row).
constexpr int kBlock = 8;

/// The transpose of the block rows y0..<y1, columns x0..<x1, element by element.
void transpose_scalar(const float *src, int rows, int cols, float *dst, int y0, int y1, int x0, int x1) {
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) dst[static_cast<size_t>(x) * rows + y] = src[static_cast<size_t>(y) * cols + x];
}

#ifdef DCK_TRANSPOSE_AVX
/// One 8x8 block (rows `s`, `ss` floats apart) to `d` (rows `ds` apart): the
/// usual unpack, shuffle and lane-permute network, data movement only.
__attribute__((target("avx"))) inline void transpose_block_avx(const float *s, size_t ss, float *d, size_t ds) {
    __m256 r[kBlock], t[kBlock];
    for (int i = 0; i < kBlock; ++i) r[i] = _mm256_loadu_ps(s + i * ss);
    for (int i = 0; i < kBlock; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < kBlock; i += 4) {
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int i = 0; i < 4; ++i) {
        _mm256_storeu_ps(d + i * ds, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
        _mm256_storeu_ps(d + (i + 4) * ds, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
    }
}

__attribute__((target("avx"))) void transpose_avx(const float *src, int rows, int cols, float *dst) {
    const int by = rows / kBlock * kBlock, bx = cols / kBlock * kBlock;
    for (int y = 0; y < by; y += kBlock)
        for (int x = 0; x < bx; x += kBlock)
            transpose_block_avx(src + static_cast<size_t>(y) * cols + x, cols, dst + static_cast<size_t>(x) * rows + y, rows);
    transpose_scalar(src, rows, cols, dst, 0, by, bx, cols);
    transpose_scalar(src, rows, cols, dst, by, rows, 0, cols);
}

#endif

}  // namespace

/// The fill's solves alternate directions on transposed copies: blocks of
/// 8x8 in registers where the CPU has AVX (OpenCV's transpose of 32-bit
/// elements moves them one at a time).
extern "C" void dck_transpose(const float *src, int rows, int cols, float *dst) {
#ifdef DCK_TRANSPOSE_AVX
    if (cpu_has_avx()) {
        transpose_avx(src, rows, cols, dst);
        return;
    }
#endif
    for (int y = 0; y < rows; y += kBlock)
        for (int x = 0; x < cols; x += kBlock)
            transpose_scalar(src, rows, cols, dst, y, std::min(rows, y + kBlock), x, std::min(cols, x + kBlock));
}
