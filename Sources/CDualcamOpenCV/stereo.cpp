// Stereo: rectification maps, point undistortion, SGBM with left-right check
// and subpixel refinement, SGBM + WLS reference, confidence-weighted filling.
#include "dualcam_opencv_stereo.h"
#include "shim_imgproc.hpp"
#include <opencv2/calib3d.hpp>
#include <opencv2/ximgproc.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace dualcam_shim;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

int check_distortion(int count, dc_error *err) {
    if (count != 0 && count != 4 && count != 5 && count != 8)
        return fail(err, DC_ERR_ARGUMENT,
                    "distortion needs 0, 4, 5 or 8 coefficients, got " + std::to_string(count));
    return DC_OK;
}

cv::Mat matrix3(const double *v) { return cv::Mat(3, 3, CV_64F, const_cast<double *>(v)).clone(); }

cv::Mat distortion(const double *v, int count) {
    if (count == 0) return cv::Mat();
    return cv::Mat(1, count, CV_64F, const_cast<double *>(v)).clone();
}

int check_params(const dc_stereo_params *p, dc_error *err) {
    if (!p) return fail(err, DC_ERR_ARGUMENT, "stereo parameters are NULL");
    if (p->num_disparities < 16 || p->num_disparities % 16 != 0)
        return fail(err, DC_ERR_ARGUMENT,
                    "the number of disparities must be a positive multiple of 16, got " +
                        std::to_string(p->num_disparities));
    if (p->block_size < 1 || p->block_size % 2 == 0 || p->block_size > 11)
        return fail(err, DC_ERR_ARGUMENT, "the block size must be odd, 1 to 11, got " + std::to_string(p->block_size));
    if (p->refine_radius < 1 || p->refine_radius > 10)
        return fail(err, DC_ERR_ARGUMENT, "the refinement radius must be 1 to 10, got " + std::to_string(p->refine_radius));
    if (!(p->lr_tolerance > 0)) return fail(err, DC_ERR_ARGUMENT, "the left-right tolerance must be positive");
    return DC_OK;
}

int check_pair(const dc_mat *left, const dc_mat *right, dc_error *err) {
    if (int status = check_input(left, "left image", err)) return status;
    if (int status = check_input(right, "right image", err)) return status;
    if (left->mat.type() != CV_8UC1 || right->mat.type() != CV_8UC1)
        return fail(err, DC_ERR_ARGUMENT, "stereo images must be 8-bit grey");
    if (left->mat.size() != right->mat.size())
        return fail(err, DC_ERR_ARGUMENT, "the left and right images differ in size");
    return DC_OK;
}

cv::Ptr<cv::StereoSGBM> make_sgbm(const dc_stereo_params *p) {
    int b = p->block_size;
    return cv::StereoSGBM::create(p->min_disparity, p->num_disparities, b, 8 * b * b, 32 * b * b, -1, 63,
                                  p->uniqueness, p->speckle_window,
                                  std::max(1, (int)std::ceil(p->speckle_range)), cv::StereoSGBM::MODE_SGBM_3WAY);
}

/// SGBM fixed-point output (1/16 px) to float pixels, NaN below `min_valid`;
/// `sign` -1 turns the right matcher's negative disparities positive.
cv::Mat to_pixels(const cv::Mat &raw, int min_valid, float sign) {
    cv::Mat out(raw.size(), CV_32F);
    for (int y = 0; y < raw.rows; ++y) {
        const int16_t *s = raw.ptr<int16_t>(y);
        float *d = out.ptr<float>(y);
        for (int x = 0; x < raw.cols; ++x) d[x] = s[x] < min_valid * 16 ? kNaN : sign * s[x] / 16.0f;
    }
    return out;
}

/// exp(-t) for t >= 0 from a table (step 1/64, linear interpolation: relative
/// error below 4e-5; 0 beyond t = 32): the refinement's window weights take
/// one exponential per window element, which libm would make its largest cost.
class NegExpTable {
public:
    NegExpTable() {
        for (int i = 0; i <= kSize; ++i) values_[i] = std::exp(-(float)i / kScale);
    }
    float operator()(float t) const {
        float u = t * kScale;
        if (!(u < (float)kSize)) return 0.0f;
        int i = (int)u;
        float f = u - (float)i;
        return values_[i] + f * (values_[i + 1] - values_[i]);
    }
private:
    static constexpr int kSize = 32 * 64;
    static constexpr float kScale = 64.0f;
    float values_[kSize + 1];
};

const NegExpTable &neg_exp() {
    static const NegExpTable table;
    return table;
}

struct RefineInputs {
    cv::Mat base, match, baseDx, matchDx;  // smoothed float images and x gradients
    cv::Mat disparity;                      // reference view, float, NaN invalid
    float sign;                             // x_match = x_base - sign * d
    int radius;
    double textureSigma;
};

/// Symmetric ZNCC Lucas-Kanade refinement of one pixel's disparity: the
/// window's disparity follows a plane d0 + delta + gx dx + gy dy, the slopes
/// fitted to the neighbours' SGBM disparities of the same surface; both images
/// move by half the correction (base by +delta/2, match by -delta/2), so neither
/// image's interpolation biases the result. Intensities are normalised per
/// window (gain and offset free). Returns false when the fit fails.
template <int R>
bool refine_pixel_r(const RefineInputs &in, int x, int y, float &d, float &zncc, float &texture) {
    constexpr int r = R;
    const int cols = in.base.cols, rows = in.base.rows;
    if (x - r < 0 || y - r < 0 || x + r >= cols || y + r >= rows) return false;
    const float d0 = d;
    // Plane slopes from same-surface neighbours.
    double sxx = 0, sxy = 0, syy = 0, sxd = 0, syd = 0;
    int n = 0;
    for (int dy = -r; dy <= r; ++dy) {
        const float *drow = in.disparity.ptr<float>(y + dy);
        for (int dx = -r; dx <= r; ++dx) {
            float dj = drow[x + dx];
            if (!(std::fabs(dj - d0) <= 1.0f)) continue;
            sxx += dx * dx; sxy += dx * dy; syy += dy * dy;
            sxd += dx * (dj - d0); syd += dy * (dj - d0);
            ++n;
        }
    }
    double gx = 0, gy = 0;
    double det = sxx * syy - sxy * sxy;
    if (n >= 2 * r * r && det > 1e-9) {
        gx = std::clamp((syy * sxd - sxy * syd) / det, -0.5, 0.5);
        gy = std::clamp((sxx * syd - sxy * sxd) / det, -0.5, 0.5);
    }
    const int side = 2 * r + 1;
    // Window weights, one exp per element: same surface (Gaussian in the plane
    // residual, sigma 0.35 px, so small depth steps inside the window weigh
    // little; 0.25 where SGBM had no value) times a colour Gaussian (sigma 40
    // levels) about the centre.
    float weights[21 * 21];
    const float centre = in.base.ptr<float>(y)[x];
    constexpr float kResidual = 1.0f / (2.0f * 0.35f * 0.35f), kColour = 1.0f / (2.0f * 40.0f * 40.0f);
    const NegExpTable &negExp = neg_exp();
    double sw = 0;
    for (int dy = -r; dy <= r; ++dy) {
        const float *drow = in.disparity.ptr<float>(y + dy);
        const float *brow = in.base.ptr<float>(y + dy);
        for (int dx = -r; dx <= r; ++dx) {
            float dj = drow[x + dx];
            float di = brow[x + dx] - centre;
            float residual = (float)(dj - (d0 + gx * dx + gy * dy));
            float w = std::isnan(dj) ? 0.25f * negExp(di * di * kColour)
                      : (std::fabs(residual) <= 1.0f ? negExp(residual * residual * kResidual + di * di * kColour) : 0.0f);
            weights[(dy + r) * side + dx + r] = w;
            sw += w;
        }
    }
    if (sw < 1) return false;
    // Each iteration accumulates the weighted moments of the resampled
    // intensities b, m and gradients bx, mx in one pass; the ZNCC residual
    // nb - nm = A (b - mb) - B (m - mm) with A = 1/sigma_b, B = 1/sigma_m, and its
    // Jacobian j = sign (A bx + B mx) / 2, give sum(w j res), sum(w j^2) and
    // the correlation in closed form from these moments (no per-window arrays).
    double delta = 0;
    double corr = -1;
    double gradEnergy = 0;
    // Intensities are centred on the window centre's (float sums of 49-121
    // centred terms keep far more precision than the ZNCC needs).
    const float cb = centre, cm = in.match.ptr<float>(y)[std::clamp(x - (int)std::lround(in.sign * d0), 0, cols - 1)];
    // Three Gauss-Newton steps from SGBM's value, stopping at 1/100 px steps
    // (more iterations measured no more accurate: they chase noise).
    for (int iteration = 0; iteration < 3; ++iteration) {
        float Sb = 0, Sm = 0, Sbb = 0, Smm = 0, Sbm = 0, Sbx = 0, Smx = 0, Sbxbx = 0, Smxmx = 0, Sbxmx = 0;
        float Sbxb = 0, Sbxm = 0, Smxb = 0, Smxm = 0;
        // The base moves by a whole window by the same shift: one integer
        // offset and one fraction for every element.
        const float shiftB = (float)(in.sign * delta / 2);
        const float floorB = std::floor(shiftB);
        const int offB = (int)floorB;
        const float fb = shiftB - floorB;
        if (x - R + offB < 0 || x + R + offB + 1 >= cols) return false;
        for (int dy = -R; dy <= R; ++dy) {
            const float *brow = in.base.ptr<float>(y + dy) + x + offB, *mrow = in.match.ptr<float>(y + dy);
            const float *bxrow = in.baseDx.ptr<float>(y + dy) + x + offB, *mxrow = in.matchDx.ptr<float>(y + dy);
            const float *wrow = weights + (dy + R) * side + R;
            const float rowX = (float)(x - in.sign * (d0 + gy * dy + delta / 2));
            const float slope = (float)(-in.sign * gx);
            for (int dx = -R; dx <= R; ++dx) {
                float w = wrow[dx];
                float xm = rowX + (float)dx * (1.0f + slope);
                if (xm < 0 || xm >= cols - 1) return false;
                int im = (int)xm;
                float fm = xm - (float)im;
                float b = brow[dx] + fb * (brow[dx + 1] - brow[dx]) - cb;
                float m = mrow[im] + fm * (mrow[im + 1] - mrow[im]) - cm;
                float bx = bxrow[dx] + fb * (bxrow[dx + 1] - bxrow[dx]);
                float mx = mxrow[im] + fm * (mxrow[im + 1] - mxrow[im]);
                float wb = w * b, wm = w * m, wbx = w * bx, wmx = w * mx;
                Sb += wb; Sm += wm; Sbb += wb * b; Smm += wm * m; Sbm += wb * m;
                Sbx += wbx; Smx += wmx; Sbxbx += wbx * bx; Smxmx += wmx * mx; Sbxmx += wbx * mx;
                Sbxb += wbx * b; Sbxm += wbx * m; Smxb += wmx * b; Smxm += wmx * m;
            }
        }
        double mb = Sb / sw, mm = Sm / sw;
        double vb = std::max(0.0, Sbb - Sb * mb), vm = std::max(0.0, Smm - Sm * mm);
        double sb_ = std::sqrt(vb / sw), sm_ = std::sqrt(vm / sw);
        gradEnergy = Sbxbx / sw;
        if (sb_ < 1e-3 || sm_ < 1e-3) return false;
        double A = 1 / sb_, B = 1 / sm_;
        double jr = 0.5 * in.sign *
                    (A * A * (Sbxb - mb * Sbx) - A * B * (Sbxm - mm * Sbx) + A * B * (Smxb - mb * Smx) -
                     B * B * (Smxm - mm * Smx));
        double jj = 0.25 * (A * A * Sbxbx + 2 * A * B * Sbxmx + B * B * Smxmx);
        corr = A * B * (Sbm - Sb * mm) / sw;
        if (jj < 1e-12) return false;
        double step = std::clamp(-jr / jj, -0.5, 0.5);
        delta += step;
        if (std::fabs(delta) > 1.5) return false;
        if (std::fabs(step) < 0.01) break;  // 1/100 px: below the noise of a match
    }
    d = (float)(d0 + delta);
    zncc = (float)corr;
    texture = (float)(1.0 - std::exp(-gradEnergy / (in.textureSigma * in.textureSigma)));
    return true;
}

template <int R>
bool refine_dispatch(const RefineInputs &in, int x, int y, float &d, float &zncc, float &texture) {
    if constexpr (R < 10) {
        if (in.radius > R) return refine_dispatch<R + 1>(in, x, y, d, zncc, texture);
    }
    return refine_pixel_r<R>(in, x, y, d, zncc, texture);
}

/// The refinement for the window radius in `in` (1 to 10; compiled per radius
/// so the window loops have constant trip counts).
bool refine_pixel(const RefineInputs &in, int x, int y, float &d, float &zncc, float &texture) {
    return refine_dispatch<1>(in, x, y, d, zncc, texture);
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

extern "C" int dc_rectify_maps(const double *k, const double *dist, int dist_count, const double *r,
                               const double *p, int cols, int rows, dc_mat **map_x, dc_mat **map_y,
                               dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!map_x || !map_y) return fail(err, DC_ERR_ARGUMENT, "dc_rectify_maps: out is NULL");
        *map_x = nullptr; *map_y = nullptr;
        if (!k || !r || !p || (dist_count > 0 && !dist)) return fail(err, DC_ERR_ARGUMENT, "matrix is NULL");
        if (int status = check_distortion(dist_count, err)) return status;
        if (int status = check_size(cols, rows, err)) return status;
        cv::Mat mx, my;
        cv::initUndistortRectifyMap(matrix3(k), distortion(dist, dist_count), matrix3(r), matrix3(p),
                                    cv::Size(cols, rows), CV_32FC1, mx, my);
        if (int status = emit(std::move(mx), map_x, err)) return status;
        return emit(std::move(my), map_y, err);
    });
}

extern "C" int dc_undistort_rectify_points(const double *k, const double *dist, int dist_count, const double *r,
                                           const double *p, int count, const double *points, double *out,
                                           dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!k || !r || !p || !points || !out || (dist_count > 0 && !dist))
            return fail(err, DC_ERR_ARGUMENT, "dc_undistort_rectify_points: NULL argument");
        if (int status = check_distortion(dist_count, err)) return status;
        if (count < 1) return fail(err, DC_ERR_ARGUMENT, "no points");
        cv::Mat src(count, 1, CV_64FC2, const_cast<double *>(points));
        cv::Mat dst;
        cv::undistortPoints(src, dst, matrix3(k), distortion(dist, dist_count), matrix3(r), matrix3(p),
                            cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 20, 1e-9));
        std::memcpy(out, dst.ptr<double>(0), sizeof(double) * 2 * (size_t)count);
        return DC_OK;
    });
}

extern "C" int dc_stereo_match(const dc_mat *left, const dc_mat *right, const dc_mat *left_valid,
                               const dc_mat *right_valid, const dc_stereo_params *params, int reference_right,
                               const dc_mat *refine_mask, dc_mat **disparity, dc_mat **confidence,
                               dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!disparity || !confidence) return fail(err, DC_ERR_ARGUMENT, "dc_stereo_match: out is NULL");
        *disparity = nullptr; *confidence = nullptr;
        if (int status = check_pair(left, right, err)) return status;
        if (int status = check_params(params, err)) return status;
        const cv::Size size = left->mat.size();
        for (const dc_mat *mask : {left_valid, right_valid, refine_mask})
            if (mask && (mask->mat.type() != CV_8UC1 || mask->mat.size() != size))
                return fail(err, DC_ERR_ARGUMENT, "masks must be 8-bit, 1 channel, the images' size");
        const dc_stereo_params &p = *params;
        auto leftMatcher = make_sgbm(params);
        auto rightMatcher = cv::ximgproc::createRightMatcher(leftMatcher);
        cv::Mat rawL, rawR;
        leftMatcher->compute(left->mat, right->mat, rawL);
        rightMatcher->compute(right->mat, left->mat, rawR);
        cv::Mat dL = to_pixels(rawL, p.min_disparity, 1.0f);
        // The right matcher searches -(min + num - 1) .. -min: valid raw >= that * 16.
        cv::Mat dR = to_pixels(rawR, -(p.min_disparity + p.num_disparities - 1), -1.0f);
        const bool refRight = reference_right != 0;
        cv::Mat &ref = refRight ? dR : dL;
        const cv::Mat &other = refRight ? dL : dR;
        const dc_mat *refValid = refRight ? right_valid : left_valid;
        const dc_mat *otherValid = refRight ? left_valid : right_valid;
        const float sign = refRight ? -1.0f : 1.0f;  // x_other = x - sign * d
        cv::Mat conf(size, CV_32F, cv::Scalar(0));
        // Left-right consistency and data masks.
        for (int y = 0; y < size.height; ++y) {
            float *d = ref.ptr<float>(y);
            float *c = conf.ptr<float>(y);
            const float *o = other.ptr<float>(y);
            for (int x = 0; x < size.width; ++x) {
                if (std::isnan(d[x])) continue;
                int xo = (int)std::lround(x - sign * d[x]);
                bool ok = xo >= 0 && xo < size.width && !std::isnan(o[xo]) &&
                          std::fabs(o[xo] - d[x]) <= p.lr_tolerance;
                if (ok && refValid) ok = refValid->mat.ptr<uint8_t>(y)[x] != 0;
                if (ok && otherValid) ok = otherValid->mat.ptr<uint8_t>(y)[xo] != 0;
                if (!ok) { d[x] = kNaN; continue; }
                double e = std::fabs(o[xo] - d[x]) / p.lr_tolerance;
                c[x] = (float)(1.0 - 0.5 * e * e);
            }
        }
        if (p.refine) {
            RefineInputs in;
            in.base = smoothed(refRight ? right->mat : left->mat);
            in.match = smoothed(refRight ? left->mat : right->mat);
            in.baseDx = x_gradient(in.base);
            in.matchDx = x_gradient(in.match);
            in.disparity = ref.clone();
            in.sign = sign;
            in.radius = p.refine_radius;
            in.textureSigma = p.texture_sigma > 0 ? p.texture_sigma : 2.0;
            const double minZncc = p.min_zncc;
            cv::parallel_for_(cv::Range(0, size.height), [&](const cv::Range &range) {
                for (int y = range.start; y < range.end; ++y) {
                    float *d = ref.ptr<float>(y);
                    float *c = conf.ptr<float>(y);
                    const uint8_t *mask = refine_mask ? refine_mask->mat.ptr<uint8_t>(y) : nullptr;
                    for (int x = 0; x < size.width; ++x) {
                        if (std::isnan(d[x]) || (mask && !mask[x])) continue;
                        float value = d[x], zncc = 0, texture = 0;
                        if (!refine_pixel(in, x, y, value, zncc, texture) || zncc < minZncc) {
                            d[x] = kNaN; c[x] = 0;
                            continue;
                        }
                        d[x] = value;
                        double cz = std::clamp((zncc - minZncc) / (1.0 - minZncc), 0.0, 1.0);
                        c[x] = (float)(c[x] * cz * texture);
                    }
                }
            });
        }
        if (int status = emit(std::move(ref), disparity, err)) return status;
        return emit(std::move(conf), confidence, err);
    });
}

extern "C" int dc_stereo_sgbm_wls(const dc_mat *left, const dc_mat *right, const dc_stereo_params *params,
                                  double lambda, double sigma, int reference_right, dc_mat **disparity,
                                  dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!disparity) return fail(err, DC_ERR_ARGUMENT, "dc_stereo_sgbm_wls: out is NULL");
        *disparity = nullptr;
        if (int status = check_pair(left, right, err)) return status;
        if (int status = check_params(params, err)) return status;
        auto leftMatcher = make_sgbm(params);
        auto rightMatcher = cv::ximgproc::createRightMatcher(leftMatcher);
        // Fresh headers: flipping into a header of the inputs would overwrite them.
        cv::Mat base, match;
        if (!reference_right) {
            base = left->mat;
            match = right->mat;
        } else {
            cv::flip(right->mat, base, 1);
            cv::flip(left->mat, match, 1);
        }
        cv::Mat rawL, rawR, filtered;
        leftMatcher->compute(base, match, rawL);
        rightMatcher->compute(match, base, rawR);
        auto wls = cv::ximgproc::createDisparityWLSFilter(leftMatcher);
        wls->setLambda(lambda);
        wls->setSigmaColor(sigma);
        wls->filter(rawL, base, filtered, rawR);
        cv::Mat result = to_pixels(filtered, params->min_disparity, 1.0f);
        if (reference_right) cv::flip(result.clone(), result, 1);
        return emit(std::move(result), disparity, err);
    });
}

extern "C" int dc_confidence_fill(const dc_mat *values, const dc_mat *confidence, const dc_mat *guide,
                                  double lambda, double sigma_color, double min_weight, dc_mat **out,
                                  dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_confidence_fill: out is NULL");
        *out = nullptr;
        if (int status = check_input(values, "values", err)) return status;
        if (int status = check_input(guide, "guide image", err)) return status;
        const cv::Size size = values->mat.size();
        if (values->mat.type() != CV_32FC1) return fail(err, DC_ERR_ARGUMENT, "values must be float32, 1 channel");
        if (guide->mat.depth() != CV_8U || (guide->mat.channels() != 1 && guide->mat.channels() != 3) ||
            guide->mat.size() != size)
            return fail(err, DC_ERR_ARGUMENT, "the guide must be 8-bit with 1 or 3 channels, the values' size");
        if (confidence && (confidence->mat.type() != CV_32FC1 || confidence->mat.size() != size))
            return fail(err, DC_ERR_ARGUMENT, "confidence must be float32, 1 channel, the values' size");
        if (!(lambda > 0) || !(sigma_color > 0)) return fail(err, DC_ERR_ARGUMENT, "lambda and sigma must be positive");
        cv::Mat weighted(size, CV_32F), weight(size, CV_32F);
        for (int y = 0; y < size.height; ++y) {
            const float *v = values->mat.ptr<float>(y);
            const float *c = confidence ? confidence->mat.ptr<float>(y) : nullptr;
            float *wv = weighted.ptr<float>(y), *w = weight.ptr<float>(y);
            for (int x = 0; x < size.width; ++x) {
                float cw = std::isfinite(v[x]) ? (c ? std::clamp(c[x], 0.0f, 1.0f) : 1.0f) : 0.0f;
                w[x] = cw;
                wv[x] = cw > 0 ? v[x] * cw : 0.0f;
            }
        }
        auto fgs = cv::ximgproc::createFastGlobalSmootherFilter(guide->mat, lambda, sigma_color, 0.25, 3);
        cv::Mat num, den;
        fgs->filter(weighted, num);
        fgs->filter(weight, den);
        cv::Mat result(size, CV_32F);
        for (int y = 0; y < size.height; ++y) {
            const float *n = num.ptr<float>(y), *d = den.ptr<float>(y);
            float *o = result.ptr<float>(y);
            for (int x = 0; x < size.width; ++x) o[x] = d[x] >= min_weight ? n[x] / d[x] : kNaN;
        }
        return emit(std::move(result), out, err);
    });
}
