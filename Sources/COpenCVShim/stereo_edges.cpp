// Depth-edge snapping for filtered disparity maps (see dualcam_opencv_stereo_edges.h).
//
// The algorithm is CDualcamKernels' (dualcam_kernels_edges.h: jump pixels,
// half-occlusion anchors, plane fits and the per-pixel choice, which no
// library does); OpenCV does the parts it does well in between: the
// labelling of the jump pixels and of the surface pieces, and the zone dilation.
#include "dualcam_opencv_stereo_edges.h"
#include "shim_imgproc.hpp"
#include "shim_kernels.hpp"
#include <opencv2/imgproc.hpp>
#include <memory>
#include <vector>

using namespace dualcam_shim;

namespace {

dck_edge_params kernel_params(const dc_edge_snap_params &p) {
    return dck_edge_params{p.jump_pixels, p.jump_relative, p.margin, p.radius, p.occlusion_side, p.disparity_scale,
                           p.max_fit_rms};
}

/// The depth edges of a measured disparity map `u` (continuous float32):
/// jump pixels, for each hole of a half-occlusion run the anchor column and
/// the bounding measurement of the side it takes, and the zone (every pixel
/// within `margin` of a jump pixel); `pieces` (`surface_pieces`, empty
/// until found) the surfaces the zone separates.
struct EdgeZone {
    cv::Mat edge, anchor, sideValue, zone, pieces;
};

/// The surfaces the zone of `edges` separates on the measured map `u`: the
/// 8-connected pieces of its reliable measurements (outside the zone),
/// labelled (int32, 0 = none). They need no fill, so they are found with the
/// zone, before the fill runs.
void surface_pieces(const cv::Mat &u, EdgeZone &edges) {
    cv::Mat reliable(u.size(), CV_8U);
    dck_edge_reliable(u.ptr<float>(), edges.zone.ptr<uint8_t>(), reliable.ptr<uint8_t>(), (size_t)u.cols, u.cols, u.rows);
    cv::connectedComponents(reliable, edges.pieces, 8, CV_32S);
}

int find_edge_zone(const cv::Mat &u, const dc_edge_snap_params &p, EdgeZone &z, dc_error *err) {
    const int W = u.cols, H = u.rows, M = p.margin;
    z.edge.create(u.size(), CV_8U);
    z.anchor.create(u.size(), CV_32S);
    z.sideValue.create(u.size(), CV_32F);
    const dck_edge_params kp = kernel_params(p);
    dck_error e{};
    if (int status = dck_edge_jumps(u.ptr<float>(), (size_t)W, W, H, &kp, z.edge.ptr<uint8_t>(),
                                    z.anchor.ptr<int32_t>(), z.sideValue.ptr<float>(), &e))
        return kernel_status(status, e, err);
    cv::Mat labels, stats, centroids;
    const int count = cv::connectedComponentsWithStats(z.edge, labels, stats, centroids, 8, CV_32S);
    std::vector<int32_t> areas((size_t)count);
    for (int i = 0; i < count; ++i) areas[(size_t)i] = stats.at<int>(i, cv::CC_STAT_AREA);
    dck_edge_drop_small(z.edge.ptr<uint8_t>(), labels.ptr<int32_t>(), areas.data(), count, (size_t)W, W, H);
    cv::dilate(z.edge, z.zone, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * M + 1, 2 * M + 1)));
    return DC_OK;
}

/// Validates the parameters (the same for the zone and the snap).
int check_snap_params(const dc_edge_snap_params *params, dc_error *err) {
    if (!params) return fail(err, DC_ERR_ARGUMENT, "edge snap parameters are NULL");
    const dc_edge_snap_params &p = *params;
    if (!(p.jump_pixels > 0) || !(p.jump_relative >= 0) || p.margin < 0 || p.margin > DCK_MAX_EDGE_REACH ||
        p.radius < 1 || p.radius > DCK_MAX_EDGE_REACH || !(p.disparity_scale >= 0 && p.disparity_scale < 1e6) ||
        !(p.max_fit_rms >= 0))
        return fail(err, DC_ERR_ARGUMENT,
                    "edge snap needs jump_pixels > 0, jump_relative >= 0, margin 0 to 32, radius 1 to 32, "
                    "a finite disparity_scale >= 0, max_fit_rms >= 0");
    return DC_OK;
}

/// The parameters and a float32, 1-channel measured disparity (the zone's checks).
int check_zone_inputs(const dc_mat *measured, const dc_edge_snap_params *params, dc_error *err) {
    if (int status = check_snap_params(params, err)) return status;
    if (int status = check_input(measured, "measured disparity", err)) return status;
    if (measured->mat.type() != CV_32FC1)
        return fail(err, DC_ERR_ARGUMENT, "the measured disparity must be float32, 1 channel");
    return DC_OK;
}

int check_snap_inputs(const cv::Mat &measured, const dc_mat *confidence, const dc_mat *filled, const dc_mat *covered,
                      dc_error *err) {
    if (int status = check_input(filled, "filled disparity", err)) return status;
    const cv::Size size = measured.size();
    if (measured.type() != CV_32FC1 || filled->mat.type() != CV_32FC1 || filled->mat.size() != size)
        return fail(err, DC_ERR_ARGUMENT, "measured and filled disparities must be float32, 1 channel, one size");
    if (confidence && (confidence->mat.type() != CV_32FC1 || confidence->mat.size() != size))
        return fail(err, DC_ERR_ARGUMENT, "the confidence must be float32, 1 channel, the disparities' size");
    if (covered && (covered->mat.type() != CV_8UC1 || covered->mat.size() != size))
        return fail(err, DC_ERR_ARGUMENT, "the covered mask must be 8-bit, 1 channel, the disparities' size");
    return DC_OK;
}

/// The snap of `filled` to the edges `edges` of the measured map `u`
/// (continuous float32) found with `params` (dc_disparity_edge_snap).
int snap(const cv::Mat &u, const EdgeZone &edges, const dc_edge_snap_params *params, const dc_mat *confidence,
         const dc_mat *filled, const dc_mat *covered, dc_mat **out, dc_error *err) {
    const int W = u.cols, H = u.rows;
    CV_Assert(edges.pieces.type() == CV_32SC1 && edges.pieces.isContinuous() && edges.pieces.size() == u.size());
    const cv::Mat &labels = edges.pieces;
    cv::Mat result = filled->mat.clone();
    const cv::Mat conf = confidence ? continuous(confidence->mat) : cv::Mat();
    const cv::Mat cover = covered ? continuous(covered->mat) : cv::Mat();
    const dck_edge_snap_job job{u.ptr<float>(), confidence ? conf.ptr<float>() : nullptr,
                                edges.sideValue.ptr<float>(), result.ptr<float>(),
                                covered ? cover.ptr<uint8_t>() : nullptr, edges.zone.ptr<uint8_t>(),
                                edges.anchor.ptr<int32_t>(), labels.ptr<int32_t>(), (size_t)W, W, H,
                                kernel_params(*params)};
    if (int status = parallel_kernel(cv::Range(0, H), err,
                                     [&](int y0, int y1, dck_error *e) { return dck_edge_snap_rows(&job, y0, y1, e); }))
        return status;
    return emit(std::move(result), out, err);
}

}  // namespace

/// Edges found by dc_edge_zone_find: the measured map, the parameters and the edges.
struct dc_edge_zone {
    cv::Mat measured;
    dc_edge_snap_params params;
    EdgeZone edges;
};

extern "C" int dc_disparity_edge_snap(const dc_mat *measured, const dc_mat *confidence, const dc_mat *filled,
                                      const dc_mat *covered, const dc_edge_snap_params *params, dc_mat **out,
                                      dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_disparity_edge_snap: out is NULL");
        *out = nullptr;
        if (int status = check_snap_params(params, err)) return status;
        if (int status = check_input(measured, "measured disparity", err)) return status;
        if (int status = check_snap_inputs(measured->mat, confidence, filled, covered, err)) return status;
        const cv::Mat u = continuous(measured->mat);
        EdgeZone edges;
        if (int status = find_edge_zone(u, *params, edges, err)) return status;
        surface_pieces(u, edges);
        return snap(u, edges, params, confidence, filled, covered, out, err);
    });
}

extern "C" int dc_edge_zone_find(const dc_mat *measured, const dc_edge_snap_params *params, dc_edge_zone **out,
                                 dc_mat **zone, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out || !zone) return fail(err, DC_ERR_ARGUMENT, "dc_edge_zone_find: out is NULL");
        *out = nullptr; *zone = nullptr;
        if (int status = check_zone_inputs(measured, params, err)) return status;
        std::unique_ptr<dc_edge_zone> found(new dc_edge_zone{measured->mat.clone(), *params, EdgeZone{}});
        if (int status = find_edge_zone(found->measured, *params, found->edges, err)) return status;
        surface_pieces(found->measured, found->edges);
        cv::Mat mask = found->edges.zone * 255;
        if (int status = emit(std::move(mask), zone, err)) return status;
        *out = found.release();
        return DC_OK;
    });
}

extern "C" void dc_edge_zone_free(dc_edge_zone *edges) { delete edges; }

extern "C" int dc_edge_zone_snap(const dc_edge_zone *edges, const dc_mat *confidence, const dc_mat *filled,
                                 const dc_mat *covered, dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_edge_zone_snap: out is NULL");
        *out = nullptr;
        if (!edges) return fail(err, DC_ERR_ARGUMENT, "dc_edge_zone_snap: edges are NULL");
        if (int status = check_snap_inputs(edges->measured, confidence, filled, covered, err)) return status;
        return snap(edges->measured, edges->edges, &edges->params, confidence, filled, covered, out, err);
    });
}

extern "C" int dc_disparity_edge_zone(const dc_mat *measured, const dc_edge_snap_params *params, dc_mat **out,
                                      dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_disparity_edge_zone: out is NULL");
        *out = nullptr;
        if (int status = check_zone_inputs(measured, params, err)) return status;
        EdgeZone edges;
        if (int status = find_edge_zone(continuous(measured->mat), *params, edges, err)) return status;
        cv::Mat zone = edges.zone * 255;
        return emit(std::move(zone), out, err);
    });
}
