import DualcamOpenCV
import DualcamSupport
import TestSupport
import XCTest

final class CVFileStorageTests: XCTestCase {
    /// Doubles chosen to expose any formatting with fewer than 17 significant digits.
    private func awkwardValues(_ count: Int, seed: UInt64) -> [Double] {
        var rng = SeededGenerator(seed: seed)
        let fixed: [Double] = [0.1, 1.0 / 3.0, -2.0 / 7.0, .pi, 1e-300, -1.7976931348623157e308,
                               .leastNonzeroMagnitude, 0, 1234567.890123456789, -.leastNormalMagnitude]
        return (0..<count).map { i in
            i < fixed.count ? fixed[i] : Double.random(in: -1e6...1e6, using: &rng)
        }
    }

    private func roundTrip(extension ext: String) throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("calibration.\(ext)")
        let m = awkwardValues(12, seed: 42)
        try CVFileStorage.write(to: url) { fs in
            try fs.write("M1", rows: 3, cols: 4, values: m)
            try fs.write("baseline", real: 0.123456789012345678)
            try fs.write("image_width", int: 1920)
            try fs.write("negative", int: -7)
            try fs.write("comment", string: "stereo rig #2: left/right")
            try fs.write("T", matrix: .init(rows: 3, cols: 1, values: [-0.12, 1e-17, 3]))
        }
        XCTAssertEqual(try dir.fileNames(), ["calibration.\(ext)"], "no temporary file left behind")

        let fs = try CVFileStorage(path: url.path, mode: .read)
        XCTAssertEqual(try fs.keys(), ["M1", "baseline", "image_width", "negative", "comment", "T"])
        let read = try fs.readMatrix("M1")
        XCTAssertEqual(read.rows, 3)
        XCTAssertEqual(read.cols, 4)
        XCTAssertEqual(read.values.map(\.bitPattern), m.map(\.bitPattern), "\(ext): exact doubles")
        XCTAssertEqual(try fs.readMatrix("T"), .init(rows: 3, cols: 1, values: [-0.12, 1e-17, 3]))
        XCTAssertEqual(try fs.readReal("baseline"), 0.123456789012345678)
        XCTAssertEqual(try fs.readInt("image_width"), 1920)
        XCTAssertEqual(try fs.readReal("image_width"), 1920)
        XCTAssertEqual(try fs.readInt("negative"), -7)
        XCTAssertEqual(try fs.readString("comment"), "stereo rig #2: left/right")
        XCTAssertTrue(try fs.hasKey("M1"))
        XCTAssertFalse(try fs.hasKey("M2"))
    }

    func testYAMLRoundTripIsExact() throws { try roundTrip(extension: "yml") }
    func testYAMLLongExtensionRoundTripIsExact() throws { try roundTrip(extension: "yaml") }
    func testXMLRoundTripIsExact() throws { try roundTrip(extension: "xml") }
    func testJSONRoundTripIsExact() throws { try roundTrip(extension: "json") }

    func testSpecialValues() throws {
        // OpenCV's writer drops the sign of -0.0; infinities and NaN survive in YAML.
        let writer = try CVFileStorage(writingIn: .yaml)
        try writer.write("m", rows: 1, cols: 4, values: [-0.0, .infinity, -.infinity, .nan])
        let reader = try CVFileStorage(text: try writer.releaseToString())
        let values = try reader.readMatrix("m").values
        XCTAssertEqual(values[0], 0)
        XCTAssertEqual(values[1], .infinity)
        XCTAssertEqual(values[2], -.infinity)
        XCTAssertTrue(values[3].isNaN)
    }

    func testReadsOpenCVSampleFiles() throws {
        // As written by OpenCV's stereo_calib and calibration samples; M1 stored as float.
        let text = """
            %YAML:1.0
            ---
            M1: !!opencv-matrix
               rows: 3
               cols: 3
               dt: f
               data: [ 700.5, 0., 320., 0., 700.5, 240., 0., 0., 1. ]
            D1: !!opencv-matrix
               rows: 1
               cols: 5
               dt: d
               data: [ -0.1, 0.01, 0., 0., 0. ]
            image_width: 640
            image_height: 480
            avg_reprojection_error: 0.25
            flags: [ 1, 2, 3.5 ]

            """
        let fs = try CVFileStorage(text: text)
        XCTAssertEqual(try fs.keys(), ["M1", "D1", "image_width", "image_height", "avg_reprojection_error", "flags"])
        XCTAssertEqual(try fs.readMatrix("M1"), .init(rows: 3, cols: 3, values: [700.5, 0, 320, 0, 700.5, 240, 0, 0, 1]))
        XCTAssertEqual(try fs.readMatrix("D1").values, [-0.1, 0.01, 0, 0, 0])
        XCTAssertEqual(try fs.readMatrix("flags"), .init(rows: 1, cols: 3, values: [1, 2, 3.5]))
        XCTAssertEqual(try fs.readInt("image_height"), 480)
        XCTAssertEqual(try fs.readReal("avg_reprojection_error"), 0.25)
        XCTAssertThrowsError(try fs.readInt("avg_reprojection_error"))
        XCTAssertThrowsError(try fs.readString("image_width"))
        XCTAssertThrowsError(try fs.readMatrix("image_width"))
    }

    func testMissingKeyAndWrongTypeNameTheFile() throws {
        let dir = try TemporaryDirectory()
        let url = dir.path("intrinsics.yml")
        try CVFileStorage.write(to: url) { try $0.write("name", string: "left") }
        let fs = try CVFileStorage(path: url.path, mode: .read)
        XCTAssertThrowsError(try fs.readMatrix("M1")) { error in
            XCTAssertEqual(error as? DualcamError, .format(path: url.path, reason: "missing key 'M1'"))
        }
        XCTAssertThrowsError(try fs.readReal("name")) { error in
            XCTAssertEqual(error as? DualcamError,
                           .format(path: url.path, reason: "key 'name' holds a string, expected a number"))
        }
        XCTAssertThrowsError(try fs.write("x", real: 1), "read-only storage")
    }

    func testOpeningProblemsAreReported() throws {
        let dir = try TemporaryDirectory()
        XCTAssertThrowsError(try CVFileStorage(path: dir.path("none.yml").path, mode: .read)) { error in
            XCTAssertEqual(error as? DualcamError, .io(path: dir.path("none.yml").path, reason: "no such file"))
        }
        XCTAssertThrowsError(try CVFileStorage(path: dir.path("calib.txt").path, mode: .write)) { error in
            XCTAssertTrue("\(error)".contains("calib.txt"), "\(error)")
        }
        XCTAssertThrowsError(try CVFileStorage(path: dir.path("missing/calib.yml").path, mode: .write)) { error in
            guard case .io? = error as? DualcamError else { return XCTFail("\(error)") }
        }
        let other = dir.path("calib.txt")
        try Data("%YAML:1.0\n---\nfx: 500.5\n".utf8).write(to: other)
        XCTAssertEqual(try CVFileStorage(path: other.path, mode: .read).readReal("fx"), 500.5,
                       "reading detects the syntax from the content")
        let broken = dir.path("broken.yml")
        try Data("%YAML:1.0\n---\nM1: [ 1, 2\n  : }".utf8).write(to: broken)
        XCTAssertThrowsError(try CVFileStorage(path: broken.path, mode: .read)) { error in
            guard case .format(let path, _)? = error as? DualcamError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, broken.path)
            XCTAssertFalse("\(error)".contains("\n"))
        }
        XCTAssertEqual(try dir.fileNames(), ["broken.yml", "calib.txt"])
    }

    func testFailedAtomicWriteLeavesNoFile() throws {
        let dir = try TemporaryDirectory()
        struct Stop: Error {}
        XCTAssertThrowsError(try CVFileStorage.write(to: dir.path("c.yml")) { fs in
            try fs.write("a", int: 1)
            throw Stop()
        })
        XCTAssertThrowsError(try CVFileStorage.write(to: dir.path("c.xml")) { fs in
            try fs.write("not a valid key", int: 1)
        }) { error in
            XCTAssertTrue("\(error)".contains(dir.path("c.xml").path), "\(error)")
        }
        XCTAssertThrowsError(try CVFileStorage.write(to: dir.path("c.yml")) { fs in
            try fs.write("big", int: Int(Int32.max) + 1)
        })
        XCTAssertEqual(try dir.fileNames(), [])
    }

    func testInMemoryDocuments() throws {
        for format in [CVFileStorage.Format.yaml, .xml, .json] {
            let writer = try CVFileStorage(writingIn: format)
            try writer.write("R", rows: 2, cols: 2, values: [1, 0.5, -0.25, 1e-9])
            try writer.write("label", string: "rig")
            let text = try writer.releaseToString()
            XCTAssertThrowsError(try writer.release(), "already released")
            let reader = try CVFileStorage(text: text)
            XCTAssertEqual(try reader.readMatrix("R").values, [1, 0.5, -0.25, 1e-9], "\(format)")
            XCTAssertEqual(try reader.readString("label"), "rig")
        }
        XCTAssertThrowsError(try CVFileStorage(text: "{{{ not yaml"))
    }

    func testReleaseTwiceAndWriteAfterReleaseThrow() throws {
        let dir = try TemporaryDirectory()
        let fs = try CVFileStorage(path: dir.path("x.yml").path, mode: .write)
        try fs.write("a", real: 1)
        try fs.release()
        XCTAssertThrowsError(try fs.release())
        XCTAssertThrowsError(try fs.write("b", real: 2))
        XCTAssertEqual(try CVFileStorage(path: dir.path("x.yml").path, mode: .read).readReal("a"), 1)
    }
}
