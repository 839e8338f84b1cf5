// module DualcamStereo: disparity depth from a wide/tele (or same-lens) pair:
// rectification into one common camera pair, matching, consistency checks,
// subpixel refinement, confidence, and edge-aware filtering.
