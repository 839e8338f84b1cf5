import DualcamOpenCV
import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// Where calibration images come from, and how they are paired.
///
/// Pair directories: a wide (left, reference) and a tele (right) image per
/// view, named `<camera><index>.<ext>` with `<camera>` one of `wide`, `left`
/// (first camera) or `tele`, `right` (second camera), an optional `_` or `-`
/// before the index, and an image extension (png, jpg, jpeg, tif, tiff):
/// `wide_00.png` + `tele_00.png`, `left01.jpg` + `right01.jpg`. Files are
/// paired by the index's number; other files are ignored, and an image
/// without its partner is reported as a dropped view.
///
/// OpenCV image lists (stereo_calib.xml): alternating first/second camera
/// image names, relative to the list file's directory.
public enum CalibrationInput {
    /// One view's two image files.
    public struct ImagePair: Sendable, Equatable {
        public var name: String
        public var wide: URL
        public var tele: URL
    }

    static let extensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff"]

    /// The pairs of a directory (see the type's description) and the images without a partner.
    public static func pairs(inDirectory directory: URL) throws -> (pairs: [ImagePair], unpaired: [DroppedView]) {
        let names = try listDirectory(directory, flag: "--pairs")
        var wide: [Int: String] = [:], tele: [Int: String] = [:]
        for name in names {
            guard let (isWide, index) = parsePairName(name) else { continue }
            let existing = isWide ? wide[index] : tele[index]
            if let existing {
                throw DualcamError.invalidValue(
                    name: "--pairs '\(directory.path)'", reason: "'\(existing)' and '\(name)' both have index \(index)")
            }
            if isWide { wide[index] = name } else { tele[index] = name }
        }
        guard !wide.isEmpty || !tele.isEmpty else {
            throw DualcamError.invalidValue(
                name: "--pairs '\(directory.path)'",
                reason: "no images named like wide_00.png/tele_00.png or left01.jpg/right01.jpg")
        }
        var pairs: [ImagePair] = [], unpaired: [DroppedView] = []
        for index in Set(wide.keys).union(tele.keys).sorted() {
            switch (wide[index], tele[index]) {
            case let (w?, t?):
                pairs.append(ImagePair(name: "\(index)", wide: directory.appendingPathComponent(w),
                                       tele: directory.appendingPathComponent(t)))
            case let (w?, nil): unpaired.append(DroppedView(view: w, reason: "no tele/right image with index \(index)"))
            case let (nil, t?): unpaired.append(DroppedView(view: t, reason: "no wide/left image with index \(index)"))
            default: break
            }
        }
        return (pairs, unpaired)
    }

    /// (is the first camera, index) for a pair-directory file name.
    static func parsePairName(_ name: String) -> (Bool, Int)? {
        let url = URL(fileURLWithPath: name)
        guard extensions.contains(url.pathExtension.lowercased()) else { return nil }
        let stem = url.deletingPathExtension().lastPathComponent.lowercased()
        for (prefix, first) in [("wide", true), ("left", true), ("tele", false), ("right", false)] where stem.hasPrefix(prefix) {
            var rest = stem.dropFirst(prefix.count)
            if rest.first == "_" || rest.first == "-" { rest = rest.dropFirst() }
            guard !rest.isEmpty, rest.allSatisfy(\.isASCII), rest.allSatisfy(\.isNumber), let index = Int(rest) else { return nil }
            return (first, index)
        }
        return nil
    }

    /// The pairs of an OpenCV image list: alternating first/second camera
    /// names, relative to the list's directory.
    public static func pairs(inList list: URL) throws -> [ImagePair] {
        let names = try CVCalibrate.readImageList(path: list.path)
        guard !names.isEmpty else { throw DualcamError.format(path: list.path, reason: "the image list is empty") }
        guard names.count % 2 == 0 else {
            throw DualcamError.format(path: list.path,
                                      reason: "\(names.count) images listed; expected alternating left/right names (an even number)")
        }
        let base = list.deletingLastPathComponent()
        func resolve(_ name: String) -> URL {
            name.hasPrefix("/") ? URL(fileURLWithPath: name) : base.appendingPathComponent(name)
        }
        return stride(from: 0, to: names.count, by: 2).map { i in
            let stem = URL(fileURLWithPath: names[i]).deletingPathExtension().lastPathComponent
            return ImagePair(name: stem, wide: resolve(names[i]), tele: resolve(names[i + 1]))
        }
    }

    /// The image files of a per-camera intrinsic set directory, sorted by name.
    public static func images(inDirectory directory: URL, flag: String) throws -> [URL] {
        let names = try listDirectory(directory, flag: flag).filter {
            extensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased())
        }
        guard !names.isEmpty else {
            throw DualcamError.invalidValue(name: "\(flag) '\(directory.path)'", reason: "no .png, .jpg or .tif images in it")
        }
        return names.map { directory.appendingPathComponent($0) }
    }

    static func listDirectory(_ directory: URL, flag: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DualcamError.io(path: directory.path, reason: "\(flag): no such directory")
        }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw DualcamError.io(path: directory.path, reason: "cannot list the directory: \(error.localizedDescription)")
        }
    }
}
