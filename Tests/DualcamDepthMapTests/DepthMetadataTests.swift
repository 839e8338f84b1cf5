import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation
import TestSupport
import XCTest
@testable import DualcamDepthMap

final class DepthMetadataTests: XCTestCase {
    func sampleMap() throws -> DepthMap {
        let size = PixelSize(width: 4, height: 3)
        let values: [Float] = [.nan, .nan, .nan, .nan, .nan, 1, 2, .nan, .nan, 4, 3, .nan]
        let k = try Intrinsics(fx: 300, fy: 301, cx: 1.5, cy: 1.25, referenceSize: size)
        return try DepthMap(size: size, values: values, type: .depth, accuracy: .absolute, isFiltered: true,
                            quality: .low, intrinsics: k, pixelsPerInverseMetre: 3, referenceCamera: "wide")
    }

    func testKeysAreStableSnakeCase() throws {
        let metadata = DepthMetadata(map: try sampleMap(), precision: .float16, format: .npy,
                                     extra: ["fit": ["scale": 1.5, "shift": .number(.nan)], "timings_ms": [3.5]])
        let json = try JSONSerialization.jsonObject(with: Data(try metadata.jsonString().utf8)) as! [String: Any]
        XCTAssertEqual(Set(json.keys), [
            "format_version", "type", "units", "precision", "encoding", "accuracy", "filtered", "quality", "width", "height",
            "reference_camera", "intrinsics", "pixels_per_inverse_metre", "valid_fraction", "covered_region", "value_range", "extra",
        ])
        XCTAssertEqual(json["type"] as? String, "depth")
        XCTAssertEqual(json["units"] as? String, "m")
        XCTAssertEqual(json["precision"] as? Int, 16)
        XCTAssertEqual(json["encoding"] as? String, "float16")
        XCTAssertEqual(json["accuracy"] as? String, "absolute")
        XCTAssertEqual(json["filtered"] as? Bool, true)
        XCTAssertEqual(json["quality"] as? String, "low")
        XCTAssertEqual(json["reference_camera"] as? String, "wide")
        XCTAssertEqual(json["valid_fraction"] as? Double, 4.0 / 12)
        let intrinsics = json["intrinsics"] as! [String: Double]
        XCTAssertEqual(intrinsics, ["fx": 300, "fy": 301, "cx": 1.5, "cy": 1.25, "skew": 0])
        XCTAssertEqual(json["covered_region"] as? [String: Int], ["x": 1, "y": 1, "width": 2, "height": 2])
        XCTAssertEqual(json["value_range"] as? [String: Double], ["min": 1, "max": 4])
        let extra = json["extra"] as! [String: Any]
        XCTAssertTrue((extra["fit"] as! [String: Any])["shift"] is NSNull, "NaN encodes as null")
    }

    func testNullsForUnknownsAndPNGPrecision() throws {
        let map = try DepthMap(size: PixelSize(width: 2, height: 1), type: .pixels)
        let metadata = DepthMetadata(map: map, precision: .float32, format: .png)
        let json = try JSONSerialization.jsonObject(with: Data(try metadata.jsonString().utf8)) as! [String: Any]
        XCTAssertTrue(json["covered_region"] is NSNull)
        XCTAssertTrue(json["intrinsics"] is NSNull)
        XCTAssertTrue(json["value_range"] is NSNull)
        XCTAssertEqual(json["precision"] as? Int, 16)
        XCTAssertEqual(json["encoding"] as? String, "uint16_kitti256")
        XCTAssertEqual(json["units"] as? String, "px")
    }

    func testMapAndSidecarRoundTrip() throws {
        let dir = try TemporaryDirectory()
        let map = try sampleMap()
        let url = dir.path("depth.pfm")
        let written = try DepthMapWriter.writeWithMetadata(map, to: url, extra: ["note": "test"])
        XCTAssertEqual(try dir.fileNames(), ["depth.pfm", "depth.pfm.json"])
        let (back, metadata) = try DepthMapReader.read(url)
        XCTAssertEqual(metadata, written)
        XCTAssertEqual(metadata.extra["note"], "test")
        XCTAssertEqual(back.intrinsics, map.intrinsics)
        XCTAssertEqual(back.accuracy, .absolute)
        XCTAssertEqual(back.quality, .low)
        XCTAssertTrue(back.isFiltered)
        XCTAssertEqual(back.referenceCamera, "wide")
        XCTAssertEqual(back.pixelsPerInverseMetre, 3)
        XCTAssertEqual(back.validCount, 4)
    }

    func testSidecarDescribesStoredValues() throws {
        let dir = try TemporaryDirectory()
        let map = try DepthMap(size: PixelSize(width: 4, height: 1), values: [0.5, 70, 2, .nan], type: .depth)
        let png = try DepthMapWriter.writeWithMetadata(map, to: dir.path("d.png"))
        XCTAssertEqual(png.validFraction, 0.5, "70 m does not fit in uint16 mm")
        XCTAssertEqual(png.valueRange, .init(min: 0.5, max: 2))
        XCTAssertEqual(png.encoding, "uint16_mm")
        let half = try DepthMapWriter.writeWithMetadata(map, to: dir.path("d.npy"), precision: .float16)
        XCTAssertEqual(half.validFraction, 0.75)
        XCTAssertEqual(half.valueRange?.max, 70)
        XCTAssertEqual(try DepthMapReader.read(dir.path("d.png")).map,
                       try DepthMapWriter.stored(map, format: .png, precision: .float32))
    }

    func testBadSidecarIsOneLineError() throws {
        let dir = try TemporaryDirectory()
        try Data("{\"type\": \"depth\"}".utf8).write(to: dir.path("bad.json"))
        XCTAssertThrowsError(try DepthMetadata.read(dir.path("bad.json"))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("bad.json: not a depth metadata JSON: missing key"), text)
            XCTAssertFalse(text.contains("\n"))
        }
        try DepthMapWriter.write(try sampleMap(), to: dir.path("d.pfm"))
        XCTAssertThrowsError(try DepthMapReader.read(dir.path("d.pfm"))) { XCTAssertTrue("\($0)".contains("no such file")) }
    }
}
