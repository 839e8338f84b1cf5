// Internal helpers of the kernel target: the exception barrier every
// entry point that can fail runs its body in, and the multiversioning macro.
#pragma once
#include "dualcam_kernels.h"
#include <cstdio>
#include <exception>
#include <string>

/// Compiles a function twice (AVX2+FMA and the baseline) where the compiler
/// supports it on x86-64; the loader picks the one the CPU runs. Elsewhere
/// (aarch64, gcc) the baseline build only.
#if defined(__x86_64__) && defined(__clang__)
#define DCK_MULTIVERSION __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define DCK_MULTIVERSION
#endif

namespace dualcam_kernels {

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
/// Whether the CPU runs AVX code (asked once per process).
inline bool cpu_has_avx() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx") != 0;
    }();
    return has;
}

/// Whether the CPU runs AVX2 code (asked once per process).
inline bool cpu_has_avx2() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return has;
}
#else
inline bool cpu_has_avx() { return false; }
inline bool cpu_has_avx2() { return false; }
#endif

inline int fail(dck_error *err, int code, const std::string &message) {
    if (err) {
        err->code = code;
        std::snprintf(err->message, sizeof err->message, "%s", message.c_str());
    }
    return code;
}

/// DCK_OK when the row range [y0, y1) lies within an image of `rows` rows;
/// otherwise an argument error naming the kernel (`what`).
inline int check_rows(int y0, int y1, int rows, const char *what, dck_error *err) {
    if (y0 < 0 || y0 > y1 || y1 > rows) return fail(err, DCK_ERR_ARGUMENT, std::string(what) + ": rows out of range");
    return DCK_OK;
}

/// Runs `body` (which returns a DCK_* code) and converts any exception into an
/// error code plus message. No exception ever leaves this function.
template <typename Body>
int guarded(dck_error *err, Body &&body) noexcept {
    if (err) {
        err->code = DCK_OK;
        err->message[0] = '\0';
    }
    try {
        return body();
    } catch (const std::exception &e) {
        return fail(err, DCK_ERR_STD, e.what());
    } catch (...) {
        return fail(err, DCK_ERR_UNKNOWN, "unknown C++ exception");
    }
}

/// The body of a row-range entry point: `check(job, y0, y1, err)` first, then
/// `run(*job, y0, y1)`, behind the exception barrier.
template <typename Job, typename Check, typename Run>
int guarded_rows(const Job *job, int y0, int y1, dck_error *err, Check &&check, Run &&run) noexcept {
    return guarded(err, [&]() -> int {
        if (int status = check(job, y0, y1, err)) return status;
        run(*job, y0, y1);
        return DCK_OK;
    });
}

}  // namespace dualcam_kernels
