import DualcamImaging
import DualcamSupport
import XCTest

final class DrawingTests: XCTestCase {
    func testJetMapsLowToBlueAndHighToRed() throws {
        let ramp = try Image(width: 2, height: 1, channels: 1, pixels: [UInt8(0), 255])
        let rgb = try ImageOps.applyColorMap(ramp, .jet)
        XCTAssertEqual(rgb.channels, 3)
        XCTAssertGreaterThan(rgb[x: 0, y: 0, channel: 2], rgb[x: 0, y: 0, channel: 0], "0 is blue")
        XCTAssertGreaterThan(rgb[x: 1, y: 0, channel: 0], rgb[x: 1, y: 0, channel: 2], "255 is red")
        XCTAssertThrowsError(try ImageOps.applyColorMap(try Image(width: 2, height: 1, channels: 1, element: .float32), .jet))
    }

    func testPutTextDrawsInsideItsMeasuredBox() throws {
        let blank = try Image(width: 80, height: 30, channels: 3, element: .uint8)
        let size = try ImageOps.textSize("1.5 m", scale: 0.5)
        XCTAssertGreaterThan(size.width, 10)
        XCTAssertGreaterThan(size.height, 5)
        let drawn = try ImageOps.putText(blank, "1.5 m", x: 5, y: 20, scale: 0.5, rgb: (255, 0, 0))
        var inside = 0, outside = 0
        for y in 0..<30 {
            for x in 0..<80 where drawn[x: x, y: y, channel: 0] > 0 {
                let inBox = x >= 4 && x <= 6 + size.width && y >= 20 - size.height - 1 && y <= 21 + size.baseline
                if inBox { inside += 1 } else { outside += 1 }
                XCTAssertEqual(drawn[x: x, y: y, channel: 2], 0, "red text has no blue")
            }
        }
        XCTAssertGreaterThan(inside, 20)
        XCTAssertEqual(outside, 0)
        XCTAssertThrowsError(try ImageOps.putText(blank, "x", x: 0, y: 10, scale: 0)) { error in
            XCTAssertTrue("\(error)".contains("scale"), "\(error)")
        }
        XCTAssertThrowsError(try ImageOps.putText(try Image(width: 4, height: 4, channels: 1, element: .float32), "x", x: 0, y: 3))
    }
}
