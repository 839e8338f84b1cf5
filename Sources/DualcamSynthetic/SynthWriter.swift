import DualcamCalibrationFiles
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import Foundation

/// Writes a `SynthDataset` to a directory:
///
///     wide.png, tele.png            8-bit RGB renders
///     wide.depth.pfm, tele.depth.pfm  ground-truth depth, metres (Z along each camera's axis), NaN = no surface
///     wide.disparity.pfm            rectified pairs only: pixel disparity d = f B / Z (x_tele = x_wide - d)
///     wide.covisible.png            255 where the wide pixel's surface point is also seen by tele, else 0
///     wide.objects.png, tele.objects.png  uint16: 1 + the index of the object each pixel's centre ray hits
///                                   (manifest `objects`), 0 = none: per-surface masks for evaluation
///     lidar.csv                     x,y,depth_m,confidence in wide pixels
///     lidar.depth.pfm, lidar.depth.png  the same samples as a sparse wide-aligned depth map (NaN / 0 = none; PNG in mm)
///     wide.png.json, tele.png.json  per-frame intrinsics sidecars
///     calibration.yaml              the rig at the rendered size (dualcam YAML)
///     board.json                    board scenes: the target and each view's pose and ground-truth corners
///     manifest.json                 everything above with units
///
/// With several board views the per-pair files get an index: wide_000.png, ...
/// Nothing appears in the destination unless everything was written: files go
/// to a hidden staging directory next to it first and are renamed into place.
public enum SynthWriter {
    public struct FileEntry: Encodable, Sendable {
        public var path: String
        public var kind: String
        public var camera: String?
        public var units: String
    }

    public struct Manifest: Encodable, Sendable {
        public var tool = "dualcam synth"
        public var scene: String
        public var seed: UInt64
        public var size: [Int]
        public var samplesPerPixel: Int
        public var noiseSigmaLevels: Double
        public var planeDistanceMetres: Double?
        public var worldFrame = "the wide camera's frame, metres, x right, y down, z forward"
        public var lidar: LidarSummary
        /// The camera conditions the images were formed under; absent for
        /// clean renders (the renderer's images unchanged).
        public var conditions: ConditionsSummary?
        /// The scene's objects: `id` is the value `*.objects.png` holds for them.
        public var objects: [ObjectEntry] = []
        public var files: [FileEntry]
    }

    public struct ObjectEntry: Encodable, Sendable {
        public var id: Int
        public var name: String
    }

    /// `CaptureConditions` as recorded in the manifest.
    public struct ConditionsSummary: Encodable, Sendable {
        /// The preset these conditions equal ("real"), or "custom".
        public var preset: String
        /// The image formation the values enter (`PhotometricModel`).
        public var model = "linear = render^2.2 (the renderer's colours are display-encoded); "
            + "raw = light_level * exposure * (1 - vignetting_corner_falloff * (r / r_corner)^2) * "
            + "gaussian_blur(linear, blur_sigma_pixels); y = white_balance * (raw + N(0, shot_noise * raw + read_noise^2)) "
            + "/ light_level; 8-bit = round(255 * clamp(y, 0, 1)^(1 / gamma)); then JPEG at jpeg_quality (null = lossless)"
        public var lightLevel: Double
        public var wide: CameraConditions
        public var tele: CameraConditions

        public init(_ conditions: CaptureConditions) {
            preset = CaptureConditions.presets.first { $0.conditions == conditions }?.name ?? "custom"
            lightLevel = conditions.lightLevel
            wide = conditions.wide
            tele = conditions.tele
        }
    }

    public struct LidarSummary: Encodable, Sendable {
        public var pattern: String
        public var samples: Int
        public var outliers: Int
        public var noiseSigmaMetres: Double
        public var outlierFraction: Double
        public var rangeLimitMetres: Double
    }

    /// Writes the dataset into `directory` (created if missing) and returns the manifest.
    @discardableResult
    public static func write(_ dataset: SynthDataset, to directory: URL) throws -> Manifest {
        let staging = try StagedDirectory(beside: directory, tag: "staging")
        defer { staging.discard() }
        do {
            let manifest = try writeFiles(dataset, into: staging.url)
            let names = try FileManager.default.contentsOfDirectory(atPath: staging.url.path).sorted()
            try checkReplaceable(names, in: directory)
            try staging.publish(names, to: directory)
            return manifest
        } catch let error as DualcamError {
            throw error
        } catch {
            throw DualcamError.io(path: directory.path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    static func writeFiles(_ dataset: SynthDataset, into dir: URL) throws -> Manifest {
        var files: [FileEntry] = []
        let many = dataset.pairs.count > 1
        func name(_ base: String, _ index: Int, _ ext: String) -> String {
            many ? String(format: "%@_%03d.%@", base, index, ext) : "\(base).\(ext)"
        }
        let size = dataset.spec.size
        for (index, pair) in dataset.pairs.enumerated() {
            for view in [pair.wide, pair.tele] {
                let camera = view.camera.rawValue
                let image = name(camera, index, "png")
                try ImageIO.write(view.image, to: dir.appendingPathComponent(image))
                let formed = dataset.spec.conditions.isClean ? "" : "; formed under the manifest's conditions.\(camera)"
                files.append(FileEntry(path: image, kind: "image", camera: camera, units: "8-bit RGB" + formed))
                let intrinsics = try dataset.calibration.rig.camera(view.camera).model.intrinsics
                try FrameIntrinsicsSidecar.write(intrinsics, besides: dir.appendingPathComponent(image))
                files.append(FileEntry(path: image + ".json", kind: "intrinsics", camera: camera,
                                       units: "pixels, for the image's size"))
                let depth = name(camera, index, "depth.pfm")
                try PFM.write(view.depth, to: dir.appendingPathComponent(depth))
                files.append(FileEntry(path: depth, kind: "ground-truth depth", camera: camera,
                                       units: "metres, Z along the camera's optical axis, NaN = no surface"))
                let objects = name(camera, index, "objects.png")
                try ImageIO.write(try objectImage(view), to: dir.appendingPathComponent(objects))
                files.append(FileEntry(path: objects, kind: "ground-truth object ids", camera: camera,
                                       units: "uint16, 1 + index into the manifest's objects, 0 = no surface"))
            }
            if let disparity = pair.disparity {
                let path = name("wide", index, "disparity.pfm")
                try PFM.write(disparity, to: dir.appendingPathComponent(path))
                files.append(FileEntry(path: path, kind: "ground-truth disparity", camera: "wide",
                                       units: "pixels of the rectified pair, x_tele = x_wide - d, NaN = no surface"))
            }
            let mask = name("wide", index, "covisible.png")
            try ImageIO.write(try Image(width: size.width, height: size.height, channels: 1,
                                        pixels: pair.covisible.map { $0 ? UInt8(255) : 0 }),
                              to: dir.appendingPathComponent(mask))
            files.append(FileEntry(path: mask, kind: "co-visibility mask", camera: "wide",
                                   units: "255 = also visible in tele, 0 = not"))
            let samples = pair.lidar.map {
                DepthSample(x: Double($0.x), y: Double($0.y), depthMetres: $0.depth, confidence: $0.confidence)
            }
            let csv = name("lidar", index, "csv")
            try DepthSamplesCSV.write(samples, to: dir.appendingPathComponent(csv))
            files.append(FileEntry(path: csv, kind: "sparse depth samples", camera: "wide",
                                   units: "x,y in wide pixels; depth_m in metres; confidence in [0, 1]"))
            let sparse = try DepthSamplesCSV.sparseDepthImage(samples, width: size.width, height: size.height)
            let sparsePFM = name("lidar", index, "depth.pfm"), sparsePNG = name("lidar", index, "depth.png")
            try PFM.write(sparse, to: dir.appendingPathComponent(sparsePFM))
            try DepthPNG.write(depthMetres: sparse, to: dir.appendingPathComponent(sparsePNG), convention: .millimetres)
            files.append(FileEntry(path: sparsePFM, kind: "sparse depth map", camera: "wide", units: "metres, NaN = no sample"))
            files.append(FileEntry(path: sparsePNG, kind: "sparse depth map", camera: "wide",
                                   units: "uint16 millimetres, 0 = no sample"))
        }
        try dataset.calibration.write(to: dir.appendingPathComponent("calibration.yaml"),
                                      comment: "Synthetic rig: the ground truth of the rendered images.")
        files.append(FileEntry(path: "calibration.yaml", kind: "calibration", camera: nil,
                               units: "dualcam YAML; intrinsics in pixels at the rendered size, extrinsics in mm"))
        if dataset.pairs.contains(where: { $0.boardPose != nil }) {
            try BoardGroundTruth.write(dataset, to: dir.appendingPathComponent("board.json"))
            files.append(FileEntry(path: "board.json", kind: "board ground truth", camera: nil,
                                   units: "board in metres; poses worldFromBoard (world = wide); corners in pixels"))
        }
        let spec = dataset.spec
        let lidar = LidarSummary(
            pattern: describe(spec.lidar.pattern), samples: dataset.pairs.reduce(0) { $0 + $1.lidar.count },
            outliers: dataset.pairs.reduce(0) { $0 + $1.lidar.filter(\.isOutlier).count },
            noiseSigmaMetres: spec.lidar.noiseSigma, outlierFraction: spec.lidar.outlierFraction,
            rangeLimitMetres: spec.lidar.rangeLimit)
        var manifest = Manifest(scene: spec.sceneName, seed: spec.sceneOptions.seed, size: [size.width, size.height],
                                samplesPerPixel: spec.render.samplesPerAxis * spec.render.samplesPerAxis,
                                noiseSigmaLevels: spec.render.noiseSigma,
                                planeDistanceMetres: spec.sceneName == "plane" ? spec.sceneOptions.planeDistance : nil,
                                lidar: lidar, conditions: spec.conditions.isClean ? nil : ConditionsSummary(spec.conditions),
                                files: files)
        manifest.objects = (dataset.pairs.first?.objectNames ?? []).enumerated().map { ObjectEntry(id: $0.offset + 1, name: $0.element) }
        manifest.files.append(FileEntry(path: "manifest.json", kind: "manifest", camera: nil, units: "this file"))
        try AtomicFile.write(try json(manifest), to: dir.appendingPathComponent("manifest.json"))
        return manifest
    }

    /// The view's object ids as uint16, 1 + index (0 = nothing hit).
    static func objectImage(_ view: RenderedView) throws -> Image {
        try Image(width: view.size.width, height: view.size.height, channels: 1,
                  pixels: view.objectIDs.map { UInt16(clamping: Int($0) + 1) })
    }

    static func describe(_ pattern: LidarSampling.Pattern) -> String {
        switch pattern {
        case let .random(fraction): return "random:\(fraction)"
        case let .grid(columns, rows): return "grid:\(columns)x\(rows)"
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try encoder.encode(value)
    }

    /// Throws unless every `name` in `directory` is missing, a regular file
    /// or a symbolic link: only files are ever replaced, and the check comes
    /// before anything moves, so a user's directory is never deleted and
    /// nothing is half-published.
    static func checkReplaceable(_ names: [String], in directory: URL) throws {
        let fm = FileManager.default
        for name in names {
            let target = directory.appendingPathComponent(name)
            guard let type = (try? fm.attributesOfItem(atPath: target.path))?[.type] as? FileAttributeType else { continue }
            guard type == .typeRegular || type == .typeSymbolicLink else {
                throw DualcamError.io(path: target.path, reason: "exists and is not a file (synth replaces only files it writes); move it away or choose another --out")
            }
        }
    }
}
