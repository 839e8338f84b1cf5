/*
 * Video files behind dualcam's OpenCV wall: cv::VideoWriter and
 * cv::VideoCapture (videoio, FFmpeg backend when the build has it). Same rules
 * as dualcam_opencv.h. Frames are 8-bit, in OpenCV's channel order (BGR).
 */
#ifndef DUALCAM_OPENCV_VIDEO_H
#define DUALCAM_OPENCV_VIDEO_H

#include "dualcam_opencv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dc_video_writer dc_video_writer;
typedef struct dc_video_reader dc_video_reader;

/* Opens `path` for writing `width` x `height` frames at `fps` frames per
 * second with the codec named by the four characters `fourcc` ("MJPG",
 * "mp4v", ...); the container follows the path's extension. `is_color`
 * non-zero: 3-channel frames, else 1-channel. The directory must exist
 * (DC_ERR_IO otherwise); a codec / container this build cannot write is
 * DC_ERR_ARGUMENT. */
int dc_video_writer_open(const char *path, const char fourcc[4], double fps, int width, int height,
                         int is_color, dc_video_writer **out, dc_error *err);
/* Appends one frame: 8-bit, 3 channels (BGR) or 1 channel, exactly the size
 * given to dc_video_writer_open (DC_ERR_ARGUMENT otherwise). Grey frames are
 * expanded for colour writers and colour frames converted for grey ones. */
int dc_video_writer_write(dc_video_writer *writer, const dc_mat *mat, dc_error *err);
/* Finishes the file (flushes and closes it). Further writes or releases are
 * DC_ERR_ARGUMENT. The handle must still be freed. */
int dc_video_writer_release(dc_video_writer *writer, dc_error *err);
/* Frees the handle (closing the file if still open; NULL is ignored). Cannot fail. */
void dc_video_writer_free(dc_video_writer *writer);

/* Opens a video file for reading. Missing file: DC_ERR_NOT_FOUND; unreadable:
 * DC_ERR_IO; no backend can decode it: DC_ERR_DECODE. */
int dc_video_reader_open(const char *path, dc_video_reader **out, dc_error *err);
/* Frame size, nominal frame rate and the container's frame count (0 when
 * unknown; an estimate for some containers). Any out pointer may be NULL. */
int dc_video_reader_info(const dc_video_reader *reader, int *width, int *height, double *fps,
                         int64_t *frame_count, dc_error *err);
/* Decodes the next frame as 8-bit BGR into a new `*out` and sets `*got_frame`
 * to 1; at the end of the stream `*out` is NULL and `*got_frame` 0. */
int dc_video_reader_next(dc_video_reader *reader, dc_mat **out, int *got_frame, dc_error *err);
/* Frees the handle (NULL is ignored). Cannot fail. */
void dc_video_reader_free(dc_video_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
