/*
 * Drawing behind dualcam's OpenCV wall: colour maps and text, for previews
 * with legends. Same rules as dualcam_opencv.h: DC_OK or a DC_ERR_* code, no
 * C++ exception crosses, every `dc_mat **out` receives a new matrix the caller
 * frees with dc_mat_free. Colour matrices are in OpenCV's BGR / BGRA order.
 */
#ifndef DUALCAM_OPENCV_DRAWING_H
#define DUALCAM_OPENCV_DRAWING_H

#include "dualcam_opencv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Colour map codes (values equal OpenCV's ColormapTypes). */
enum {
    DC_COLORMAP_JET = 2,    /* 0 blue -> cyan -> yellow -> 255 red */
    DC_COLORMAP_TURBO = 20, /* perceptually smoother jet-like map */
};

/* Maps a uint8 1-channel matrix through colour map `colormap` into a new
 * uint8 3-channel BGR matrix of the same size. */
int dc_apply_color_map(const dc_mat *src, int colormap, dc_mat **out, dc_error *err);

/* Draws ASCII `text` in FONT_HERSHEY_SIMPLEX on a copy of `src` (uint8, 1, 3
 * or 4 channels) with the text baseline's left end at pixel (x, y), glyph
 * scale `scale` (1.0 is about 22 px tall caps), stroke `thickness` px and
 * anti-aliased lines. `color` holds `color_count` (1...4) values in the
 * matrix's channel order. Text outside the matrix is clipped. */
int dc_put_text(const dc_mat *src, const char *text, int x, int y, double scale, int thickness,
                const double *color, int color_count, dc_mat **out, dc_error *err);

/* The size in pixels of `text` drawn as dc_put_text would: width, height
 * above the baseline, and the baseline's depth below it. */
int dc_text_size(const char *text, double scale, int thickness, int *width, int *height, int *baseline,
                 dc_error *err);

#ifdef __cplusplus
}
#endif

#endif
