#include "shim_common.hpp"

extern "C" const char *dc_opencv_version(void) { return CV_VERSION; }
