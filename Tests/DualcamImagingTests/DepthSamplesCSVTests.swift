import DualcamImaging
import DualcamSupport
import TestSupport
import XCTest

final class DepthSamplesCSVTests: XCTestCase {
    func testRoundTripIsExact() throws {
        var rng = SeededGenerator(seed: 5)
        let samples = (0..<200).map { i in
            DepthSample(x: Double(i % 37), y: Double.random(in: 0...479, using: &rng),
                        depthMetres: Double.random(in: 0.2...8, using: &rng), confidence: Double.random(in: 0...1, using: &rng))
        }
        let dir = try TemporaryDirectory()
        let url = dir.path("lidar.csv")
        try DepthSamplesCSV.write(samples, to: url)
        XCTAssertEqual(try DepthSamplesCSV.read(url), samples)
        XCTAssertTrue(try String(contentsOf: url, encoding: .utf8).hasPrefix("x,y,depth_m,confidence\n0,"))
    }

    func testWithoutConfidence() throws {
        let parsed = try DepthSamplesCSV.parse("x,y,depth_m\n1,2,3.5\n\n4.5,6,0.25\n", path: "a.csv")
        XCTAssertEqual(parsed, [DepthSample(x: 1, y: 2, depthMetres: 3.5), DepthSample(x: 4.5, y: 6, depthMetres: 0.25)])
        XCTAssertEqual(DepthSamplesCSV.csvString(parsed), "x,y,depth_m\n1,2,3.5\n4.5,6,0.25\n")
    }

    func testBadInputNamesFileAndLine() {
        let cases: [(String, String)] = [
            ("x,y\n1,2\n", "header"),
            ("x,y,depth_m\n1,2\n", "line 2"),
            ("x,y,depth_m\n1,2,abc\n", "finite"),
            ("x,y,depth_m\n1,2,-1\n", "positive"),
            ("x,y,depth_m,confidence\n1,2,1,1.5\n", "[0, 1]"),
            ("x,y,depth_m\n1,nan,1\n", "finite"),
        ]
        for (text, mention) in cases {
            XCTAssertThrowsError(try DepthSamplesCSV.parse(text, path: "/d/lidar.csv")) { error in
                let line = "\(error)"
                XCTAssertTrue(line.hasPrefix("/d/lidar.csv: ") && line.contains(mention), line)
                XCTAssertFalse(line.contains("\n"))
            }
        }
        XCTAssertThrowsError(try DepthSamplesCSV.read(URL(fileURLWithPath: "/no/such/lidar.csv"))) { error in
            XCTAssertEqual("\(error)", "/no/such/lidar.csv: no such file")
        }
    }

    func testSparseDepthImagePlacesSamplesAtNearestPixels() throws {
        let samples = [DepthSample(x: 1, y: 0, depthMetres: 2), DepthSample(x: 2.4, y: 0.6, depthMetres: 3),
                       DepthSample(x: -1, y: 0, depthMetres: 9), DepthSample(x: 3, y: 2, depthMetres: 9)]
        let image = try DepthSamplesCSV.sparseDepthImage(samples, width: 3, height: 2)
        let v = try image.pixels(as: Float.self)
        XCTAssertEqual(v[1], 2)
        XCTAssertEqual(v[1 * 3 + 2], 3)
        XCTAssertEqual(v.filter { !$0.isNaN }.count, 2, "out-of-image samples are ignored")
    }
}
