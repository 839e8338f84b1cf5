import XCTest
@testable import DualcamDepthData
