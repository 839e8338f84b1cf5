// Camera and stereo calibration (calib3d): calibrateCamera, stereoCalibrate,
// stereoRectify, undistortPoints, solvePnP, and OpenCV image lists.
#include "dualcam_opencv_calibrate.h"
#include "shim_handles.hpp"
#include <opencv2/calib3d.hpp>
#include <algorithm>
#include <vector>

using namespace dualcam_shim;

namespace {

struct Collected {
    std::vector<std::vector<cv::Point3f>> object;
    std::vector<std::vector<cv::Point2f>> image1, image2;
};

/// Splits the flat view arrays into OpenCV's vectors of vectors (float, as
/// calibrateCamera and stereoCalibrate require).
int collect(const dc_calib_views *views, bool stereo, Collected &out, dc_error *err) {
    if (!views || !views->point_counts || !views->object_xyz || !views->image_xy)
        return fail(err, DC_ERR_ARGUMENT, "calibration views: NULL argument");
    if (stereo && !views->image2_xy) return fail(err, DC_ERR_ARGUMENT, "stereo calibration needs a second camera's points");
    if (views->view_count < 1) return fail(err, DC_ERR_ARGUMENT, "calibration needs at least 1 view");
    size_t offset = 0;
    for (int v = 0; v < views->view_count; ++v) {
        const int n = views->point_counts[v];
        if (n < 4) return fail(err, DC_ERR_ARGUMENT, "view " + std::to_string(v) + " has fewer than 4 points");
        std::vector<cv::Point3f> object;
        std::vector<cv::Point2f> a, b;
        for (int i = 0; i < n; ++i, ++offset) {
            const double *o = views->object_xyz + 3 * offset;
            object.emplace_back(float(o[0]), float(o[1]), float(o[2]));
            a.emplace_back(float(views->image_xy[2 * offset]), float(views->image_xy[2 * offset + 1]));
            if (stereo) b.emplace_back(float(views->image2_xy[2 * offset]), float(views->image2_xy[2 * offset + 1]));
        }
        out.object.push_back(std::move(object));
        out.image1.push_back(std::move(a));
        if (stereo) out.image2.push_back(std::move(b));
    }
    return DC_OK;
}

cv::Mat matrix(const double *values, int rows, int cols) {
    return cv::Mat(rows, cols, CV_64F, const_cast<double *>(values)).clone();
}

void copy_out(const cv::Mat &m, double *out, size_t count) {
    cv::Mat d;
    m.convertTo(d, CV_64F);
    d = d.reshape(1, 1);
    for (size_t i = 0; i < count; ++i) out[i] = i < size_t(d.total()) ? d.at<double>(0, int(i)) : 0.0;
}

int model_flags(int model) {
    return ((model & DC_CALIB_ZERO_TANGENT) ? cv::CALIB_ZERO_TANGENT_DIST : 0) |
           ((model & DC_CALIB_FIX_K3) ? cv::CALIB_FIX_K3 : 0);
}

int check_size(int width, int height, dc_error *err) {
    if (width < 1 || height < 1) return fail(err, DC_ERR_ARGUMENT, "image size must be positive");
    return DC_OK;
}

}  // namespace

extern "C" int dc_calibrate_camera(const dc_calib_views *views, int width, int height, int model, int use_guess,
                                   double *camera_matrix, double *dist, double *rvecs, double *tvecs,
                                   double *std_intrinsics, double *per_view_rms, double *rms, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!camera_matrix || !dist || !rvecs || !tvecs || !std_intrinsics || !per_view_rms || !rms)
            return fail(err, DC_ERR_ARGUMENT, "dc_calibrate_camera: NULL argument");
        if (int s = check_size(width, height, err)) return s;
        Collected c;
        if (int s = collect(views, false, c, err)) return s;
        cv::Mat k = use_guess ? matrix(camera_matrix, 3, 3) : cv::Mat::eye(3, 3, CV_64F);
        cv::Mat d = use_guess ? matrix(dist, 1, 5) : cv::Mat::zeros(1, 5, CV_64F);
        std::vector<cv::Mat> rv, tv;
        cv::Mat stdIntrinsics, stdExtrinsics, perView;
        const int flags = (use_guess ? cv::CALIB_USE_INTRINSIC_GUESS : 0) | model_flags(model);
        *rms = cv::calibrateCamera(c.object, c.image1, cv::Size(width, height), k, d, rv, tv, stdIntrinsics,
                                   stdExtrinsics, perView, flags,
                                   cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, DBL_EPSILON));
        copy_out(k, camera_matrix, 9);
        copy_out(d, dist, 5);
        for (size_t v = 0; v < rv.size(); ++v) {
            copy_out(rv[v], rvecs + 3 * v, 3);
            copy_out(tv[v], tvecs + 3 * v, 3);
        }
        copy_out(stdIntrinsics, std_intrinsics, 9);
        copy_out(perView, per_view_rms, size_t(views->view_count));
        return DC_OK;
    });
}

extern "C" int dc_stereo_calibrate(const dc_calib_views *views, int width, int height, int model, int fix_intrinsic,
                                   double *k1, double *d1, double *k2, double *d2, double *r, double *t,
                                   double *per_view_rms, double *rms, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!k1 || !d1 || !k2 || !d2 || !r || !t || !per_view_rms || !rms)
            return fail(err, DC_ERR_ARGUMENT, "dc_stereo_calibrate: NULL argument");
        if (int s = check_size(width, height, err)) return s;
        Collected c;
        if (int s = collect(views, true, c, err)) return s;
        cv::Mat K1 = matrix(k1, 3, 3), D1 = matrix(d1, 1, 5), K2 = matrix(k2, 3, 3), D2 = matrix(d2, 1, 5);
        cv::Mat R = matrix(r, 3, 3), T = matrix(t, 3, 1), E, F, perView;
        const int flags = fix_intrinsic ? cv::CALIB_FIX_INTRINSIC
                                        : cv::CALIB_USE_INTRINSIC_GUESS | cv::CALIB_USE_EXTRINSIC_GUESS | model_flags(model);
        *rms = cv::stereoCalibrate(c.object, c.image1, c.image2, K1, D1, K2, D2, cv::Size(width, height), R, T, E, F,
                                   perView, flags,
                                   cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, 1e-10));
        copy_out(K1, k1, 9);
        copy_out(D1, d1, 5);
        copy_out(K2, k2, 9);
        copy_out(D2, d2, 5);
        copy_out(R, r, 9);
        copy_out(T, t, 3);
        copy_out(perView, per_view_rms, 2 * size_t(views->view_count));
        return DC_OK;
    });
}

extern "C" int dc_stereo_rectify(const double *k1, const double *d1, const double *k2, const double *d2,
                                 int width, int height, const double *r, const double *t,
                                 double *r1, double *r2, double *p1, double *p2, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!k1 || !d1 || !k2 || !d2 || !r || !t || !r1 || !r2 || !p1 || !p2)
            return fail(err, DC_ERR_ARGUMENT, "dc_stereo_rectify: NULL argument");
        if (int s = check_size(width, height, err)) return s;
        cv::Mat R1, R2, P1, P2, Q;
        cv::stereoRectify(matrix(k1, 3, 3), matrix(d1, 1, 5), matrix(k2, 3, 3), matrix(d2, 1, 5),
                          cv::Size(width, height), matrix(r, 3, 3), matrix(t, 3, 1), R1, R2, P1, P2, Q,
                          cv::CALIB_ZERO_DISPARITY, -1);
        copy_out(R1, r1, 9);
        copy_out(R2, r2, 9);
        copy_out(P1, p1, 12);
        copy_out(P2, p2, 12);
        return DC_OK;
    });
}

extern "C" int dc_undistort_points(const double *k, const double *dist, const double *r, const double *p,
                                   int count, const double *xy, double *out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!k || !dist || !xy || !out) return fail(err, DC_ERR_ARGUMENT, "dc_undistort_points: NULL argument");
        if (count < 0) return fail(err, DC_ERR_ARGUMENT, "negative point count");
        if (count == 0) return DC_OK;
        cv::Mat points(count, 1, CV_64FC2, const_cast<double *>(xy)), result;
        cv::undistortPoints(points, result, matrix(k, 3, 3), matrix(dist, 1, 5), r ? matrix(r, 3, 3) : cv::Mat(),
                            p ? matrix(p, 3, 4) : cv::Mat(),
                            cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 50, 1e-12));
        copy_out(result.reshape(1, 1), out, 2 * size_t(count));
        return DC_OK;
    });
}

extern "C" int dc_solve_pnp(int count, const double *object_xyz, const double *xy, const double *k,
                            const double *dist, double *rvec, double *tvec, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!object_xyz || !xy || !k || !dist || !rvec || !tvec)
            return fail(err, DC_ERR_ARGUMENT, "dc_solve_pnp: NULL argument");
        if (count < 4) return fail(err, DC_ERR_ARGUMENT, "solvePnP needs at least 4 points");
        cv::Mat object(count, 1, CV_64FC3, const_cast<double *>(object_xyz));
        cv::Mat image(count, 1, CV_64FC2, const_cast<double *>(xy));
        cv::Mat rv, tv;
        if (!cv::solvePnP(object, image, matrix(k, 3, 3), matrix(dist, 1, 5), rv, tv, false, cv::SOLVEPNP_ITERATIVE))
            return fail(err, DC_ERR_OPENCV, "solvePnP found no pose");
        copy_out(rv, rvec, 3);
        copy_out(tv, tvec, 3);
        return DC_OK;
    });
}

extern "C" int dc_read_image_list(const char *path, char *buffer, size_t capacity, size_t *length, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!path || !length) return fail(err, DC_ERR_ARGUMENT, "dc_read_image_list: NULL argument");
        if (int s = check_readable_file(path, err)) return s;
        cv::FileStorage fs(path, cv::FileStorage::READ);
        if (!fs.isOpened()) return fail(err, DC_ERR_ARGUMENT, "not an OpenCV FileStorage file (XML, YAML or JSON)");
        cv::FileNode root = fs.root();
        cv::FileNode list;
        if (!root["imagelist"].empty()) list = root["imagelist"];
        else
            for (auto it = root.begin(); it != root.end(); ++it)
                if ((*it).isSeq()) { list = *it; break; }
        if (list.empty() || !list.isSeq())
            return fail(err, DC_ERR_ARGUMENT, "no sequence of image names (expected a key 'imagelist')");
        std::string joined;
        for (auto it = list.begin(); it != list.end(); ++it) {
            if (!(*it).isString()) return fail(err, DC_ERR_ARGUMENT, "the image list holds a value that is not a string");
            if (!joined.empty()) joined += '\n';
            joined += std::string(*it);
        }
        return copy_out_string(joined, buffer, capacity, length, err);
    });
}
