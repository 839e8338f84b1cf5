// Internal helpers shared by the shim's translation units: the exception
// barrier every C entry point runs its body in.
#pragma once
#include "dualcam_opencv.h"
#include <opencv2/core.hpp>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace dualcam_shim {

inline void set_error(dc_error *err, int code, const std::string &message) {
    if (!err) return;
    err->code = code;
    // Keep the message on one line: OpenCV's what() spans several lines.
    std::string one = message;
    for (char &c : one) if (c == '\n' || c == '\r') c = ' ';
    std::snprintf(err->message, sizeof err->message, "%s", one.c_str());
}

inline void clear_error(dc_error *err) {
    if (!err) return;
    err->code = DC_OK;
    err->message[0] = '\0';
}

/// Records an error detected by the shim itself and returns its code, so that
/// bodies can `return fail(err, DC_ERR_ARGUMENT, "...")`.
inline int fail(dc_error *err, int code, const std::string &message) {
    set_error(err, code, message);
    return code;
}

/// Runs `body` (which returns a DC_* code) and converts any exception into an
/// error code plus message. No exception ever leaves this function.
template <typename Body>
int guarded(dc_error *err, Body &&body) noexcept {
    clear_error(err);
    try {
        return body();
    } catch (const cv::Exception &e) {
        std::string msg = e.err.empty() ? std::string(e.what()) : e.err;
        if (!e.func.empty()) msg += " (in " + e.func + ")";
        set_error(err, DC_ERR_OPENCV, msg);
        return DC_ERR_OPENCV;
    } catch (const std::exception &e) {
        set_error(err, DC_ERR_STD, e.what());
        return DC_ERR_STD;
    } catch (...) {
        set_error(err, DC_ERR_UNKNOWN, "unknown C++ exception");
        return DC_ERR_UNKNOWN;
    }
}

}  // namespace dualcam_shim
