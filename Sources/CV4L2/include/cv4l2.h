// CV4L2: the Linux V4L2 kernel API as Swift can call it.
//
// Swift imports the v4l2_* structs from <linux/videodev2.h> directly, but not
// the function-like macros (VIDIOC_* request codes built with _IOWR, the
// v4l2_fourcc pixel formats) nor variadic functions (ioctl, open). This header
// turns those into constants and plain static inline functions. No logic here.
#ifndef DUALCAM_CV4L2_H
#define DUALCAM_CV4L2_H

#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

// ioctl request codes.
static const unsigned long DC_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long DC_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long DC_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long DC_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long DC_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long DC_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long DC_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long DC_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long DC_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long DC_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long DC_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long DC_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long DC_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long DC_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;

// Pixel formats (v4l2_fourcc is a function-like macro).
static const unsigned int DC_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const unsigned int DC_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const unsigned int DC_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
static const unsigned int DC_PIX_FMT_UYVY = V4L2_PIX_FMT_UYVY;
static const unsigned int DC_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
static const unsigned int DC_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const unsigned int DC_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;

// Flags and enum values used by dualcam, as plain unsigned constants.
static const unsigned int DC_BUF_TYPE_VIDEO_CAPTURE = V4L2_BUF_TYPE_VIDEO_CAPTURE;
static const unsigned int DC_MEMORY_MMAP = V4L2_MEMORY_MMAP;
static const unsigned int DC_FIELD_ANY = V4L2_FIELD_ANY;
static const unsigned int DC_FRMSIZE_TYPE_DISCRETE = V4L2_FRMSIZE_TYPE_DISCRETE;
static const unsigned int DC_FRMSIZE_TYPE_CONTINUOUS = V4L2_FRMSIZE_TYPE_CONTINUOUS;
static const unsigned int DC_FRMSIZE_TYPE_STEPWISE = V4L2_FRMSIZE_TYPE_STEPWISE;
static const unsigned int DC_FRMIVAL_TYPE_DISCRETE = V4L2_FRMIVAL_TYPE_DISCRETE;
static const unsigned int DC_FRMIVAL_TYPE_CONTINUOUS = V4L2_FRMIVAL_TYPE_CONTINUOUS;
static const unsigned int DC_FRMIVAL_TYPE_STEPWISE = V4L2_FRMIVAL_TYPE_STEPWISE;
static const unsigned int DC_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const unsigned int DC_CAP_VIDEO_CAPTURE_MPLANE = V4L2_CAP_VIDEO_CAPTURE_MPLANE;
static const unsigned int DC_CAP_STREAMING = V4L2_CAP_STREAMING;
static const unsigned int DC_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
static const unsigned int DC_CAP_TIMEPERFRAME = V4L2_CAP_TIMEPERFRAME;
static const unsigned int DC_FMT_FLAG_COMPRESSED = V4L2_FMT_FLAG_COMPRESSED;
static const unsigned int DC_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR;
static const unsigned int DC_BUF_FLAG_TIMESTAMP_MASK = V4L2_BUF_FLAG_TIMESTAMP_MASK;
static const unsigned int DC_BUF_FLAG_TIMESTAMP_UNKNOWN = V4L2_BUF_FLAG_TIMESTAMP_UNKNOWN;
static const unsigned int DC_BUF_FLAG_TIMESTAMP_MONOTONIC = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
static const unsigned int DC_BUF_FLAG_TIMESTAMP_COPY = V4L2_BUF_FLAG_TIMESTAMP_COPY;

// Syscalls. Each returns what the syscall returns; errno is read right after
// the call through dc_errno() (Swift cannot read the errno macro reliably).
static inline int dc_open(const char *path, int flags) { return open(path, flags); }
static inline int dc_close(int fd) { return close(fd); }
static inline int dc_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
static inline void *dc_mmap(int fd, size_t length, long offset) {
    return mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
}
static inline int dc_mmap_failed(const void *p) { return p == MAP_FAILED; }
static inline int dc_munmap(void *p, size_t length) { return munmap(p, length); }
static inline int dc_poll(struct pollfd *fds, unsigned long count, int timeout_ms) {
    return poll(fds, (nfds_t)count, timeout_ms);
}
static inline int dc_errno(void) { return errno; }
static inline int dc_open_flags_rdwr_nonblock(void) { return O_RDWR | O_NONBLOCK | O_CLOEXEC; }
static inline short dc_poll_in(void) { return POLLIN; }
static inline short dc_poll_error_mask(void) { return POLLERR | POLLHUP | POLLNVAL; }
static inline long long dc_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
