// module DualcamImaging
