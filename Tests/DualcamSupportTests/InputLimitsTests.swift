import DualcamSupport
import XCTest

final class InputLimitsTests: XCTestCase {
    func testImageSizes() throws {
        XCTAssertNil(InputLimits.imageSizeProblem(width: 16384, height: 3000))
        XCTAssertNil(InputLimits.imageSizeProblem(width: 8064, height: 6048), "a 48 MP sensor")
        XCTAssertEqual(InputLimits.imageSizeProblem(width: 16385, height: 1),
                       "size 16385x1 exceeds the limit of 16384 pixels per side (InputLimits.maxImageSidePixels)")
        XCTAssertEqual(InputLimits.imageSizeProblem(width: 10000, height: 10000),
                       "size 10000x10000 exceeds the limit of 50000000 pixels (InputLimits.maxImagePixels)")
        XCTAssertNotNil(InputLimits.imageSizeProblem(width: 0, height: 5))
        // Huge values do not overflow (the side check comes first).
        XCTAssertNotNil(InputLimits.imageSizeProblem(width: Int.max, height: Int.max))
        XCTAssertThrowsError(try InputLimits.checkPipelineSize(width: 1, height: 1, name: "--size")) { error in
            XCTAssertEqual("\(error)", "--size: size 1x1 is too small; expected at least 16 pixels per side (InputLimits.minPipelineSidePixels)")
        }
        XCTAssertNoThrow(try InputLimits.checkPipelineSize(width: 16, height: 16, name: "--size"))
    }

    func testIntegerConversionNeverTraps() throws {
        XCTAssertEqual(try InputLimits.integer(20, name: "views", in: 1...500), 20)
        for bad in [Double.nan, .infinity, -.infinity, 1e300, -1, 0, 501, 2.5] {
            XCTAssertThrowsError(try InputLimits.integer(bad, name: "views", in: 1...500), "\(bad)") { error in
                XCTAssertTrue("\(error)".hasPrefix("views: expected an integer"), "\(error)")
            }
        }
        XCTAssertEqual(try InputLimits.integer(2.5, name: "x", in: 0...5, integral: false), 2)
    }

    func testCounts() {
        XCTAssertNoThrow(try InputLimits.checkCount(10, limit: 10, limitName: "maxViews", what: "views", name: "suite"))
        XCTAssertThrowsError(try InputLimits.checkCount(11, limit: 10, limitName: "maxViews", what: "views", name: "suite")) { error in
            XCTAssertEqual("\(error)", "suite: 11 views exceed the limit of 10 (InputLimits.maxViews)")
        }
    }
}

final class PrintableTextTests: XCTestCase {
    func testEscapes() {
        XCTAssertEqual(PrintableText.quoted("ascii"), "'ascii'")
        XCTAssertEqual(PrintableText.escaped("a\nb\u{1B}[31m\u{FF}"), "a\\x0Ab\\x1B[31m\\xFF")
        XCTAssertEqual(PrintableText.escaped(String(repeating: "x", count: 50), limit: 4), "xxxx...")
        XCTAssertEqual(PrintableText.escapingControls("café\u{0C}\u{2028}"), "café\\x0C\\u{2028}")
    }

    /// Errors are one line whatever text a file or flag put in them.
    func testErrorDescriptionsAreOneLine() {
        let error = DualcamError.format(path: "a.npy", reason: "unexpected key '\u{0C}descr'\nsecond line")
        XCTAssertEqual(error.description, "a.npy: unexpected key '\\x0Cdescr'\\x0Asecond line")
        XCTAssertFalse(error.description.contains(where: \.isNewline))
    }
}
