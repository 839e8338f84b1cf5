// module DualcamDepthMap: typed depth maps as a depth camera delivers them
// (depth in m, normalized disparity in 1/m, rectified pixel disparity),
// precision, accuracy (relative/absolute), filtered flag, quality, confidence
// levels, output sizes matched to the reference aspect, writers (PFM, NPY,
// PNG16, EXR), colour-mapped previews, the metadata JSON sidecar, and the
// metrics used to judge depth against ground truth. Shared by depth and fusion.
