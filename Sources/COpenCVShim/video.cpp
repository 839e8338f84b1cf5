// Video files: cv::VideoWriter / cv::VideoCapture behind the C API, turning
// OpenCV's silent failures (isOpened() false, empty frames) into error codes.
#include "shim_handles.hpp"
#include "dualcam_opencv_video.h"
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <opencv2/videoio/registry.hpp>
#include <cmath>
#include <memory>

using namespace dualcam_shim;

struct dc_video_writer {
    cv::VideoWriter writer;
    cv::Size size;
    bool color = true;
    bool released = false;
};

struct dc_video_reader {
    cv::VideoCapture capture;
};

namespace {

/// FFmpeg when this build has it (predictable containers, no GStreamer
/// pipelines parsed out of file names), else whatever OpenCV picks.
int preferred_backend() {
    return cv::videoio_registry::hasBackend(cv::CAP_FFMPEG) ? int(cv::CAP_FFMPEG) : int(cv::CAP_ANY);
}

std::string extension_of(const std::string &path) {
    const size_t slash = path.find_last_of('/');
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    return path.substr(dot);
}

/// Checks that the directory holding `path` exists and is a directory.
int check_parent_directory(const std::string &path, dc_error *err) {
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0)
        return fail(err, DC_ERR_IO, "directory " + dir + " does not exist");
    if (!S_ISDIR(st.st_mode)) return fail(err, DC_ERR_IO, dir + " is not a directory");
    return DC_OK;
}

}  // namespace

extern "C" int dc_video_writer_open(const char *path, const char fourcc[4], double fps, int width,
                                    int height, int is_color, dc_video_writer **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!path || !fourcc || !out) return fail(err, DC_ERR_ARGUMENT, "dc_video_writer_open: NULL argument");
        *out = nullptr;
        if (width < 1 || height < 1)
            return fail(err, DC_ERR_ARGUMENT,
                        "invalid frame size " + std::to_string(width) + "x" + std::to_string(height));
        if (!(fps > 0) || !std::isfinite(fps))
            return fail(err, DC_ERR_ARGUMENT, "invalid frame rate " + std::to_string(fps));
        const std::string code(fourcc, 4);
        for (char c : code)
            if (c < 32 || c > 126) return fail(err, DC_ERR_ARGUMENT, "fourcc must be 4 printable characters");
        if (int status = check_parent_directory(path, err)) return status;
        auto writer = std::make_unique<dc_video_writer>();
        writer->size = cv::Size(width, height);
        writer->color = is_color != 0;
        const int cc = cv::VideoWriter::fourcc(code[0], code[1], code[2], code[3]);
        writer->writer.open(path, preferred_backend(), cc, fps, writer->size, writer->color);
        if (!writer->writer.isOpened())
            return fail(err, DC_ERR_ARGUMENT,
                        "cannot write '" + code + "' video into a '" + extension_of(path) +
                            "' file (codec or container not supported by this OpenCV build, or the file cannot be created)");
        *out = writer.release();
        return DC_OK;
    });
}

extern "C" int dc_video_writer_write(dc_video_writer *writer, const dc_mat *mat, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!writer || !mat) return fail(err, DC_ERR_ARGUMENT, "dc_video_writer_write: NULL argument");
        if (writer->released) return fail(err, DC_ERR_ARGUMENT, "the video writer was already released");
        const cv::Mat &frame = mat->mat;
        if (frame.depth() != CV_8U || (frame.channels() != 3 && frame.channels() != 1))
            return fail(err, DC_ERR_ARGUMENT, "video frames must be 8-bit with 3 (BGR) or 1 channel");
        if (frame.size() != writer->size)
            return fail(err, DC_ERR_ARGUMENT,
                        "frame is " + std::to_string(frame.cols) + "x" + std::to_string(frame.rows) +
                            ", the video is " + std::to_string(writer->size.width) + "x" +
                            std::to_string(writer->size.height));
        if (writer->color && frame.channels() == 1) {
            cv::Mat bgr;
            cv::cvtColor(frame, bgr, cv::COLOR_GRAY2BGR);
            writer->writer.write(bgr);
        } else if (!writer->color && frame.channels() == 3) {
            cv::Mat grey;
            cv::cvtColor(frame, grey, cv::COLOR_BGR2GRAY);
            writer->writer.write(grey);
        } else {
            writer->writer.write(frame);
        }
        return DC_OK;
    });
}

extern "C" int dc_video_writer_release(dc_video_writer *writer, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!writer) return fail(err, DC_ERR_ARGUMENT, "dc_video_writer_release: NULL argument");
        if (writer->released) return fail(err, DC_ERR_ARGUMENT, "the video writer was already released");
        writer->released = true;
        writer->writer.release();
        return DC_OK;
    });
}

extern "C" void dc_video_writer_free(dc_video_writer *writer) {
    if (!writer) return;
    try {
        writer->writer.release();
    } catch (...) {
    }
    delete writer;
}

extern "C" int dc_video_reader_open(const char *path, dc_video_reader **out, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!path || !out) return fail(err, DC_ERR_ARGUMENT, "dc_video_reader_open: NULL argument");
        *out = nullptr;
        if (int status = check_readable_file(path, err)) return status;
        auto reader = std::make_unique<dc_video_reader>();
        reader->capture.open(path, preferred_backend());
        if (!reader->capture.isOpened())
            return fail(err, DC_ERR_DECODE, "cannot decode the video (unknown container or codec, or corrupt data)");
        *out = reader.release();
        return DC_OK;
    });
}

extern "C" int dc_video_reader_info(const dc_video_reader *reader, int *width, int *height, double *fps,
                                    int64_t *frame_count, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!reader) return fail(err, DC_ERR_ARGUMENT, "dc_video_reader_info: NULL reader");
        const cv::VideoCapture &cap = reader->capture;
        if (width) *width = int(cap.get(cv::CAP_PROP_FRAME_WIDTH));
        if (height) *height = int(cap.get(cv::CAP_PROP_FRAME_HEIGHT));
        if (fps) {
            const double rate = cap.get(cv::CAP_PROP_FPS);
            *fps = std::isfinite(rate) && rate > 0 ? rate : 0;
        }
        if (frame_count) {
            const double count = cap.get(cv::CAP_PROP_FRAME_COUNT);
            *frame_count = std::isfinite(count) && count > 0 ? int64_t(std::llround(count)) : 0;
        }
        return DC_OK;
    });
}

extern "C" int dc_video_reader_next(dc_video_reader *reader, dc_mat **out, int *got_frame, dc_error *err) {
    return guarded(err, [&]() -> int {
        if (!reader || !out || !got_frame) return fail(err, DC_ERR_ARGUMENT, "dc_video_reader_next: NULL argument");
        *out = nullptr;
        *got_frame = 0;
        cv::Mat frame;
        if (!reader->capture.read(frame) || frame.empty()) return DC_OK;
        if (frame.depth() != CV_8U)
            return fail(err, DC_ERR_DECODE, "the decoder returned a frame that is not 8-bit");
        if (frame.channels() == 1) {
            cv::Mat bgr;
            cv::cvtColor(frame, bgr, cv::COLOR_GRAY2BGR);
            frame = bgr;
        } else if (frame.channels() == 4) {
            cv::Mat bgr;
            cv::cvtColor(frame, bgr, cv::COLOR_BGRA2BGR);
            frame = bgr;
        } else if (frame.channels() != 3) {
            return fail(err, DC_ERR_DECODE, "the decoder returned a frame with " + std::to_string(frame.channels()) + " channels");
        }
        *out = new dc_mat{frame.isContinuous() ? frame : frame.clone()};
        *got_frame = 1;
        return DC_OK;
    });
}

extern "C" void dc_video_reader_free(dc_video_reader *reader) {
    if (!reader) return;
    try {
        reader->capture.release();
    } catch (...) {
    }
    delete reader;
}
