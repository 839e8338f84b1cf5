import DualcamCV
print("dualcam", OpenCVInfo.version)
