import DualcamGeometry
import TestSupport
import XCTest

final class DistanceTests: XCTestCase {
    func testAcceptedSpellings() throws {
        let cases: [(String, Double)] = [
            ("1.2m", 1.2), ("120cm", 1.2), ("1200mm", 1.2), ("4ft", 1.2192), ("48in", 1.2192),
            ("1.2 m", 1.2), ("  1.2m  ", 1.2), ("1.2M", 1.2), ("120 CM", 1.2), ("+1.2m", 1.2),
            ("1e3mm", 1), ("1.5e-1m", 0.15), ("0.5m", 0.5), (".5m", 0.5), ("3 metres", 3), ("3 meters", 3),
            ("2 feet", 0.6096), ("1 inch", 0.0254), ("10 inches", 0.254), ("25 millimetres", 0.025),
            ("20000mm", 20), ("0.2m", 0.2),
        ]
        for (text, metres) in cases {
            let d = try Distance(parsing: text)
            XCTAssertClose(d.metres, metres, relative: 1e-14, "'\(text)'")
            XCTAssertFalse(d.isInfinite, text)
        }
    }

    func testInfinity() throws {
        for text in ["inf", "INF", "Infinity", " inf ", "+inf"] {
            let d = try Distance(parsing: text)
            XCTAssertTrue(d.isInfinite, text)
            XCTAssertEqual(d, Distance.infinity)
            XCTAssertEqual(d.metres, .infinity)
        }
        XCTAssertEqual(Distance.infinity.description, "inf")
        XCTAssertTrue(try Distance(metres: .infinity).isInfinite)
    }

    func testRejectedSpellingsListAcceptedUnits() {
        for text in ["-1m", "0", "0m", "abc", "1.2parsec", "1.2", "nan", "nanm", "", "   ", "-0.5 cm", "0.0mm",
                     "m", "1..2m", "1-2m", "1e400m", "1e-400m", "-inf", "inf m", "1.2 m m", "1em", "1.2mmm", "NaN m",
                     "+nan", "1,2m"] {
            do {
                let d = try Distance(parsing: text)
                XCTFail("'\(text)' parsed as \(d)")
            } catch let error as GeometryError {
                guard case .invalidDistance = error else { XCTFail("'\(text)': wrong error \(error)"); continue }
                XCTAssertTrue(error.description.contains("m, cm, mm, ft, in"), "'\(text)': \(error.description)")
            } catch {
                XCTFail("'\(text)': unexpected \(error)")
            }
        }
    }

    func testRejectionMessagesSayWhatWasWrong() {
        func message(_ text: String) -> String {
            do { _ = try Distance(parsing: text); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(message("1.2").contains("no unit"), message("1.2"))
        XCTAssertTrue(message("1.2parsec").contains("unknown unit 'parsec'"), message("1.2parsec"))
        XCTAssertTrue(message("0m").contains("greater than zero"), message("0m"))
        XCTAssertTrue(message("-1m").contains("greater than zero"), message("-1m"))
        XCTAssertTrue(message("nan").contains("not a number"), message("nan"))
        XCTAssertTrue(message("").contains("empty"), message(""))
        XCTAssertTrue(message("abc").contains("'abc'"), message("abc"))
        XCTAssertTrue(message("1e400m").contains("not finite"), message("1e400m"))
    }

    func testMetresInitialiser() throws {
        XCTAssertEqual(try Distance(metres: 2.5).metres, 2.5)
        for bad in [0.0, -1, .nan, -.infinity, -0.0] {
            XCTAssertThrowsError(try Distance(metres: bad), "\(bad)") { error in
                XCTAssertTrue("\(error)".contains("m, cm, mm, ft, in"), "\(error)")
            }
        }
    }

    func testConversionOrderingDescription() throws {
        let d = try Distance(parsing: "1.2m")
        XCTAssertClose(d.value(in: .millimetre), 1200, relative: 1e-15)
        XCTAssertClose(d.value(in: .centimetre), 120, relative: 1e-15)
        XCTAssertClose(d.value(in: .inch), 1.2 / 0.0254, relative: 1e-15)
        XCTAssertClose(try Distance(parsing: "4ft").value(in: .foot), 4, relative: 1e-15)
        XCTAssertEqual(d.description, "1.2 m")
        XCTAssertLessThan(try Distance(parsing: "1m"), try Distance(parsing: "101cm"))
        XCTAssertLessThan(try Distance(parsing: "20m"), Distance.infinity)
        XCTAssertGreaterThan(try Distance(parsing: "1ft"), try Distance(parsing: "11in"))
        XCTAssertEqual([Distance.infinity, d, try Distance(parsing: "5mm")].sorted().map(\.metres), [0.005, 1.2, .infinity])
    }

    func testUnitParsing() {
        XCTAssertEqual(LengthUnit.parse("m"), .metre)
        XCTAssertEqual(LengthUnit.parse("MM"), .millimetre)
        XCTAssertEqual(LengthUnit.parse("Feet"), .foot)
        XCTAssertEqual(LengthUnit.parse("in"), .inch)
        XCTAssertEqual(LengthUnit.parse("centimeters"), .centimetre)
        XCTAssertNil(LengthUnit.parse("km"))
        XCTAssertNil(LengthUnit.parse(""))
        XCTAssertNil(LengthUnit.parse("parsec"))
        XCTAssertEqual(LengthUnit.allCases.map(\.rawValue), ["m", "cm", "mm", "ft", "in"])
        XCTAssertTrue(Distance.accepted.contains("m, cm, mm, ft, in"))
    }
}
