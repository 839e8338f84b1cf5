/* Intentionally empty: OpenCV's C++ headers are included by CDualcamOpenCV only. */
