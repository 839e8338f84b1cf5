// Symmetric ZNCC Lucas-Kanade subpixel refinement of SGBM disparities.
//
// Written by hand because OpenCV has no subpixel stereo refinement beyond
// SGBM's parabola fit (which locks values towards whole pixels). The window
// loops are flattened over a window padded to a multiple of 8 elements and
// written branch-free, so the compiler vectorizes them; they read the window
// from row-by-row copies and the resampled match image from an interleaved
// copy (`MatchQuads`), not through element-by-element gathers. `refine_rows`
// is compiled twice on x86-64 (AVX2+FMA and the baseline, DCK_MULTIVERSION),
// the loader picks the one the CPU runs.
#include "kernel_common.hpp"
#include "refine_window.hpp"
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace dualcam_kernels {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// Gauss-Newton steps per pixel: SGBM's value is within a pixel, two steps
/// reach the noise floor of a match; more chase the noise.
constexpr int kIterations = 2;
/// Largest Gauss-Newton step (px): the linearisation of the images holds for
/// a fraction of a pixel, so a step is kept within half of one.
constexpr double kMaxStep = 0.5;
/// Largest total correction of the SGBM value (px): SGBM is within a pixel or
/// so of the truth; a fit that wanders farther has locked onto other texture.
constexpr double kMaxCorrection = 1.5;
/// A step below this (px) ends the iteration: it is below the noise of a match.
constexpr double kConverged = 0.01;
/// Smallest intensity standard deviation (grey levels) of a window: flatter
/// windows have no defined ZNCC.
constexpr double kMinIntensitySigma = 1e-3;
/// Smallest Gauss-Newton curvature sum(w j^2): below it the window has no
/// gradient along the row and the step is undefined.
constexpr double kMinCurvature = 1e-12;
/// Pixels refined together (`refine_pixels`): two keep the core busy during
/// each other's Gauss-Newton arithmetic; more gained nothing.
constexpr int kBatch = 2;

struct RowJob {
    const View *view;
    float *ref, *conf;
    float *sigma;         // NULL: no noise prediction
    const uint8_t *mask;  // NULL: every pixel
    WindowView window;
    size_t stride;
    double minZncc;
};

/// The ZNCC and Gauss-Newton quantities of one iteration from the window's
/// moments: the residual nb - nm = A (b - mb) - B (m - mm) with A = 1/sigma_b,
/// B = 1/sigma_m, and its Jacobian j = sign (A bx + B mx) / 2 (each image
/// moves by half the correction), give sum(w j res), sum(w j^2) and the
/// correlation in closed form. Returns false when the window is flat.
inline __attribute__((always_inline)) bool gauss_newton_step(const Moments &s, float sw, float sign, double &step,
                                                             double &corr, double &gradEnergy, double &curvature) {
    const double mb = s.b / sw, mm = s.m / sw;
    const double vb = std::max(0.0, s.bb - s.b * mb), vm = std::max(0.0, s.mm - s.m * mm);
    const double sb = std::sqrt(vb / sw), sm = std::sqrt(vm / sw);
    gradEnergy = s.bxbx / sw;
    if (sb < kMinIntensitySigma || sm < kMinIntensitySigma) return false;
    const double A = 1 / sb, B = 1 / sm;
    const double jr = 0.5 * sign *
                      (A * A * (s.bxb - mb * s.bx) - A * B * (s.bxm - mm * s.bx) + A * B * (s.mxb - mb * s.mx) -
                       B * B * (s.mxm - mm * s.mx));
    const double jj = 0.25 * (A * A * s.bxbx + 2 * A * B * s.bxmx + B * B * s.mxmx);
    corr = A * B * (s.bm - s.b * mm) / sw;
    curvature = jj;
    if (jj < kMinCurvature) return false;
    step = std::clamp(-jr / jj, -kMaxStep, kMaxStep);
    return true;
}

/// One pixel's fit in progress (a trivial aggregate, see `Moments`).
template <int R>
struct PixelFit {
    float weights[Window<R>::padded];
    float d0, sw, centre, cm, ay, ax;
    int x, p0;
    double delta, corr, gradEnergy;
    double curvature;  // sum(w j^2) of the last step
    bool running;  // false once converged
};

/// Starts refining one pixel's disparity d: the window's disparity follows a
/// plane d0 + delta + gx dx + gy dy (`plane_slopes`); both images move by half
/// the correction (base by +delta/2, match by -delta/2), so neither image's
/// interpolation biases the result. Intensities are normalised per window
/// (gain and offset free); the weights are `window_weights`'. Returns false
/// when the fit fails.
template <int R>
inline __attribute__((always_inline)) bool fit_begin(const View &v, const WindowView &win, int x, int y, float d,
                                                     PixelFit<R> &f) {
    constexpr int P = Window<R>::padded;
    if (x - R < 0 || y - R < 0 || x + R >= v.cols || y + R >= v.rows) return false;
    f.x = x;
    f.p0 = y * v.stride + x;
    f.d0 = d;
    float disparity[P], base[P];
    window_copy<R>(v.disparity + f.p0, v.stride, disparity);
    window_copy<R>(v.base + f.p0, v.stride, base);
    double gx = 0, gy = 0;
    plane_slopes<R>(disparity, win, d, gx, gy);
    f.centre = v.base[f.p0];
    f.sw = window_weights<R>(disparity, base, win, d, (float)gx, (float)gy, f.centre, f.weights);
    if (f.sw < kMinWeightSum) return false;
    // Intensities are centred on the window centre's (float sums of up to 441
    // centred terms keep far more precision than the ZNCC needs).
    f.cm = v.match[y * v.stride + std::clamp(x - (int)std::lround(v.sign * d), 0, v.cols - 1)];
    f.ay = (float)(-v.sign * gy);
    f.ax = (float)(1.0 - v.sign * gx);  // ax >= 0.5
    f.delta = 0; f.corr = -1; f.gradEnergy = 0; f.curvature = 0;
    f.running = true;
    return true;
}

/// One Gauss-Newton step of a running fit; false when the fit fails.
template <int R>
inline __attribute__((always_inline)) bool fit_step(const View &v, const WindowView &win, PixelFit<R> &f) {
    Moments s;
    if (!window_moments<R>(v, win, f.x, f.p0, f.d0, f.delta, f.ay, f.ax, f.centre, f.cm, f.weights, s)) return false;
    double step = 0;
    if (!gauss_newton_step(s, f.sw, v.sign, step, f.corr, f.gradEnergy, f.curvature)) return false;
    f.delta += step;
    if (std::fabs(f.delta) > kMaxCorrection) return false;
    f.running = std::fabs(step) >= kConverged;
    return true;
}

/// The fit's predicted disparity standard deviation (px), `dck_refine_rows`'
/// formula: sqrt(2 (1 - zncc) (sum w^2 / sum w) / sum(w j^2)), with the ZNCC
/// and the curvature of its last Gauss-Newton step.
template <int R>
inline float predicted_sigma(const PixelFit<R> &f) {
    float sw2 = 0;
    {
        // Reassociated so the sum vectorizes (a strict left-to-right float
        // sum is one dependent add per element).
#pragma clang fp reassociate(on)
        for (int i = 0; i < Window<R>::padded; ++i) sw2 += f.weights[i] * f.weights[i];
    }
    const double residual = std::max(0.0, 2 * (1 - f.corr));
    return (float)std::sqrt(residual * (sw2 / f.sw) / std::max(f.curvature, kMinCurvature));
}

/// Refines the disparities d[xs[i]] of row y (i < count <= kBatch) and scales
/// their confidences c[xs[i]]; a failed fit or one below the job's ZNCC
/// floor leaves NaN with confidence 0. The fits' steps alternate: one fit's
/// Gauss-Newton arithmetic (a chain of dependent divisions and square roots)
/// then runs while the next fit's window sums are computed.
template <int R>
inline __attribute__((always_inline)) void refine_pixels(const RowJob &job, int y, const int *xs, int count,
                                                         float *d, float *c) {
    const View &v = *job.view;
    PixelFit<R> fits[kBatch];
    bool ok[kBatch] = {};
    for (int i = 0; i < count; ++i) ok[i] = fit_begin<R>(v, job.window, xs[i], y, d[xs[i]], fits[i]);
    for (int iteration = 0; iteration < kIterations; ++iteration)
        for (int i = 0; i < count; ++i)
            if (ok[i] && fits[i].running) ok[i] = fit_step<R>(v, job.window, fits[i]);
    for (int i = 0; i < count; ++i) {
        const PixelFit<R> &f = fits[i];
        const int x = xs[i];
        const float zncc = ok[i] ? (float)f.corr : 0;
        if (!ok[i] || zncc < job.minZncc) {
            d[x] = kNaN; c[x] = 0;
            continue;
        }
        d[x] = (float)(f.d0 + f.delta);
        const float texture = (float)(1.0 - std::exp(-f.gradEnergy / ((double)v.textureSigma * v.textureSigma)));
        const double cz = std::clamp((zncc - job.minZncc) / (1.0 - job.minZncc), 0.0, 1.0);
        c[x] = (float)(c[x] * cz * texture);
        if (job.sigma) job.sigma[(size_t)y * job.stride + x] = predicted_sigma<R>(f);
    }
}

template <int R>
inline __attribute__((always_inline)) void refine_range(const RowJob &job, int y0, int y1) {
    const View &v = *job.view;
    for (int y = y0; y < y1; ++y) {
        float *d = job.ref + (size_t)y * job.stride;
        float *c = job.conf + (size_t)y * job.stride;
        const uint8_t *mask = job.mask ? job.mask + (size_t)y * job.stride : nullptr;
        int xs[kBatch], count = 0;
        for (int x = 0; x < v.cols; ++x) {
            if (std::isnan(d[x]) || (mask && !mask[x])) continue;
            xs[count++] = x;
            if (count == kBatch) { refine_pixels<R>(job, y, xs, count, d, c); count = 0; }
        }
        if (count > 0) refine_pixels<R>(job, y, xs, count, d, c);
    }
}

/// Rows y0..<y1 for the job's radius (compiled per radius so the window
/// loops have constant trip counts).
DCK_MULTIVERSION
void refine_rows(const RowJob &job, int radius, int y0, int y1) {
    switch (radius) {
        case 1: refine_range<1>(job, y0, y1); break;
        case 2: refine_range<2>(job, y0, y1); break;
        case 3: refine_range<3>(job, y0, y1); break;
        case 4: refine_range<4>(job, y0, y1); break;
        case 5: refine_range<5>(job, y0, y1); break;
        case 6: refine_range<6>(job, y0, y1); break;
        case 7: refine_range<7>(job, y0, y1); break;
        case 8: refine_range<8>(job, y0, y1); break;
        case 9: refine_range<9>(job, y0, y1); break;
        default: refine_range<10>(job, y0, y1); break;
    }
}

int check_job(const dck_refine_job *job, int y0, int y1, dck_error *err) {
    if (!job) return fail(err, DCK_ERR_ARGUMENT, "refinement job is NULL");
    const dck_refine_job &j = *job;
    if (!j.base || !j.match || !j.base_dx || !j.match_dx || !j.disparity || !j.ref || !j.conf)
        return fail(err, DCK_ERR_ARGUMENT, "refinement: a buffer is NULL");
    if (j.cols < 1 || j.rows < 1 || j.stride < (size_t)j.cols)
        return fail(err, DCK_ERR_ARGUMENT, "refinement: bad image size or stride");
    if (j.radius < 1 || j.radius > kMaxRadius)
        return fail(err, DCK_ERR_ARGUMENT, "the refinement radius must be 1 to 10, got " + std::to_string(j.radius));
    if (!(j.min_zncc < 1) || !(j.texture_sigma > 0))
        return fail(err, DCK_ERR_ARGUMENT, "refinement needs min_zncc below 1 and a positive texture sigma");
    return check_rows(y0, y1, j.rows, "refinement", err);
}

}  // namespace
}  // namespace dualcam_kernels

using namespace dualcam_kernels;

extern "C" int dck_refine_rows(const dck_refine_job *job, int y0, int y1, dck_error *err) {
    return guarded_rows(job, y0, y1, err, check_job, [](const dck_refine_job &j, int from, int to) {
        // The rows the windows of rows from..<to reach.
        const int row0 = std::max(0, from - j.radius), row1 = std::min(j.rows, to + j.radius);
        const MatchQuads quads(j.match, j.match_dx, j.cols, (int)j.stride, row0, std::max(row0, row1));
        const View view{j.base, j.match, j.base_dx, j.disparity, j.cols, j.rows, (int)j.stride, j.sign,
                        (float)j.texture_sigma, quads.values.data(), row0};
        const WindowTable window(j.radius, j.cols);
        const RowJob rows{&view, j.ref, j.conf, j.sigma, j.mask,
                          WindowView{window.dx.data(), window.dy.data(), window.inside.data(),
                                     window.quadRel.data()},
                          j.stride, j.min_zncc};
        refine_rows(rows, j.radius, from, to);
    });
}
