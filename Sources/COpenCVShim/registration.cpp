// Registration measurement: phase correlation between two images, with the
// sub-pixel peak found on the band-limited correlation surface (upsampled DFT)
// or by cv::phaseCorrelate's own centroid.
#include "shim_imgproc.hpp"
#include <cmath>

using namespace dualcam_shim;

namespace {

/// Signed frequency of DFT bin `k` of `n`.
inline int frequency(int k, int n) { return k <= n / 2 ? k : k - n; }

/// Evaluates the correlation surface g(x, y) = Re sum R(v, u) e^{2 pi i (u x / W + v y / H)}
/// on the (2 half + 1)^2 grid centred at (cx, cy) with spacing `step` (two
/// complex matrix products), and moves (cx, cy) to the grid's maximum.
void refine(const cv::Mat &spectrum, int half, double step, double &cx, double &cy, double &best) {
    const int rows = spectrum.rows, cols = spectrum.cols, m = 2 * half + 1;
    cv::Mat ex(cols, m, CV_64FC2), ey(m, rows, CV_64FC2);
    for (int u = 0; u < cols; ++u)
        for (int k = 0; k < m; ++k) {
            const double t = 2 * CV_PI * frequency(u, cols) * (cx + (k - half) * step) / cols;
            ex.at<cv::Vec2d>(u, k) = cv::Vec2d(std::cos(t), std::sin(t));
        }
    for (int v = 0; v < rows; ++v)
        for (int k = 0; k < m; ++k) {
            const double t = 2 * CV_PI * frequency(v, rows) * (cy + (k - half) * step) / rows;
            ey.at<cv::Vec2d>(k, v) = cv::Vec2d(std::cos(t), std::sin(t));
        }
    cv::Mat partial, surface;
    cv::gemm(ey, spectrum, 1, cv::noArray(), 0, partial);
    cv::gemm(partial, ex, 1, cv::noArray(), 0, surface);
    double nx = cx, ny = cy;
    best = -HUGE_VAL;
    for (int i = 0; i < m; ++i)
        for (int k = 0; k < m; ++k) {
            const double g = surface.at<cv::Vec2d>(i, k)[0];
            if (g > best) {
                best = g;
                nx = cx + (k - half) * step;
                ny = cy + (i - half) * step;
            }
        }
    cx = nx;
    cy = ny;
}

/// Phase correlation with the upsampled-DFT peak; `fa`, `fb` are windowed float64.
int upsampled(const cv::Mat &fa, const cv::Mat &fb, double *dx, double *dy, double *response, dc_error *err) {
    cv::Mat spectrum_a, spectrum_b, cross;
    cv::dft(fa, spectrum_a, cv::DFT_COMPLEX_OUTPUT);
    cv::dft(fb, spectrum_b, cv::DFT_COMPLEX_OUTPUT);
    cv::mulSpectrums(spectrum_b, spectrum_a, cross, 0, true);  // B conj(A) = |A|^2 e^{-i w s}
    const int rows = cross.rows, cols = cross.cols;
    int bins = 0;
    for (int v = 0; v < rows; ++v)
        for (int u = 0; u < cols; ++u) {
            cv::Vec2d &c = cross.at<cv::Vec2d>(v, u);
            const double magnitude = std::hypot(c[0], c[1]);
            // Nyquist bins have no sign, so they cannot be evaluated off the grid.
            const bool nyquist = (cols % 2 == 0 && u == cols / 2) || (rows % 2 == 0 && v == rows / 2);
            if (magnitude > 0 && !nyquist) {
                c /= magnitude;
                ++bins;
            } else {
                c = cv::Vec2d(0, 0);
            }
        }
    if (bins <= 1)  // at most the DC bin: nothing to locate
        return fail(err, DC_ERR_ARGUMENT, "the images have no structure to correlate (constant or zero)");
    cv::Mat surface;
    cv::idft(cross, surface, cv::DFT_SCALE);
    cv::Mat planes[2];
    cv::split(surface, planes);
    cv::Point peak;
    cv::minMaxLoc(planes[0], nullptr, nullptr, nullptr, &peak);
    double x = frequency(peak.x, cols), y = frequency(peak.y, rows), best = 0;
    for (double step = 0.05; step > 1e-4; step /= 10) refine(cross, 12, step, x, y, best);
    *dx = x;
    *dy = y;
    *response = best / bins;
    return DC_OK;
}

}  // namespace

extern "C" int dc_phase_correlate(const dc_mat *a, const dc_mat *b, int window, int subpixel, double *dx,
                                  double *dy, double *response, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!dx || !dy || !response) return fail(err, DC_ERR_ARGUMENT, "dc_phase_correlate: NULL output");
        if (int status = check_input(a, "first image", err)) return status;
        if (int status = check_input(b, "second image", err)) return status;
        if (window != DC_WINDOW_NONE && window != DC_WINDOW_HANNING)
            return fail(err, DC_ERR_ARGUMENT, "unknown window code " + std::to_string(window));
        if (subpixel != DC_SUBPIXEL_UPSAMPLED && subpixel != DC_SUBPIXEL_OPENCV_CENTROID)
            return fail(err, DC_ERR_ARGUMENT, "unknown sub-pixel method " + std::to_string(subpixel));
        if (a->mat.channels() != 1 || b->mat.channels() != 1)
            return fail(err, DC_ERR_ARGUMENT, "phase correlation needs 1-channel images");
        if (a->mat.size() != b->mat.size())
            return fail(err, DC_ERR_ARGUMENT,
                        "the images differ in size: " + std::to_string(a->mat.cols) + "x" +
                            std::to_string(a->mat.rows) + " and " + std::to_string(b->mat.cols) + "x" +
                            std::to_string(b->mat.rows));
        if (window == DC_WINDOW_HANNING && (a->mat.cols < 2 || a->mat.rows < 2))
            return fail(err, DC_ERR_ARGUMENT, "a Hanning window needs images of at least 2x2 pixels");
        cv::Mat fa, fb;
        a->mat.convertTo(fa, CV_64F);
        b->mat.convertTo(fb, CV_64F);
        if (!cv::checkRange(fa) || !cv::checkRange(fb))
            return fail(err, DC_ERR_ARGUMENT, "the images contain NaN or infinite values");
        cv::Mat hann;
        if (window == DC_WINDOW_HANNING) cv::createHanningWindow(hann, fa.size(), CV_64F);
        if (subpixel == DC_SUBPIXEL_OPENCV_CENTROID) {
            const cv::Point2d shift = cv::phaseCorrelate(fa, fb, hann, response);
            *dx = shift.x;
            *dy = shift.y;
            return DC_OK;
        }
        // Without their means, the windowed images share no fixed (unshifted)
        // low-frequency blob that would pull the peak towards zero.
        fa -= cv::mean(fa)[0];
        fb -= cv::mean(fb)[0];
        if (!hann.empty()) {
            fa = fa.mul(hann);
            fb = fb.mul(hann);
        }
        return upsampled(fa, fb, dx, dy, response, err);
    });
}
