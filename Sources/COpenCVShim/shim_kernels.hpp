// Calling dualcam's own kernels (CDualcamKernels, raw buffers, no OpenCV)
// from the shim: their failures become the shim's, and row ranges run on
// OpenCV's threads so that the kernels need no thread pool of their own.
#pragma once
#include "dualcam_kernels.h"
#include "shim_common.hpp"
#include <opencv2/core/utility.hpp>
#include <mutex>

static_assert((int)DCK_OK == (int)DC_OK && (int)DCK_ERR_STD == (int)DC_ERR_STD &&
                  (int)DCK_ERR_UNKNOWN == (int)DC_ERR_UNKNOWN && (int)DCK_ERR_ARGUMENT == (int)DC_ERR_ARGUMENT,
              "DCK_* codes must equal the DC_* codes of the same meaning");

namespace dualcam_shim {

/// A kernel's status as the shim's: DC_OK, or the same code and message.
inline int kernel_status(int status, const dck_error &kernel, dc_error *err) {
    if (status == DCK_OK) return DC_OK;
    return fail(err, status, kernel.message);
}

/// A matrix's pixels as one continuous buffer (the kernels take one stride).
inline cv::Mat continuous(const cv::Mat &m) { return m.isContinuous() ? m : m.clone(); }

/// Row stripes per OpenCV thread: a few balance the load, and every stripe
/// is one kernel call that sets up its per-call state (window tables, plane
/// fits shared by a band of rows, argument checks) once; OpenCV's default of
/// one stripe per row would repeat that setup for every row.
constexpr int kStripesPerThread = 4;

/// Runs `body(begin, end, dck_error *)` (a kernel over part of `range`,
/// returning a DCK_* code) over `range` on OpenCV's threads, in
/// `stripesPerThread` parts per thread; returns the first failure.
template <typename Body>
int parallel_kernel(const cv::Range &range, dc_error *err, Body &&body, int stripesPerThread = kStripesPerThread) {
    const double nstripes = stripesPerThread * cv::getNumThreads();
    std::mutex lock;
    int first = DCK_OK;
    dck_error firstError{};
    cv::parallel_for_(range, [&](const cv::Range &part) {
        dck_error e{};
        const int status = body(part.start, part.end, &e);
        if (status == DCK_OK) return;
        std::lock_guard<std::mutex> guard(lock);
        if (first == DCK_OK) { first = status; firstError = e; }
    }, nstripes);
    return kernel_status(first, firstError, err);
}

}  // namespace dualcam_shim
