/*
 * dualcam's one wall around OpenCV: a plain C API over the few OpenCV
 * facilities dualcam uses. Rules for every entry point:
 *   - returns DC_OK (0) on success, a non-zero DC_ERR_* code on failure;
 *   - never lets a C++ exception cross: every body is wrapped in try/catch
 *     (cv::Exception, std::exception, ...), which fills `err` with the code and
 *     a one-line message;
 *   - handles (dc_mat, dc_fs, ...) are opaque, created by the shim and released
 *     with their *_free function exactly once (Swift does it in deinit);
 *     the *_free functions and dc_free_buffer return void: they cannot fail.
 * Image operations (warps, remap, resize, colour / depth conversion, blur,
 * phase correlation) are declared in dualcam_opencv_imgproc.h and calibration
 * patterns (ChArUco, chessboard) in dualcam_opencv_patterns.h, video files
 * (cv::VideoWriter / cv::VideoCapture) in dualcam_opencv_video.h, colour maps
 * and text (previews) in dualcam_opencv_drawing.h, camera and stereo
 * calibration (calib3d) in dualcam_opencv_calibrate.h, same rules.
 * dualcam's own algorithms are not here: they are CDualcamKernels' (raw
 * buffers, no OpenCV, dualcam_kernels.h); the shim's entry points that use
 * them run the OpenCV steps and call the kernels, with the same rules.
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
    DC_ERR_IO = 7,          /* file exists but cannot be opened, read or written */
};

typedef struct dc_error {
    int code;
    char message[1024];
} dc_error;

/* OpenCV's version string, e.g. "4.6.0". Never fails. */
const char *dc_opencv_version(void);

/* Releases a buffer the shim allocated with malloc (dc_imencode, strings). */
void dc_free_buffer(void *buffer);

/* ---------------------------------------------------------------- dc_mat --
 * An owned cv::Mat. Element depth codes equal OpenCV's CV_8U ... CV_16F. */
enum {
    DC_DEPTH_U8 = 0,
    DC_DEPTH_S8 = 1,
    DC_DEPTH_U16 = 2,
    DC_DEPTH_S16 = 3,
    DC_DEPTH_S32 = 4,
    DC_DEPTH_F32 = 5,
    DC_DEPTH_F64 = 6,
    DC_DEPTH_F16 = 7,
};

typedef struct dc_mat dc_mat;

typedef struct dc_mat_info {
    int rows;
    int cols;
    int channels;
    int depth;        /* DC_DEPTH_* */
    size_t elem_size; /* bytes per pixel (all channels) */
    size_t step;      /* bytes between the starts of consecutive rows */
    void *data;       /* first byte of row 0; owned by the dc_mat */
} dc_mat_info;

/* Creates a rows x cols matrix with `channels` interleaved channels of `depth`
 * (rows, cols >= 1; channels 1...512). When `data` is not NULL, rows are copied
 * from it, `row_stride` bytes apart (row_stride >= cols*channels*size);
 * otherwise the matrix is zero-filled. */
int dc_mat_create(int rows, int cols, int channels, int depth, const void *data,
                  size_t row_stride, dc_mat **out, dc_error *err);
int dc_mat_get_info(const dc_mat *mat, dc_mat_info *out, dc_error *err);
/* Frees a matrix (NULL is ignored). Cannot fail. */
void dc_mat_free(dc_mat *mat);

/* ---------------------------------------------------------------- codecs --
 * Images are read without applying EXIF orientation, so pixel coordinates are
 * always the sensor's. Channels are in OpenCV's order (BGR / BGRA). */
enum {
    DC_IMREAD_UNCHANGED = 0, /* keep depth and channels (alpha included) */
    DC_IMREAD_COLOR = 1,     /* 8-bit, 3 channels BGR */
    DC_IMREAD_GRAYSCALE = 2, /* 8-bit, 1 channel */
};

/* Keys for dc_imwrite / dc_imencode params (values equal OpenCV's ImwriteFlags). */
enum {
    DC_IMWRITE_JPEG_QUALITY = 1,      /* 0...100, default 95 */
    DC_IMWRITE_PNG_COMPRESSION = 16,  /* 0...9, default 1 */
    DC_IMWRITE_EXR_TYPE = 48,         /* DC_IMWRITE_EXR_TYPE_HALF or _FLOAT */
    DC_IMWRITE_TIFF_COMPRESSION = 259,/* libtiff compression scheme, e.g. 1 = none, 5 = LZW */
};
enum {
    DC_IMWRITE_EXR_TYPE_HALF = 1,
    DC_IMWRITE_EXR_TYPE_FLOAT = 2,
};

/* Reads an image file. Missing file: DC_ERR_NOT_FOUND; unreadable (permissions,
 * directory): DC_ERR_IO; undecodable content: DC_ERR_DECODE. */
int dc_imread(const char *path, int flags, dc_mat **out, dc_error *err);
/* Decodes an image held in memory. Undecodable content: DC_ERR_DECODE. */
int dc_imdecode(const void *data, size_t length, int flags, dc_mat **out, dc_error *err);
/* Writes `mat` in the format chosen by the path's extension. `params` holds
 * `param_count` ints (cv::ImwriteFlags key/value pairs), may be NULL.
 * No writer for the extension: DC_ERR_ARGUMENT; writer failed: DC_ERR_IO. */
int dc_imwrite(const char *path, const dc_mat *mat, const int *params, int param_count,
               dc_error *err);
/* Encodes `mat` in memory in the format of `extension` (".png", "png", ...).
 * On success `*out` is a malloc'd buffer of `*length` bytes to release with
 * dc_free_buffer. */
int dc_imencode(const char *extension, const dc_mat *mat, const int *params, int param_count,
                uint8_t **out, size_t *length, dc_error *err);
/* Sets `*out` to 1 when this OpenCV build can actually encode files with
 * `extension` (".exr", "tiff", ...), else 0. It probes the encoder with a
 * 1x1 image, so formats disabled at run time (OpenEXR) report 0. */
int dc_have_image_writer(const char *extension, int *out, dc_error *err);

/* ------------------------------------------------------------ dc_fs ------
 * cv::FileStorage (YAML / XML / JSON) for calibration files. Only top-level
 * keys are addressed. */
enum {
    DC_FS_READ = 0,
    DC_FS_WRITE = 1,
};
enum {
    DC_FS_FORMAT_YAML = 0,
    DC_FS_FORMAT_XML = 1,
    DC_FS_FORMAT_JSON = 2,
};

typedef struct dc_fs dc_fs;

/* Opens a file. For DC_FS_READ the syntax is detected from the content; for
 * DC_FS_WRITE it follows the extension (.yml, .yaml, .xml, .json, optionally
 * followed by .gz) and other extensions are DC_ERR_ARGUMENT.
 * Missing file when reading: DC_ERR_NOT_FOUND; cannot open: DC_ERR_IO;
 * unparsable: DC_ERR_DECODE. */
int dc_fs_open(const char *path, int mode, dc_fs **out, dc_error *err);
/* Parses `length` bytes of YAML / XML / JSON text held in memory. */
int dc_fs_open_memory_read(const char *text, size_t length, dc_fs **out, dc_error *err);
/* Starts an in-memory document in `format` (DC_FS_FORMAT_*); fetch it with
 * dc_fs_release_to_string. */
int dc_fs_open_memory_write(int format, dc_fs **out, dc_error *err);

int dc_fs_has_key(const dc_fs *fs, const char *key, int *out, dc_error *err);
/* Writes the top-level keys separated by '\n' into `buffer` (NUL-terminated)
 * and their byte count (without NUL) into `*length`. If `buffer` is NULL or
 * `capacity` <= length, only `*length` is set and DC_OK is returned when
 * buffer is NULL, DC_ERR_ARGUMENT otherwise. */
int dc_fs_list_top_keys(const dc_fs *fs, char *buffer, size_t capacity, size_t *length,
                        dc_error *err);
/* Reads a single-channel numeric matrix (any depth, converted to double) or a
 * flat sequence of numbers (as 1 x n) in row-major order. `*rows` and `*cols`
 * are always set on success; with `buffer` NULL only the size is reported,
 * otherwise `capacity` (in doubles) must be >= rows*cols. Missing key:
 * DC_ERR_NOT_FOUND; not a matrix: DC_ERR_DECODE. */
int dc_fs_read_matrix(const dc_fs *fs, const char *key, int *rows, int *cols, double *buffer,
                      size_t capacity, dc_error *err);
/* Reads a number (integer or real). */
int dc_fs_read_real(const dc_fs *fs, const char *key, double *out, dc_error *err);
/* Reads an integer; a real value is DC_ERR_DECODE. */
int dc_fs_read_int(const dc_fs *fs, const char *key, int64_t *out, dc_error *err);
/* Reads a string, same buffer protocol as dc_fs_list_top_keys. */
int dc_fs_read_string(const dc_fs *fs, const char *key, char *buffer, size_t capacity,
                      size_t *length, dc_error *err);

int dc_fs_write_matrix(dc_fs *fs, const char *key, int rows, int cols, const double *data,
                       dc_error *err);
int dc_fs_write_real(dc_fs *fs, const char *key, double value, dc_error *err);
int dc_fs_write_int(dc_fs *fs, const char *key, int value, dc_error *err);
int dc_fs_write_string(dc_fs *fs, const char *key, const char *value, dc_error *err);

/* Finishes the document: for a file opened for writing, flushes it and checks
 * that it was written (DC_ERR_IO otherwise). Further calls are DC_ERR_ARGUMENT.
 * The handle must still be freed with dc_fs_free. */
int dc_fs_release(dc_fs *fs, dc_error *err);
/* Finishes an in-memory document opened with dc_fs_open_memory_write and
 * returns its text as a malloc'd NUL-terminated buffer (dc_free_buffer). */
int dc_fs_release_to_string(dc_fs *fs, char **out, size_t *length, dc_error *err);
/* Frees the handle (releasing it first if needed; NULL is ignored). Cannot fail. */
void dc_fs_free(dc_fs *fs);

#ifdef __cplusplus
}
#endif

#endif
