import XCTest
@testable import DualcamFusion
