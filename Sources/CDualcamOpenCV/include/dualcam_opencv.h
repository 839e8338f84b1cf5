/*
 * dualcam's one wall around OpenCV: a plain C API over the few OpenCV
 * facilities dualcam uses. Rules for every entry point:
 *   - returns DC_OK (0) on success, a non-zero DC_ERR_* code on failure;
 *   - never lets a C++ exception cross: every body is wrapped in try/catch
 *     (cv::Exception, std::exception, ...), which fills `err` with the code and
 *     a one-line message;
 *   - handles (dc_mat, dc_fs, ...) are opaque, created by the shim and released
 *     with their *_free function exactly once (Swift does it in deinit).
 */
#ifndef DUALCAM_OPENCV_H
#define DUALCAM_OPENCV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    DC_OK = 0,
    DC_ERR_OPENCV = 1,      /* cv::Exception */
    DC_ERR_STD = 2,         /* std::exception */
    DC_ERR_UNKNOWN = 3,     /* anything else thrown */
    DC_ERR_ARGUMENT = 4,    /* invalid argument detected by the shim */
    DC_ERR_NOT_FOUND = 5,   /* missing file or key */
    DC_ERR_DECODE = 6,      /* codec could not decode / encode */
};

typedef struct dc_error {
    int code;
    char message[1024];
} dc_error;

/* OpenCV's version string, e.g. "4.6.0". Never fails. */
const char *dc_opencv_version(void);

#ifdef __cplusplus
}
#endif

#endif
