// module DualcamCalibrationSolver: rig calibration from pattern views (detection,
// per-camera intrinsics, stereo extrinsics, joint refinement), verification of
// an existing calibration, and calibration test suites.
