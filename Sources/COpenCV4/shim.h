/* Intentionally empty: OpenCV's C++ headers are included by COpenCVShim only. */
