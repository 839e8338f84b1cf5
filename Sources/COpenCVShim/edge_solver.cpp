// A fast-global-smoother solver whose guide affinities are computed once and
// shared by many fills (see dc_edge_solver_* in dualcam_opencv_edge_aware.h).
// The arithmetic (affinities, 1-D solves, weighting, normalisation) and the
// transposes between the vertical and the horizontal solves are
// CDualcamKernels' (dualcam_kernels_fill.h, which says why they are
// hand-written); OpenCV takes logarithms and exponentials (vectorized) and
// runs the stripes on its threads.
#include "dualcam_opencv_edge_aware.h"
#include "shim_imgproc.hpp"
#include "shim_kernels.hpp"
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

/// Columns per stripe at least: narrower stripes cost more in thread
/// hand-off than their solves.
constexpr int kMinStripeColumns = 16;
/// Smallest value whose logarithm the log-domain fill takes: only positive
/// values count there, and this keeps log() finite for the others.
constexpr float kLogFloor = 1e-30f;

/// dck_solve_columns over all columns of the layout, in column stripes on OpenCV's threads.
void solve_all_columns(const float *c, int rows, int cols, float lambda, float *a, float *b, float *scratch) {
    const int stripes = std::max(1, std::min(cv::getNumThreads(), cols / kMinStripeColumns));
    cv::parallel_for_(cv::Range(0, stripes), [&](const cv::Range &range) {
        for (int s = range.start; s < range.end; ++s)
            dck_solve_columns(c, rows, cols, lambda, a, b, scratch, s * cols / stripes, (s + 1) * cols / stripes);
    });
}

int check_fill(const dc_edge_solver *solver, const dc_mat *values, const dc_mat *weights, double lambda,
               double lambda_attenuation, int iterations, dc_error *err) {
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
    return DC_OK;
}

/// The iterations of the separable solve on FGS(w v) (`numerator`) and
/// FGS(w) (`denominator`): horizontal (on transposed data), then vertical,
/// lambda times `attenuation` per iteration.
void solve(const dc_edge_solver &solver, cv::Mat &numerator, cv::Mat &denominator, double lambda,
           double attenuation, int iterations) {
    const int h = solver.rows, w = solver.cols;
    dc_edge_solver &mutable_solver = const_cast<dc_edge_solver &>(solver);
    std::unique_lock<std::mutex> lock(mutable_solver.busy, std::try_to_lock);
    cv::Mat own_at, own_bt, own_scratch;
    cv::Mat &at = lock.owns_lock() ? mutable_solver.transposed_a : own_at;
    cv::Mat &bt = lock.owns_lock() ? mutable_solver.transposed_b : own_bt;
    cv::Mat &scratch = lock.owns_lock() ? mutable_solver.scratch : own_scratch;
    at.create(w, h, CV_32FC1);
    bt.create(w, h, CV_32FC1);
    scratch.create(h, w, CV_32FC1);
    CV_Assert(numerator.isContinuous() && denominator.isContinuous() && at.isContinuous() && bt.isContinuous());
    float l = static_cast<float>(lambda);
    for (int it = 0; it < iterations; ++it) {
        dck_transpose(numerator.ptr<float>(), h, w, at.ptr<float>());
        dck_transpose(denominator.ptr<float>(), h, w, bt.ptr<float>());
        solve_all_columns(solver.right_transposed.data(), w, h, l, at.ptr<float>(), bt.ptr<float>(), scratch.ptr<float>());
        dck_transpose(at.ptr<float>(), w, h, numerator.ptr<float>());
        dck_transpose(bt.ptr<float>(), w, h, denominator.ptr<float>());
        solve_all_columns(solver.below.data(), h, w, l, numerator.ptr<float>(), denominator.ptr<float>(), scratch.ptr<float>());
        l *= static_cast<float>(attenuation);
    }
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
        const int h = g.rows, w = g.cols;
        solver->rows = h;
        solver->cols = w;
        solver->right.assign(static_cast<size_t>(h) * w, 0.f);
        solver->below.assign(static_cast<size_t>(h) * w, 0.f);
        dck_affinity_table *acquired = nullptr;
        dck_error e{};
        if (int status = dck_affinity_table_acquire(sigma_color, &acquired, &e)) return kernel_status(status, e, err);
        const std::unique_ptr<dck_affinity_table, void (*)(dck_affinity_table *)> table(acquired, dck_affinity_table_release);
        if (int status = parallel_kernel(cv::Range(0, h), err, [&](int y0, int y1, dck_error *ke) {
                return dck_affinity_rows(table.get(), g.ptr<uint8_t>(), g.step[0], w, h, g.channels(),
                                         solver->right.data(), solver->below.data(), y0, y1, ke);
            }))
            return status;
        solver->right_transposed.resize(solver->right.size());
        dck_transpose(solver->right.data(), h, w, solver->right_transposed.data());
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
        if (int status = check_fill(solver, values, weights, lambda, lambda_attenuation, iterations, err)) return status;
        const int h = solver->rows, w = solver->cols;
        cv::Mat numerator(h, w, CV_32FC1), denominator(h, w, CV_32FC1);
        // In the log domain the fill runs on log v (cv::log, vectorized), and
        // only positive values count.
        cv::Mat logs;
        if (log_domain) {
            cv::max(values->mat, kLogFloor, logs);
            cv::log(logs, logs);
        }
        const float noCap = std::numeric_limits<float>::infinity();
        for (int y = 0; y < h; ++y)
            dck_fill_weigh(values->mat.ptr<float>(y), log_domain ? logs.ptr<float>(y) : nullptr,
                           weights->mat.ptr<float>(y), noCap, numerator.ptr<float>(y), denominator.ptr<float>(y), w);
        solve(*solver, numerator, denominator, lambda, lambda_attenuation, iterations);
        // numerator and denominator are continuous (allocated above).
        const float floor = static_cast<float>(min_weight);
        dck_fill_normalize(numerator.ptr<float>(), denominator.ptr<float>(), floor, h * w);
        if (log_domain) {
            // exp of the filled logs (cv::exp is vectorized but does not keep
            // NaN), then NaN again where the fill had no support.
            cv::exp(numerator, numerator);
            dck_fill_normalize_support(numerator.ptr<float>(), denominator.ptr<float>(), floor, h * w);
        }
        if (int status = emit(std::move(numerator), out, err)) return status;
        if (weight_out) *weight_out = new dc_mat{std::move(denominator)};
        return DC_OK;
    });
}
