import DualcamCalibrationFiles
import DualcamGeometry
import Foundation
import TestSupport
import XCTest

final class FrameIntrinsicsTests: XCTestCase {
    func testSidecarRoundTripAndLocation() throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("frame001.png")
        XCTAssertEqual(FrameIntrinsicsSidecar.url(for: image).lastPathComponent, "frame001.png.json")
        XCTAssertNil(try FrameIntrinsicsSidecar.read(besides: image))
        var g = SeededGenerator(seed: 5)
        for _ in 0..<50 {
            let k = try Intrinsics(fx: Fixtures.value(&g, 1...9000), fy: Fixtures.value(&g, 1...9000), skew: Fixtures.wild(&g),
                                   cx: Fixtures.value(&g, 0...4000), cy: Fixtures.value(&g, 0...3000),
                                   referenceSize: PixelSize(width: 4032, height: 3024))
            try FrameIntrinsicsSidecar.write(k, besides: image)
            XCTAssertEqual(try FrameIntrinsicsSidecar.read(besides: image), k)
        }
        XCTAssertEqual(try dir.fileNames(), ["frame001.png.json"])
    }

    func testSidecarParsesDocumentedExample() throws {
        let json = #"{"intrinsics": [[3000.5, 0, 2016], [0, 3001, 1512], [0, 0, 1]], "reference_dimensions": {"width": 4032, "height": 3024}, "exposure": 0.01}"#
        let k = try FrameIntrinsicsSidecar.parse(Data(json.utf8), path: "a.png.json")
        XCTAssertEqual(k, try Intrinsics(fx: 3000.5, fy: 3001, cx: 2016, cy: 1512, referenceSize: PixelSize(width: 4032, height: 3024)))
    }

    func testSidecarErrors() {
        let p = "/img/f.png.json"
        func parse(_ s: String) throws { _ = try FrameIntrinsicsSidecar.parse(Data(s.utf8), path: p) }
        let dims = #""reference_dimensions": {"width": 640, "height": 480}"#
        assertOneLineError(p, ["not valid JSON"]) { try parse("{") }
        assertOneLineError(p, ["missing field 'intrinsics'"]) { try parse("{\(dims)}") }
        assertOneLineError(p, ["missing field 'reference_dimensions'"]) { try parse(#"{"intrinsics": [[1,0,1],[0,1,1],[0,0,1]]}"#) }
        assertOneLineError(p, ["missing field 'reference_dimensions.height'"]) {
            try parse(#"{"intrinsics": [[1,0,1],[0,1,1],[0,0,1]], "reference_dimensions": {"width": 640}}"#)
        }
        assertOneLineError(p, ["intrinsics", "3 rows"]) { try parse(#"{"intrinsics": [[1,0,1],[0,1,1]], \#(dims)}"#) }
        assertOneLineError(p, ["intrinsics[0][1]", "numbers"]) { try parse(#"{"intrinsics": [[1,"x",1],[0,1,1],[0,0,1]], \#(dims)}"#) }
        assertOneLineError(p, ["intrinsics", "0 0 1"]) { try parse(#"{"intrinsics": [[1,0,1],[0,1,1],[0,1,1]], \#(dims)}"#) }
        assertOneLineError(p, ["positive"]) { try parse(#"{"intrinsics": [[-1,0,1],[0,1,1],[0,0,1]], \#(dims)}"#) }
        assertOneLineError(p, ["reference_dimensions", "positive"]) {
            try parse(#"{"intrinsics": [[1,0,1],[0,1,1],[0,0,1]], "reference_dimensions": {"width": 0, "height": 480}}"#)
        }
        assertOneLineError(p, ["reference_dimensions"]) {
            try parse(#"{"intrinsics": [[1,0,1],[0,1,1],[0,0,1]], "reference_dimensions": {"width": 640.5, "height": 480}}"#)
        }
        assertOneLineError(p, ["expected a JSON object"]) { try parse("[1, 2]") }
    }

    func testCSVRoundTripAndParsing() throws {
        let dir = try TemporaryDirectory()
        var g = SeededGenerator(seed: 9)
        let records = (0..<40).map { i in
            FrameIntrinsicsRecord(frame: i * 2, timestampNs: 1_000_000_000 + Int64(i) * 33_333_333,
                                  fx: Fixtures.value(&g, 100...5000), fy: Fixtures.value(&g, 100...5000),
                                  cx: Fixtures.wild(&g), cy: Fixtures.value(&g, 0...2000), skew: i % 3 == 0 ? Fixtures.wild(&g) : 0)
        }
        let url = dir.path("wide.csv")
        try FrameIntrinsicsCSV.write(records, to: url)
        XCTAssertEqual(try FrameIntrinsicsCSV.read(url), records)
        XCTAssertTrue(try String(contentsOf: url, encoding: .utf8).hasPrefix("frame,timestamp_ns,fx,fy,cx,cy,skew\n"))

        let text = "frame, timestamp_ns, fx, fy, cx, cy\r\n0,100,1000.5,1001,640,360\r\n\r\n1,133,1000.25,1001,641,359\r\n"
        let parsed = try FrameIntrinsicsCSV.parse(text, path: "s.csv")
        XCTAssertEqual(parsed, [FrameIntrinsicsRecord(frame: 0, timestampNs: 100, fx: 1000.5, fy: 1001, cx: 640, cy: 360),
                                FrameIntrinsicsRecord(frame: 1, timestampNs: 133, fx: 1000.25, fy: 1001, cx: 641, cy: 359)])
        XCTAssertEqual(parsed.record(forFrame: 1)?.cx, 641)
        XCTAssertNil(parsed.record(forFrame: 2))
    }

    func testCSVErrors() {
        let p = "/seq/tele.csv"
        func parse(_ s: String) throws { _ = try FrameIntrinsicsCSV.parse(s, path: p) }
        let h = "frame,timestamp_ns,fx,fy,cx,cy\n"
        assertOneLineError(p, ["empty"]) { try parse("") }
        assertOneLineError(p, ["line 1", "missing column 'cy'"]) { try parse("frame,timestamp_ns,fx,fy,cx\n0,1,2,3,4\n") }
        assertOneLineError(p, ["line 1", "'focal'"]) { try parse("frame,timestamp_ns,fx,fy,cx,cy,focal\n") }
        assertOneLineError(p, ["line 2", "expected 6 values, got 5"]) { try parse(h + "0,1,2,3,4\n") }
        assertOneLineError(p, ["line 3", "fx", "'abc'"]) { try parse(h + "0,1,2,3,4,5\n1,2,abc,3,4,5\n") }
        assertOneLineError(p, ["line 2", "fy", "finite"]) { try parse(h + "0,1,2,nan,4,5\n") }
        assertOneLineError(p, ["line 2", "positive"]) { try parse(h + "0,1,-2,3,4,5\n") }
        assertOneLineError(p, ["line 3", "frame 0 appears twice"]) { try parse(h + "0,1,2,3,4,5\n0,2,2,3,4,5\n") }
        assertOneLineError(p, ["line 2", "frame", "non-negative"]) { try parse(h + "-1,1,2,3,4,5\n") }
        assertOneLineError(p, ["line 2", "timestamp_ns"]) { try parse(h + "0,1.5,2,3,4,5\n") }
    }

    func testResolution() throws {
        let calibration = try NominalDevice.load()
        let wide = try calibration.rig.camera(.wide).model.intrinsics
        // No per-frame intrinsics: the calibration's, scaled to the buffer.
        let r1 = try IntrinsicsResolver.resolve(bufferSize: PixelSize(width: 1008, height: 756), perFrame: nil, calibration: wide)
        XCTAssertEqual(r1.source, .calibration)
        XCTAssertEqual(r1.intrinsics.fx, 750)
        XCTAssertEqual(r1.intrinsics.cx, 2011.5 / 4)
        // Per-frame intrinsics win and are scaled from their own reference size.
        let perFrame = try Intrinsics(fx: 1600, fy: 1600, cx: 960, cy: 720, referenceSize: PixelSize(width: 1920, height: 1440))
        let r2 = try IntrinsicsResolver.resolve(bufferSize: PixelSize(width: 640, height: 480), perFrame: perFrame, calibration: wide)
        XCTAssertEqual(r2.source, .perFrame)
        XCTAssertClose(r2.intrinsics.fx, 1600.0 / 3, relative: 1e-15)
        XCTAssertEqual(r2.intrinsics.referenceSize, PixelSize(width: 640, height: 480))
        // A 16:9 buffer is a crop of the 4:3 sensor, not a scale.
        assertOneLineError("frame.png", ["aspect ratio"]) {
            _ = try IntrinsicsResolver.resolve(bufferSize: PixelSize(width: 1920, height: 1080), perFrame: nil,
                                               calibration: wide, name: "frame.png")
        }
    }

    func testResolutionForImagesAndSequences() throws {
        let dir = try TemporaryDirectory()
        let calibration = try NominalDevice.load()
        let image = dir.path("tele_0001.png")
        let size = PixelSize(width: 2016, height: 1512)
        let fromCalibration = try IntrinsicsResolver.resolve(image: image, bufferSize: size, camera: .tele, calibration: calibration)
        XCTAssertEqual(fromCalibration.source, .calibration)
        XCTAssertEqual(fromCalibration.intrinsics.fx, 3000)
        let own = try Intrinsics(fx: 6100, fy: 6100, cx: 2016, cy: 1512, referenceSize: PixelSize(width: 4032, height: 3024))
        try FrameIntrinsicsSidecar.write(own, besides: image)
        let fromSidecar = try IntrinsicsResolver.resolve(image: image, bufferSize: size, camera: .tele, calibration: calibration)
        XCTAssertEqual(fromSidecar.source, .perFrame)
        XCTAssertEqual(fromSidecar.intrinsics.fx, 3050)
        assertOneLineError("camera", ["ultra"]) {
            _ = try IntrinsicsResolver.resolve(image: image, bufferSize: size, camera: "ultra", calibration: calibration)
        }

        let records = [FrameIntrinsicsRecord(frame: 3, timestampNs: 0, fx: 1500, fy: 1500, cx: 1000, cy: 750)]
        let k = try calibration.rig.camera(.tele).model.intrinsics
        let hit = try IntrinsicsResolver.resolve(frame: 3, records: records, bufferSize: size, calibration: k)
        XCTAssertEqual(hit.source, .perFrame)
        XCTAssertEqual(hit.intrinsics.fx, 1500)
        let miss = try IntrinsicsResolver.resolve(frame: 4, records: records, bufferSize: size, calibration: k)
        XCTAssertEqual(miss.source, .calibration)
        XCTAssertEqual(miss.intrinsics.fx, 3000)
    }
}
