import DualcamGeometry
import DualcamSupport
import Foundation

/// Per-frame intrinsics in a JSON file next to an image, named after it with
/// `.json` appended (`frame001.png` -> `frame001.png.json`):
///
///     {"intrinsics": [[fx, s, cx], [0, fy, cy], [0, 0, 1]],
///      "reference_dimensions": {"width": W, "height": H}}
///
/// K is in pixels for images of the reference dimensions (usually the size of
/// the image it accompanies, as with AVFoundation's per-buffer intrinsics);
/// `IntrinsicsResolver` scales it to the buffer actually used. Other keys are
/// ignored. Rows must be 3 numbers each, the last row (0, 0, 1), K[1][0] = 0,
/// focal lengths positive, every value finite.
public enum FrameIntrinsicsSidecar {
    /// `<image>.json`.
    public static func url(for image: URL) -> URL {
        image.deletingLastPathComponent().appendingPathComponent(image.lastPathComponent + ".json")
    }

    /// Reads the sidecar of `image` when it exists, nil when there is none.
    public static func read(besides image: URL) throws -> Intrinsics? {
        let sidecar = url(for: image)
        guard FileManager.default.fileExists(atPath: sidecar.path) else { return nil }
        return try read(sidecar)
    }

    /// Reads a sidecar file.
    public static func read(_ url: URL) throws -> Intrinsics {
        let data: Data
        guard FileManager.default.fileExists(atPath: url.path) else { throw DualcamError.io(path: url.path, reason: "no such file") }
        do { data = try FileContents.read(url) } catch let error as DualcamError {
            throw error
        } catch {
            throw DualcamError.io(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        return try parse(data, path: url.path)
    }

    private struct Document: Decodable {
        struct Dimensions: Decodable { let width: Int; let height: Int }
        let intrinsics: [[Double]]
        let reference_dimensions: Dimensions
    }

    /// Parses sidecar JSON; `path` names the file in errors.
    public static func parse(_ data: Data, path: String) throws -> Intrinsics {
        func fail(_ reason: String) -> DualcamError { .format(path: path, reason: reason) }
        let document: Document
        do { document = try JSONDecoder().decode(Document.self, from: data) } catch let DecodingError.keyNotFound(key, context) {
            throw fail("missing field '\(dotted(context.codingPath + [key]))'")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = dotted(context.codingPath)
            let expected = field.hasPrefix("intrinsics") ? "a 3x3 array of numbers [[fx,s,cx],[0,fy,cy],[0,0,1]]"
                : field.hasPrefix("reference_dimensions") ? "{\"width\": W, \"height\": H} with integer values" : "a JSON object"
            throw fail("\(field.isEmpty ? "" : "\(field): ")expected \(expected)")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw fail("\(dotted(context.codingPath)): expected a finite number")
        } catch {
            throw fail("not valid JSON; expected {\"intrinsics\": [[fx,s,cx],[0,fy,cy],[0,0,1]], \"reference_dimensions\": {\"width\": W, \"height\": H}}")
        }
        let rows = document.intrinsics
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 }) else {
            throw fail("intrinsics: expected 3 rows of 3 numbers [[fx,s,cx],[0,fy,cy],[0,0,1]], got \(rows.map(\.count)) values per row")
        }
        let d = document.reference_dimensions
        guard d.width > 0, d.height > 0 else {
            throw fail("reference_dimensions: expected positive width and height, got \(d.width)x\(d.height)")
        }
        do {
            return try Intrinsics(matrix: Matrix3(rowMajor: rows.flatMap { $0 })!,
                                  referenceSize: PixelSize(width: d.width, height: d.height))
        } catch {
            throw fail("intrinsics: \(error)")
        }
    }

    static func dotted(_ path: [CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    /// The sidecar JSON for `intrinsics` (numbers exact, shortest form).
    public static func jsonString(_ k: Intrinsics) -> String {
        let n = YAMLBuilder.number
        return """
        {"intrinsics": [[\(n(k.fx)), \(n(k.skew)), \(n(k.cx))], [0.0, \(n(k.fy)), \(n(k.cy))], [0.0, 0.0, 1.0]], \
        "reference_dimensions": {"width": \(k.referenceSize.width), "height": \(k.referenceSize.height)}}

        """
    }

    /// Writes `<image>.json` atomically.
    public static func write(_ intrinsics: Intrinsics, besides image: URL) throws {
        try write(intrinsics, to: url(for: image))
    }

    /// Writes a sidecar file atomically.
    public static func write(_ intrinsics: Intrinsics, to url: URL) throws {
        try AtomicFile.write(jsonString(intrinsics), to: url)
    }
}
