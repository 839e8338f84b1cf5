// module DualcamFusion: LiDAR-style absolute depth: sparse metric samples fused
// with the wide colour image and (optionally) stereo into dense metric depth.
