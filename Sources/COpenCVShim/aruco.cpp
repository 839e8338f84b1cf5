// ChArUco boards (opencv_contrib aruco, OpenCV 4.6 API): rendering and
// corner detection for calibration images.
#include "dualcam_opencv_patterns.h"
#include "shim_handles.hpp"
#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

using namespace dualcam_shim;

namespace {

// The dictionaries dualcam accepts, by OpenCV's names.
const std::pair<const char *, cv::aruco::PREDEFINED_DICTIONARY_NAME> dictionaries[] = {
    {"DICT_4X4_50", cv::aruco::DICT_4X4_50},     {"DICT_4X4_100", cv::aruco::DICT_4X4_100},
    {"DICT_4X4_250", cv::aruco::DICT_4X4_250},   {"DICT_4X4_1000", cv::aruco::DICT_4X4_1000},
    {"DICT_5X5_50", cv::aruco::DICT_5X5_50},     {"DICT_5X5_100", cv::aruco::DICT_5X5_100},
    {"DICT_5X5_250", cv::aruco::DICT_5X5_250},   {"DICT_5X5_1000", cv::aruco::DICT_5X5_1000},
    {"DICT_6X6_50", cv::aruco::DICT_6X6_50},     {"DICT_6X6_100", cv::aruco::DICT_6X6_100},
    {"DICT_6X6_250", cv::aruco::DICT_6X6_250},   {"DICT_6X6_1000", cv::aruco::DICT_6X6_1000},
    {"DICT_7X7_50", cv::aruco::DICT_7X7_50},     {"DICT_7X7_100", cv::aruco::DICT_7X7_100},
    {"DICT_7X7_250", cv::aruco::DICT_7X7_250},   {"DICT_7X7_1000", cv::aruco::DICT_7X7_1000},
    {"DICT_ARUCO_ORIGINAL", cv::aruco::DICT_ARUCO_ORIGINAL},
};

/// Builds the OpenCV board for `spec`, or fills `err` and returns DC_ERR_ARGUMENT.
int make_board(const dc_charuco_board *spec, cv::Ptr<cv::aruco::CharucoBoard> &board, dc_error *err) {
    if (!spec || !spec->dictionary) return fail(err, DC_ERR_ARGUMENT, "NULL board or dictionary name");
    const std::string name = spec->dictionary;
    const cv::aruco::PREDEFINED_DICTIONARY_NAME *id = nullptr;
    for (const auto &entry : dictionaries)
        if (name == entry.first) id = &entry.second;
    if (!id) {
        std::string accepted;
        for (const auto &entry : dictionaries) accepted += (accepted.empty() ? "" : ", ") + std::string(entry.first);
        return fail(err, DC_ERR_ARGUMENT, "unknown ArUco dictionary '" + name + "' (accepted: " + accepted + ")");
    }
    if (spec->squares_x < 2 || spec->squares_y < 2)
        return fail(err, DC_ERR_ARGUMENT,
                    "a ChArUco board needs at least 2x2 squares, got " + std::to_string(spec->squares_x) + "x" +
                        std::to_string(spec->squares_y));
    if (!(spec->square_length > 0) || !std::isfinite(spec->square_length) || !(spec->marker_length > 0) ||
        !(spec->marker_length < spec->square_length))
        return fail(err, DC_ERR_ARGUMENT, "the marker length must be positive and smaller than the square length");
    const cv::Ptr<cv::aruco::Dictionary> dictionary = cv::aruco::getPredefinedDictionary(*id);
    const long needed = long(spec->squares_x) * spec->squares_y / 2;
    if (needed > dictionary->bytesList.rows)
        return fail(err, DC_ERR_ARGUMENT,
                    "the board needs " + std::to_string(needed) + " markers but " + name + " has " +
                        std::to_string(dictionary->bytesList.rows));
    board = cv::aruco::CharucoBoard::create(spec->squares_x, spec->squares_y, float(spec->square_length),
                                            float(spec->marker_length), dictionary);
    return DC_OK;
}

/// OpenCV 4.6 refines interpolated ChArUco corners only to 0.1 px (default
/// DetectorParameters); refine each again to 0.001 px with OpenCV's own
/// window rule: half-size = distance to the nearest marker corner - 2, in 1...10.
void refine(const cv::Mat &gray, const std::vector<std::vector<cv::Point2f>> &markers,
            std::vector<cv::Point2f> &corners) {
    for (cv::Point2f &corner : corners) {
        double nearest = HUGE_VAL;
        for (const auto &marker : markers)
            for (const cv::Point2f &p : marker) nearest = std::min(nearest, double(cv::norm(p - corner)));
        const int half = std::max(1, std::min(10, int(nearest - 2)));
        std::vector<cv::Point2f> one{corner};
        cv::cornerSubPix(gray, one, cv::Size(half, half), cv::Size(-1, -1),
                         cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 100, 0.001));
        corner = one[0];
    }
}

}  // namespace

extern "C" int dc_charuco_render(const dc_charuco_board *spec, int width, int height, int border_bits,
                                 dc_mat **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!out) return fail(err, DC_ERR_ARGUMENT, "dc_charuco_render: out is NULL");
        *out = nullptr;
        cv::Ptr<cv::aruco::CharucoBoard> board;
        if (int status = make_board(spec, board, err)) return status;
        if (border_bits < 1) return fail(err, DC_ERR_ARGUMENT, "the marker border must be at least 1 bit");
        if (width < spec->squares_x || height < spec->squares_y)
            return fail(err, DC_ERR_ARGUMENT, "the image is smaller than one pixel per square");
        const double expected_height = double(width) * spec->squares_y / spec->squares_x;
        if (std::abs(expected_height - height) > 1.0)
            return fail(err, DC_ERR_ARGUMENT,
                        "a " + std::to_string(width) + "x" + std::to_string(height) + " image does not have the " +
                            std::to_string(spec->squares_x) + "x" + std::to_string(spec->squares_y) +
                            " board's aspect ratio (height " + std::to_string(expected_height) + " expected)");
        cv::Mat image;
        board->draw(cv::Size(width, height), image, 0, border_bits);
        if (image.empty() || image.type() != CV_8UC1)
            return fail(err, DC_ERR_OPENCV, "CharucoBoard::draw did not produce a uint8 image");
        *out = new dc_mat{std::move(image)};
        return DC_OK;
    });
}

extern "C" int dc_charuco_detect(const dc_mat *image, const dc_charuco_board *spec, int capacity, int *ids,
                                 double *xy, int *count, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!image || !ids || !xy || !count) return fail(err, DC_ERR_ARGUMENT, "dc_charuco_detect: NULL argument");
        *count = 0;
        cv::Ptr<cv::aruco::CharucoBoard> board;
        if (int status = make_board(spec, board, err)) return status;
        const int most = (spec->squares_x - 1) * (spec->squares_y - 1);
        if (capacity < most)
            return fail(err, DC_ERR_ARGUMENT,
                        "room for " + std::to_string(capacity) + " corners, the board has " + std::to_string(most));
        const cv::Mat &input = image->mat;
        if (input.empty() || input.depth() != CV_8U || (input.channels() != 1 && input.channels() != 3))
            return fail(err, DC_ERR_ARGUMENT, "ChArUco detection needs a uint8 image with 1 or 3 channels");
        cv::Mat gray;
        if (input.channels() == 3) cv::cvtColor(input, gray, cv::COLOR_BGR2GRAY);
        else gray = input;
        std::vector<std::vector<cv::Point2f>> marker_corners;
        std::vector<int> marker_ids;
        cv::aruco::detectMarkers(gray, board->dictionary, marker_corners, marker_ids);
        if (marker_ids.empty()) return DC_OK;
        std::vector<cv::Point2f> corners;
        std::vector<int> corner_ids;
        cv::aruco::interpolateCornersCharuco(marker_corners, marker_ids, gray, board, corners, corner_ids);
        if (corners.size() != corner_ids.size() || int(corners.size()) > capacity)
            return fail(err, DC_ERR_OPENCV, "interpolateCornersCharuco returned inconsistent corners");
        refine(gray, marker_corners, corners);
        for (size_t i = 0; i < corners.size(); ++i) {
            ids[i] = corner_ids[i];
            xy[2 * i] = corners[i].x;
            xy[2 * i + 1] = corners[i].y;
        }
        *count = int(corners.size());
        return DC_OK;
    });
}
