// CV4L2 is header-only (static inline wrappers in include/cv4l2.h); SwiftPM
// needs one source file to build a C target.
#include "cv4l2.h"
