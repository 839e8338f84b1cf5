import XCTest
@testable import DualcamCalibrate
