import XCTest
@testable import DualcamDepth
