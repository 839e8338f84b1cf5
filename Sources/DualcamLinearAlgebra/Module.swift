// module DualcamLinearAlgebra
