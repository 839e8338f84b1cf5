// A fast-global-smoother solver whose guide affinities are computed once and
// shared by many fills (see dc_edge_solver_* in dualcam_opencv_edge_aware.h).
//
// Written by hand because OpenCV's FastGlobalSmootherFilter (ximgproc) ties
// the affinities to one lambda: every filter object rebuilds a 196608-entry
// exp table and both affinity maps, and filters each channel on its own.
// Depth fusion runs five confidence-weighted fills on three guides per frame,
// each needing FGS(w v) and FGS(w) with the same coefficients; here the
// affinities are made once per guide (from a table, not an exp per pixel
// pair), one elimination serves both channels, and the horizontal solve runs
// on transposed data so that both directions vectorize. The arithmetic is
// OpenCV's (Min et al. 2014, separable 1-D solves of (I + lambda L) u = f,
// lambda times `attenuation` per iteration),
// so results match cv::ximgproc::fastGlobalSmootherFilter to float rounding
// (tested against it).
#include "dualcam_opencv_edge_aware.h"
#include "shim_imgproc.hpp"
#include <opencv2/core/utility.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace dualcam_shim;

struct dc_edge_solver {
    int rows = 0, cols = 0;
    // Negative affinities -exp(-|g_p - g_q| / sigma) to the right (horizontal,
    // 0 in the last column) and below (vertical, 0 in the last row), as OpenCV's Chor/Cvert.
    std::vector<float> right, below;
    // `right` transposed (cols x rows), so the horizontal solve runs as a
    // vertical one on transposed data, vectorized across rows.
    std::vector<float> right_transposed;
    // Work buffers reused across fills (fresh ones cost a page fault per 4 KiB
    // on every fill); `busy` keeps concurrent fills on separate buffers.
    std::mutex busy;
    cv::Mat transposed_a, transposed_b, scratch;
};

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

/// The 1-D solves along the columns [x0, x1) of a rows x cols layout for
/// two right-hand sides sharing the coefficients c (affinity to the next
/// row), row by row so that the inner loops run along memory and vectorize
/// (OpenCV's VerticalPass_ParBody; its horizontal pass is the same
/// recursion along rows).
__attribute__((target_clones("arch=x86-64-v3", "default")))
void solve_columns(const float *__restrict c, int rows, int cols, float lambda, float *__restrict a,
                   float *__restrict b, float *__restrict scratch, int x0, int x1) {
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

/// num = w f and den = w where v and w are finite and w > 0, else 0, with
/// f = v, or f = logs (log v; then v must also be positive) when `logs` is
/// given (branch-free so that it vectorizes: x - x is 0 only for finite x).
__attribute__((target_clones("arch=x86-64-v3", "default")))
void weigh(const float *__restrict v, const float *__restrict logs, const float *__restrict w, float *__restrict num,
           float *__restrict den, int n) {
    const float *f = logs ? logs : v;
    const float floor = logs ? 0.f : -std::numeric_limits<float>::infinity();
    for (int i = 0; i < n; ++i) {
        const bool ok = (v[i] - v[i] == 0.f) & (v[i] > floor) & (w[i] - w[i] == 0.f) & (w[i] > 0.f);
        den[i] = ok ? w[i] : 0.f;
        num[i] = ok ? w[i] * f[i] : 0.f;
    }
}

/// num = num / den where den > floor (and > 0), NaN elsewhere, in place.
__attribute__((target_clones("arch=x86-64-v3", "default")))
void normalize(float *__restrict num, const float *__restrict den, float floor, int n) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int i = 0; i < n; ++i) num[i] = ((den[i] > floor) & (den[i] > 0.f)) ? num[i] / den[i] : nan;
}

/// num = NaN where den <= floor (or <= 0), unchanged elsewhere.
__attribute__((target_clones("arch=x86-64-v3", "default")))
void normalize_support(float *__restrict num, const float *__restrict den, float floor, int n) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (int i = 0; i < n; ++i) num[i] = ((den[i] > floor) & (den[i] > 0.f)) ? num[i] : nan;
}

/// solve_columns over all columns of the layout, in column stripes on OpenCV's threads.
void solve_all_columns(const float *c, int rows, int cols, float lambda, float *a, float *b, float *scratch) {
    const int stripes = std::max(1, std::min(cv::getNumThreads(), cols / 16));
    cv::parallel_for_(cv::Range(0, stripes), [&](const cv::Range &range) {
        for (int s = range.start; s < range.end; ++s)
            solve_columns(c, rows, cols, lambda, a, b, scratch, s * cols / stripes, (s + 1) * cols / stripes);
    });
}

/// -exp(-sqrt(d2) / sigma) for squared 8-bit colour distances d2 (what
/// OpenCV's table holds): exact from a table for d2 < 1024 (most neighbour
/// pairs), beyond that tabulated over the distance in 1/16 steps and
/// interpolated linearly (relative error below 1e-5 for sigma >= 1); table
/// reads instead of an exp per pixel pair.
struct AffinityTable {
    static constexpr float kStep = 1.f / 16;
    std::vector<float> table;
    explicit AffinityTable(double sigma) {
        const int n = static_cast<int>(std::ceil(std::sqrt(3.0 * 255 * 255) / kStep)) + 2;
        table.resize(n);
        for (int i = 0; i < n; ++i) table[i] = static_cast<float>(-std::exp(-(i * kStep) / sigma));
        near.resize(kNear);
        for (int i = 0; i < kNear; ++i) near[i] = static_cast<float>(-std::exp(-std::sqrt(static_cast<double>(i)) / sigma));
    }
    /// exp(-sqrt(d2) / sigma) for the small distances that make up most of an image, exactly.
    std::vector<float> near;
    static constexpr int kNear = 1024;
    float operator()(int d2) const {
        if (d2 < kNear) return near[d2];
        const float t = std::sqrt(static_cast<float>(d2)) * (1.f / kStep);
        const int i = static_cast<int>(t);
        const float f = t - i;
        return table[i] + f * (table[i + 1] - table[i]);
    }
    /// operator()(d2) for every 3-channel 8-bit d2 (0 ... 3 * 255^2, 762 KiB),
    /// filled on creation: textured guides put many neighbour pairs beyond
    /// kNear, where the square root and interpolation per pair took most of
    /// a solver's creation. Same values, read from memory.
    std::vector<float> all;
    static constexpr int kAll = 3 * 255 * 255 + 1;
    void fill_all() {
        all.resize(kAll);
        for (int d2 = 0; d2 < kAll; ++d2) all[d2] = (*this)(d2);
    }
};

/// The table for one sigma, built once per process: building it costs
/// about 8000 exps (~0.1 ms), and fusion makes three solvers per frame with
/// the same few sigmas. Kept for the process's lifetime (a handful of sigmas).
std::shared_ptr<const AffinityTable> affinity_table(double sigma) {
    static std::mutex lock;
    static std::vector<std::pair<double, std::shared_ptr<const AffinityTable>>> tables;
    {
        std::lock_guard<std::mutex> guard(lock);
        for (const auto &entry : tables)
            if (entry.first == sigma) return entry.second;
    }
    auto table = std::make_shared<AffinityTable>(sigma);
    table->fill_all();
    std::shared_ptr<const AffinityTable> made = table;
    std::lock_guard<std::mutex> guard(lock);
    for (const auto &entry : tables)
        if (entry.first == sigma) return entry.second;
    // Bounded: beyond 16 sigmas (not a fusion pattern) tables are not kept.
    if (tables.size() < 16) tables.emplace_back(sigma, made);
    return made;
}

/// The affinities to the right and below of every pixel of an 8-bit guide
/// with CH channels (0 past the last column / row), rows on OpenCV's
/// threads; the channel count is a template parameter so that the
/// per-pixel distance unrolls.
template <int CH>
void fill_affinities(const cv::Mat &g, const AffinityTable &affinity, float *right, float *below) {
    const int h = g.rows, w = g.cols;
    const float *all = affinity.all.data();
    cv::parallel_for_(cv::Range(0, h), [&](const cv::Range &range) {
        for (int y = range.start; y < range.end; ++y) {
            const uint8_t *row = g.ptr<uint8_t>(y), *next = y + 1 < h ? g.ptr<uint8_t>(y + 1) : nullptr;
            float *r = right + static_cast<size_t>(y) * w, *b = below + static_cast<size_t>(y) * w;
            for (int x = 0; x + 1 < w; ++x) {
                const uint8_t *p = row + x * CH;
                int d2 = 0;
                for (int k = 0; k < CH; ++k) { const int d = p[k] - p[CH + k]; d2 += d * d; }
                r[x] = all[d2];
            }
            if (!next) continue;
            for (int x = 0; x < w; ++x) {
                const uint8_t *p = row + x * CH, *q = next + x * CH;
                int d2 = 0;
                for (int k = 0; k < CH; ++k) { const int d = p[k] - q[k]; d2 += d * d; }
                b[x] = all[d2];
            }
        }
    });
}

}  // namespace

extern "C" int dc_edge_solver_create(const dc_mat *guide, double sigma_color, dc_edge_solver **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_edge_solver_create: out is NULL");
        *out = nullptr;
        if (!guide || guide->mat.empty()) return fail(err, DC_ERR_ARGUMENT, "guide image is NULL or empty");
        const cv::Mat &g = guide->mat;
        if (g.depth() != CV_8U || (g.channels() != 1 && g.channels() != 3))
            return fail(err, DC_ERR_ARGUMENT, "the guide must be 8-bit with 1 or 3 channels");
        if (!(sigma_color > 0) || !std::isfinite(sigma_color)) return fail(err, DC_ERR_ARGUMENT, "sigma_color must be positive");
        auto solver = std::make_unique<dc_edge_solver>();
        const int h = g.rows, w = g.cols, ch = g.channels();
        solver->rows = h;
        solver->cols = w;
        solver->right.assign(static_cast<size_t>(h) * w, 0.f);
        solver->below.assign(static_cast<size_t>(h) * w, 0.f);
        // One table per sigma (AffinityTable) instead of an exp per pixel pair.
        const std::shared_ptr<const AffinityTable> table = affinity_table(sigma_color);
        const AffinityTable &affinity = *table;
        if (ch == 3)
            fill_affinities<3>(g, affinity, solver->right.data(), solver->below.data());
        else
            fill_affinities<1>(g, affinity, solver->right.data(), solver->below.data());
        solver->right_transposed.resize(solver->right.size());
        cv::transpose(cv::Mat(h, w, CV_32FC1, solver->right.data()),
                      cv::Mat(w, h, CV_32FC1, solver->right_transposed.data()));
        *out = solver.release();
        return DC_OK;
    });
}

extern "C" void dc_edge_solver_free(dc_edge_solver *solver) { delete solver; }

extern "C" int dc_edge_solver_fill(const dc_edge_solver *solver, const dc_mat *values, const dc_mat *weights, double lambda,
                                   double lambda_attenuation, int iterations, double min_weight, int log_domain,
                                   dc_mat **out, dc_mat **weight_out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_edge_solver_fill: out is NULL");
        *out = nullptr;
        if (weight_out) *weight_out = nullptr;
        if (!solver) return fail(err, DC_ERR_ARGUMENT, "dc_edge_solver_fill: solver is NULL");
        for (const dc_mat *m : {values, weights}) {
            if (!m || m->mat.empty() || m->mat.type() != CV_32FC1)
                return fail(err, DC_ERR_ARGUMENT, "values and weights must be non-empty float32 1-channel matrices");
            if (m->mat.rows != solver->rows || m->mat.cols != solver->cols)
                return fail(err, DC_ERR_ARGUMENT,
                            "values/weights are " + std::to_string(m->mat.cols) + "x" + std::to_string(m->mat.rows) +
                                " but the solver's guide is " + std::to_string(solver->cols) + "x" +
                                std::to_string(solver->rows));
        }
        if (!(lambda > 0) || !(lambda_attenuation >= 0) || iterations < 1)
            return fail(err, DC_ERR_ARGUMENT, "lambda must be positive, lambda_attenuation >= 0, iterations at least 1");
        const int h = solver->rows, w = solver->cols;
        cv::Mat numerator(h, w, CV_32FC1), denominator(h, w, CV_32FC1);
        // In the log domain the fill runs on log v (cv::log, vectorized), and
        // only positive values count.
        cv::Mat logs;
        if (log_domain) {
            cv::max(values->mat, 1e-30f, logs);
            cv::log(logs, logs);
        }
        for (int y = 0; y < h; ++y)
            weigh(values->mat.ptr<float>(y), log_domain ? logs.ptr<float>(y) : nullptr, weights->mat.ptr<float>(y),
                  numerator.ptr<float>(y), denominator.ptr<float>(y), w);
        dc_edge_solver &mutable_solver = const_cast<dc_edge_solver &>(*solver);
        std::unique_lock<std::mutex> lock(mutable_solver.busy, std::try_to_lock);
        cv::Mat own_at, own_bt, own_scratch;
        cv::Mat &at = lock.owns_lock() ? mutable_solver.transposed_a : own_at;
        cv::Mat &bt = lock.owns_lock() ? mutable_solver.transposed_b : own_bt;
        cv::Mat &scratch = lock.owns_lock() ? mutable_solver.scratch : own_scratch;
        at.create(w, h, CV_32FC1);
        bt.create(w, h, CV_32FC1);
        scratch.create(h, w, CV_32FC1);
        float l = static_cast<float>(lambda);
        for (int it = 0; it < iterations; ++it) {
            cv::transpose(numerator, at);
            cv::transpose(denominator, bt);
            solve_all_columns(solver->right_transposed.data(), w, h, l, at.ptr<float>(), bt.ptr<float>(), scratch.ptr<float>());
            cv::transpose(at, numerator);
            cv::transpose(bt, denominator);
            solve_all_columns(solver->below.data(), h, w, l, numerator.ptr<float>(), denominator.ptr<float>(), scratch.ptr<float>());
            l *= static_cast<float>(lambda_attenuation);
        }
        // numerator and denominator are continuous (allocated above).
        normalize(numerator.ptr<float>(), denominator.ptr<float>(), static_cast<float>(min_weight), h * w);
        if (log_domain) {
            // exp of the filled logs (cv::exp is vectorized but does not keep
            // NaN), then NaN again where the fill had no support.
            cv::exp(numerator, numerator);
            normalize_support(numerator.ptr<float>(), denominator.ptr<float>(), static_cast<float>(min_weight), h * w);
        }
        if (int status = emit(std::move(numerator), out, err)) return status;
        if (weight_out) *weight_out = new dc_mat{std::move(denominator)};
        return DC_OK;
    });
}
