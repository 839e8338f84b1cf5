// module DualcamCalibration
