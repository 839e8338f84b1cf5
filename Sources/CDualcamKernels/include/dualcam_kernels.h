/*
 * dualcam's own image kernels (stereo refinement, depth-edge snapping,
 * edge-aware solver steps, depth-edge relabelling) on raw buffers, behind a
 * plain C API. No OpenCV here: COpenCVShim runs the OpenCV operations a
 * kernel needs before or after it (morphology, connected components,
 * transposes) and spreads row ranges over OpenCV's threads.
 *
 * Rules for every entry point that can fail: it returns DCK_OK (0) or a
 * non-zero DCK_ERR_* code and fills `err` with a one-line message; no C++
 * exception ever crosses. Entry points that only do arithmetic on the
 * caller's buffers cannot fail and return void.
 *
 * Images are row-major; `stride` is the distance between the starts of two
 * rows in elements of the buffer's type (>= cols).
 */
#ifndef DUALCAM_KERNELS_H
#define DUALCAM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The codes equal the shim's DC_ERR_* codes of the same meaning. */
enum {
    DCK_OK = 0,
    DCK_ERR_STD = 2,      /* std::exception (e.g. out of memory) */
    DCK_ERR_UNKNOWN = 3,  /* anything else thrown */
    DCK_ERR_ARGUMENT = 4, /* invalid argument detected by the kernel */
};

typedef struct dck_error {
    int code;
    char message[512];
} dck_error;

#ifdef __cplusplus
}
#endif

#include "dualcam_kernels_stereo.h"
#include "dualcam_kernels_edges.h"
#include "dualcam_kernels_fill.h"

#endif
