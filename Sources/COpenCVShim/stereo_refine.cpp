// Symmetric ZNCC Lucas-Kanade subpixel refinement of SGBM disparities.
//
// Written by hand because OpenCV has no subpixel stereo refinement beyond
// SGBM's parabola fit (which locks values towards whole pixels). The window
// loops are flattened over a window padded to a multiple of 8 elements and
// written branch-free, so the compiler vectorizes them (gathers for the
// resampled match image); `refine_rows` is compiled twice (AVX2+FMA and the
// baseline), the loader picks the one the CPU runs.
#include "stereo_refine.hpp"
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace dualcam_shim {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// Gauss-Newton steps per pixel, from SGBM's value (a third measured no more
/// accurate on the synthetic scenes: it chases noise; see DepthAcceptanceTests).
constexpr int kIterations = 2;

/// exp(x) for x <= 0 (clamped at -80, where it is below 2e-35): Cody-Waite
/// reduction to |r| <= ln2/2 and a degree-6 Taylor polynomial (relative error
/// below 1e-7). Written out because libm's expf does not vectorize.
inline __attribute__((always_inline)) float exp_nonpositive(float x) {
    x = std::max(x, -80.0f);
    const float n = __builtin_rintf(x * 1.44269504088896341f);
    float r = x - n * 0.693359375f;
    r = r + n * 2.12194440e-4f;
    const float p =
        1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720))))));
    const int32_t bits = ((int32_t)n + 127) << 23;
    return p * __builtin_bit_cast(float, bits);
}

/// Window sizes for radius R: (2R+1)^2 elements padded to a multiple of 8.
template <int R>
struct Window {
    static constexpr int side = 2 * R + 1;
    static constexpr int count = side * side;
    static constexpr int padded = (count + 7) / 8 * 8;
};

/// The window's element offsets, padded with zero-weight centre elements
/// (built outside the multiversioned code: clang does not emit template
/// members instantiated only inside target_clones functions).
struct WindowTable {
    std::vector<float> dx, dy, inside;
    std::vector<int> rel;
    WindowTable(int r, int cols) {
        const int side = 2 * r + 1, count = side * side, padded = (count + 7) / 8 * 8;
        dx.assign(padded, 0.0f); dy.assign(padded, 0.0f); inside.assign(padded, 0.0f);
        for (int k = 0; k < count; ++k) {
            dx[k] = (float)(k % side - r);
            dy[k] = (float)(k / side - r);
            inside[k] = 1.0f;
        }
        rel.resize(padded);
        for (int k = 0; k < padded; ++k) rel[k] = (int)dy[k] * cols + (int)dx[k];
    }
};

/// Raw pointers into a WindowTable.
struct WindowView {
    const float *dx, *dy, *inside;
    const int *rel;  // dy * cols + dx: the element's offset in the row-major image
};

/// Raw views of the inputs (all continuous float32 of one size).
struct View {
    const float *base, *match, *baseDx, *matchDx, *disparity;
    int cols, rows;
    float sign;
    float textureSigma;
};

/// Refines one pixel's disparity: the window's disparity follows a plane
/// d0 + delta + gx dx + gy dy, the slopes fitted to the neighbours' SGBM
/// disparities of the same surface; both images move by half the correction
/// (base by +delta/2, match by -delta/2), so neither image's interpolation
/// biases the result. Intensities are normalised per window (gain and offset
/// free). Window weights: same surface (Gaussian in the plane residual, sigma
/// 0.35 px, so small depth steps inside the window weigh little; none where
/// SGBM had no value, mostly the half-occluded strip beside a depth edge,
/// which would pull the window across the edge: measured with weight 0.25
/// there, the 3-px edge band's median error was 3-8 % higher) times a colour
/// Gaussian (sigma 40 levels) about the
/// centre. Returns false when the fit fails.
template <int R>
inline __attribute__((always_inline)) bool refine_pixel(const View &v, const WindowView &win, int x, int y, float &d,
                                                        float &zncc, float &texture) {
    constexpr int P = Window<R>::padded;
    const int cols = v.cols, rows = v.rows;
    if (x - R < 0 || y - R < 0 || x + R >= cols || y + R >= rows) return false;
    const int p0 = y * cols + x;
    const int *rel = win.rel;
    const float d0 = d;
    // Plane slopes from same-surface neighbours.
    float sxx = 0, sxy = 0, syy = 0, sxd = 0, syd = 0, n = 0;
    {
#pragma clang fp reassociate(on)
        for (int k = 0; k < P; ++k) {
            const float diff = v.disparity[p0 + rel[k]] - d0;
            const bool same = std::fabs(diff) <= 1.0f && win.inside[k] > 0;
            const float m = same ? 1.0f : 0.0f, dd = same ? diff : 0.0f;
            const float dx = win.dx[k], dy = win.dy[k];
            sxx += m * dx * dx; sxy += m * dx * dy; syy += m * dy * dy;
            sxd += dx * dd; syd += dy * dd; n += m;
        }
    }
    double gx = 0, gy = 0;
    const double det = (double)sxx * syy - (double)sxy * sxy;
    if (n >= 2 * R * R && det > 1e-9) {
        gx = std::clamp(((double)syy * sxd - (double)sxy * syd) / det, -0.5, 0.5);
        gy = std::clamp(((double)sxx * syd - (double)sxy * sxd) / det, -0.5, 0.5);
    }
    const float centre = v.base[p0];
    constexpr float kResidual = 1.0f / (2.0f * 0.35f * 0.35f), kColour = 1.0f / (2.0f * 40.0f * 40.0f);
    float weights[P];
    float sw = 0;
    const float fgx = (float)gx, fgy = (float)gy;
    {
#pragma clang fp reassociate(on)
        for (int k = 0; k < P; ++k) {
            const float dj = v.disparity[p0 + rel[k]];
            const float di = v.base[p0 + rel[k]] - centre;
            const float residual = dj - (d0 + fgx * win.dx[k] + fgy * win.dy[k]);
            const bool missing = dj != dj;
            const float colour = di * di * kColour;
            const float t = missing ? 0.0f : residual * residual * kResidual + colour;
            const float factor = !missing && std::fabs(residual) <= 1.0f ? 1.0f : 0.0f;
            const float w = win.inside[k] * factor * exp_nonpositive(-t);
            weights[k] = w;
            sw += w;
        }
    }
    if (sw < 1) return false;
    // Each iteration accumulates the weighted moments of the resampled
    // intensities b, m and gradients bx, mx in one pass; the ZNCC residual
    // nb - nm = A (b - mb) - B (m - mm) with A = 1/sigma_b, B = 1/sigma_m, and its
    // Jacobian j = sign (A bx + B mx) / 2, give sum(w j res), sum(w j^2) and
    // the correlation in closed form from these moments (no per-window arrays).
    // Intensities are centred on the window centre's (float sums of up to 441
    // centred terms keep far more precision than the ZNCC needs).
    const float cb = centre;
    const float cm = v.match[y * cols + std::clamp(x - (int)std::lround(v.sign * d0), 0, cols - 1)];
    const float ay = (float)(-v.sign * gy), ax = (float)(1.0 - v.sign * gx);  // ax >= 0.5
    double delta = 0, corr = -1, gradEnergy = 0;
    for (int iteration = 0; iteration < kIterations; ++iteration) {
        // The base moves by a whole window by the same shift: one integer
        // offset and one fraction for every element.
        const float shiftB = (float)(v.sign * delta / 2);
        const float floorB = std::floor(shiftB);
        const int offB = (int)floorB;
        const float fb = shiftB - floorB;
        if (x - R + offB < 0 || x + R + offB + 1 >= cols) return false;
        // Match positions xm = a0 + ay dy + ax dx: linear, so the corners bound them.
        const float a0 = (float)(x - v.sign * (d0 + delta / 2));
        const float reach = R * ax + R * std::fabs(ay);
        if (a0 - reach < 0 || a0 + reach >= cols - 1) return false;
        float Sb = 0, Sm = 0, Sbb = 0, Smm = 0, Sbm = 0, Sbx = 0, Smx = 0, Sbxbx = 0, Smxmx = 0, Sbxmx = 0;
        float Sbxb = 0, Sbxm = 0, Smxb = 0, Smxm = 0;
        {
#pragma clang fp reassociate(on)
            for (int k = 0; k < P; ++k) {
                const int ib = p0 + rel[k] + offB;
                const float b = v.base[ib] + fb * (v.base[ib + 1] - v.base[ib]) - cb;
                const float bx = v.baseDx[ib] + fb * (v.baseDx[ib + 1] - v.baseDx[ib]);
                const float xm = a0 + win.dy[k] * ay + win.dx[k] * ax;
                const int im = (int)xm;
                const float fm = xm - (float)im;
                const int jm = p0 - x + rel[k] - (int)win.dx[k] + im;
                const float m = v.match[jm] + fm * (v.match[jm + 1] - v.match[jm]) - cm;
                const float mx = v.matchDx[jm] + fm * (v.matchDx[jm + 1] - v.matchDx[jm]);
                const float w = weights[k];
                const float wb = w * b, wm = w * m, wbx = w * bx, wmx = w * mx;
                Sb += wb; Sm += wm; Sbb += wb * b; Smm += wm * m; Sbm += wb * m;
                Sbx += wbx; Smx += wmx; Sbxbx += wbx * bx; Smxmx += wmx * mx; Sbxmx += wbx * mx;
                Sbxb += wbx * b; Sbxm += wbx * m; Smxb += wmx * b; Smxm += wmx * m;
            }
        }
        const double mb = Sb / sw, mm = Sm / sw;
        const double vb = std::max(0.0, Sbb - Sb * mb), vm = std::max(0.0, Smm - Sm * mm);
        const double sb = std::sqrt(vb / sw), sm = std::sqrt(vm / sw);
        gradEnergy = Sbxbx / sw;
        if (sb < 1e-3 || sm < 1e-3) return false;
        const double A = 1 / sb, B = 1 / sm;
        const double jr = 0.5 * v.sign *
                          (A * A * (Sbxb - mb * Sbx) - A * B * (Sbxm - mm * Sbx) + A * B * (Smxb - mb * Smx) -
                           B * B * (Smxm - mm * Smx));
        const double jj = 0.25 * (A * A * Sbxbx + 2 * A * B * Sbxmx + B * B * Smxmx);
        corr = A * B * (Sbm - Sb * mm) / sw;
        if (jj < 1e-12) return false;
        const double step = std::clamp(-jr / jj, -0.5, 0.5);
        delta += step;
        if (std::fabs(delta) > 1.5) return false;
        if (std::fabs(step) < 0.01) break;  // 1/100 px: below the noise of a match
    }
    d = (float)(d0 + delta);
    zncc = (float)corr;
    texture = (float)(1.0 - std::exp(-gradEnergy / ((double)v.textureSigma * v.textureSigma)));
    return true;
}

struct RowJob {
    const View *view;
    float *ref, *conf;
    const uint8_t *mask;  // NULL: every pixel
    WindowView window;
    double minZncc;
};

template <int R>
inline __attribute__((always_inline)) void refine_range(const RowJob &job, int y0, int y1) {
    const View &v = *job.view;
    for (int y = y0; y < y1; ++y) {
        float *d = job.ref + (size_t)y * v.cols;
        float *c = job.conf + (size_t)y * v.cols;
        const uint8_t *mask = job.mask ? job.mask + (size_t)y * v.cols : nullptr;
        for (int x = 0; x < v.cols; ++x) {
            if (std::isnan(d[x]) || (mask && !mask[x])) continue;
            float value = d[x], zncc = 0, texture = 0;
            if (!refine_pixel<R>(v, job.window, x, y, value, zncc, texture) || zncc < job.minZncc) {
                d[x] = kNaN; c[x] = 0;
                continue;
            }
            d[x] = value;
            const double cz = std::clamp((zncc - job.minZncc) / (1.0 - job.minZncc), 0.0, 1.0);
            c[x] = (float)(c[x] * cz * texture);
        }
    }
}

/// Rows y0..<y1 for the job's radius (compiled per radius so the window
/// loops have constant trip counts).
#if defined(__x86_64__) && defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
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

cv::Mat smoothed(const cv::Mat &grey) {
    cv::Mat f;
    grey.convertTo(f, CV_32F);
    cv::GaussianBlur(f, f, cv::Size(0, 0), 0.7, 0.7, cv::BORDER_REFLECT_101);
    return f;
}

cv::Mat x_gradient(const cv::Mat &f) {
    cv::Mat g;
    cv::Sobel(f, g, CV_32F, 1, 0, 1, 0.5, 0, cv::BORDER_REFLECT_101);  // central difference
    return g;
}

}  // namespace

RefineInputs make_refine_inputs(const cv::Mat &base, const cv::Mat &match, const cv::Mat &disparity, float sign,
                                int radius, double textureSigma) {
    RefineInputs in;
    in.base = smoothed(base);
    in.match = smoothed(match);
    in.baseDx = x_gradient(in.base);
    in.matchDx = x_gradient(in.match);
    in.disparity = disparity.clone();
    in.sign = sign;
    in.radius = radius;
    in.textureSigma = textureSigma;
    return in;
}

void refine_disparities(const RefineInputs &in, cv::Mat &ref, cv::Mat &conf, const cv::Mat &mask, double minZncc) {
    for (const cv::Mat *m : std::initializer_list<const cv::Mat *>{&in.base, &in.match, &in.baseDx, &in.matchDx, &in.disparity, &ref, &conf})
        CV_Assert(m->type() == CV_32FC1 && m->isContinuous() && m->size() == ref.size());
    CV_Assert(mask.empty() || (mask.type() == CV_8UC1 && mask.isContinuous() && mask.size() == ref.size()));
    CV_Assert(in.radius >= 1 && in.radius <= 10);
    const View view{in.base.ptr<float>(), in.match.ptr<float>(), in.baseDx.ptr<float>(), in.matchDx.ptr<float>(),
                    in.disparity.ptr<float>(), ref.cols, ref.rows, in.sign, (float)in.textureSigma};
    const WindowTable window(in.radius, ref.cols);
    const RowJob job{&view, ref.ptr<float>(), conf.ptr<float>(), mask.empty() ? nullptr : mask.ptr<uint8_t>(), WindowView{window.dx.data(), window.dy.data(), window.inside.data(), window.rel.data()}, minZncc};
    cv::parallel_for_(cv::Range(0, ref.rows), [&](const cv::Range &range) {
        refine_rows(job, in.radius, range.start, range.end);
    });
}

}  // namespace dualcam_shim
