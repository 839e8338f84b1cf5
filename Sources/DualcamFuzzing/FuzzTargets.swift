import DualcamBatch
import DualcamCalibrationSolver
import DualcamCalibrationFiles
import DualcamCapture
import DualcamDepthMap
import DualcamFusion
import DualcamGeometry
import DualcamImaging
import DualcamSupport
import DualcamSynthetic
import DualcamV4L2
import Foundation

/// Every parser of user input, as a fuzz target (see `FuzzTarget`). Each
/// goes through the entry point the commands use: a decoder over bytes
/// where there is one, else the file reader on a file with the format's
/// extension.
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        FuzzTarget("pfm", "PFM images (PFM.decode)") { data in _ = try PFM.decode([UInt8](data)) },
        FuzzTarget("npy", "NumPy .npy arrays (NPY.decode)") { data in _ = try NPY.decode([UInt8](data)) },
        FuzzTarget("png16", "16-bit depth PNGs (DepthPNG.read, through libpng)") { data in
            _ = try DepthPNG.read(try FuzzFiles.write(data, as: "depth.png"))
        },
        FuzzTarget("image", "PNG, JPEG, TIFF and OpenEXR images through OpenCV (ImageIO.read; the extension follows the content's first byte, so every decoder is reached)") { data in
            let extensions: [UInt8: String] = [0x89: "png", 0xFF: "jpg", 0x49: "tif", 0x4D: "tif", 0x76: "exr"]
            let name = "image." + (extensions[data.first ?? 0] ?? ["png", "jpg", "tif", "exr"][Int(data.first ?? 0) % 4])
            _ = try ImageIO.read(try FuzzFiles.write(data, as: name))
        },
        FuzzTarget("calibration-yaml", "dualcam calibration YAML (CalibrationFile)") { data in
            _ = try CalibrationFile(yaml: FuzzFiles.text(data), path: "fuzz.yaml")
        },
        FuzzTarget("calibration-any", "any calibration file by content: OpenCV FileStorage YAML/XML, ROS camera_info, Middlebury (CalibrationImport.read)") { data in
            _ = try CalibrationImport.read(try FuzzFiles.write(data, as: "calibration.yml"))
        },
        FuzzTarget("middlebury", "Middlebury calib.txt (CalibrationImport.middlebury)") { data in
            var options = CalibrationImport.Options()
            options.imageSize = PixelSize(width: 640, height: 480)
            _ = try CalibrationImport.middlebury(text: FuzzFiles.text(data), name: "calib.txt", options: options)
        },
        FuzzTarget("samples-csv", "sparse depth samples CSV x,y,depth_m[,confidence] (DepthSamplesCSV.parse)") { data in
            _ = try DepthSamplesCSV.parse(FuzzFiles.text(data), path: "samples.csv")
        },
        FuzzTarget("ply", "PLY point clouds, ascii and binary (PointCloudReader.read)") { data in
            _ = try PointCloudReader.read(try FuzzFiles.write(data, as: "cloud.ply"))
        },
        FuzzTarget("xyz", "point clouds as CSV x,y,z (PointCloudReader.read)") { data in
            _ = try PointCloudReader.read(try FuzzFiles.write(data, as: "cloud.csv"))
        },
        FuzzTarget("fusion-samples", "fuse --samples: CSV, x,y,z clouds, projected and merged per pixel (SampleSources + SampleMerging)") { data in
            let rig = try FuzzFixtures.lidarRig()
            let loaded = try SampleSources.load(try FuzzFiles.write(data, as: "samples.csv"), wideSize: FuzzFixtures.wideSize, rig: rig)
            _ = try SampleMerging.onePerPixel(loaded.samples.map {
                MetricSample(x: $0.x, y: $0.y, depthMetres: $0.depthMetres, confidence: $0.confidence ?? 1)
            }, size: FuzzFixtures.wideSize)
        },
        FuzzTarget("image-sidecar", "per-frame intrinsics sidecars <image>.json (FrameIntrinsicsSidecar.parse)") { data in
            _ = try FrameIntrinsicsSidecar.parse(data, path: "wide.png.json")
        },
        FuzzTarget("depth-sidecar", "depth map sidecars <map>.json (DepthMetadata.read)") { data in
            _ = try DepthMetadata.read(try FuzzFiles.write(data, as: "depth.pfm.json"))
        },
        FuzzTarget("intrinsics-csv", "per-frame intrinsics CSV (FrameIntrinsicsCSV.parse)") { data in
            _ = try FrameIntrinsicsCSV.parse(FuzzFiles.text(data), path: "intrinsics.csv")
        },
        FuzzTarget("suite", "calibration test suites (CalibrationSuite.read)") { data in
            _ = try CalibrationSuite.read(try FuzzFiles.write(data, as: "suite.yaml"))
        },
        FuzzTarget("batch-manifest", "dualcam batch manifests, YAML or JSON (BatchManifest.parse), planned and assigned to 7 tasks") { data in
            let manifest = try BatchManifest.parse(FuzzFiles.text(data), file: "manifest.yaml", base: URL(fileURLWithPath: "/fuzz"))
            // 10 pairs per recording, a warm-up on every other one: the plan and assignment must hold too.
            let n = manifest.recordings.count
            let plan = try BatchPlan(manifest: manifest, pairCounts: [Int?](repeating: 10, count: n), estimatedCounts: [Int?](repeating: nil, count: n),
                                     policies: (0..<n).map { $0 % 2 == 0 ? .independent : .warmUp(3) })
            _ = TaskAssignment.assign(plan.units, tasks: 7, chunkPairs: manifest.chunkPairs)
        },
        FuzzTarget("timestamps-csv", "frame timestamps CSV file,timestamp_ns (TimestampsCSV.read)") { data in
            _ = try TimestampsCSV.read(try FuzzFiles.write(data, as: TimestampsCSV.fileName))
        },
        FuzzTarget("strings", "distances, sizes, board patterns, LiDAR patterns, depth types (the flag parsers)") { data in
            let text = FuzzFiles.text(data)
            // Every flag parser sees the same text; each may refuse it (with
            // one line); the text counts as accepted when one parser took it.
            var errors: [Error] = []
            func attempt(_ body: () throws -> Void) {
                do { try body() } catch { errors.append(error) }
            }
            attempt { _ = try Distance(parsing: text) }
            attempt { _ = try DepthOutputSize(parsing: text).resolved(for: PixelSize(width: 640, height: 480)) }
            attempt { _ = try BoardTarget(parsing: text) }
            attempt { _ = try DepthDataType(parsing: text) }
            attempt { _ = try DepthPrecision(parsing: text) }
            let parsed = [PixelSize(parsing: text) != nil, FrameSize(parsing: text) != nil,
                          LidarSampling.parsePattern(text) != nil, TimestampsCSV.timestamp(fromName: text) != nil]
            for error in errors.dropFirst() { FuzzTarget.check(error, target: "strings") }
            if errors.count == 5, !parsed.contains(true), let first = errors.first { throw first }
        },
    ]

    /// The target called `name`.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Inputs the targets share.
enum FuzzFixtures {
    static let wideSize = PixelSize(width: 64, height: 48)

    /// The nominal rig with a LiDAR 20 mm right of the wide camera.
    static func lidarRig() throws -> Rig {
        if let rig = cached { return rig }
        var yaml = NominalDevice.yaml
        yaml = yaml.replacingOccurrences(of: "extrinsics:\n", with: "extrinsics:\n  lidar_from_wide:\n    rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]\n    translation: [-20.0, 0.0, 0.0]\n    unit: mm\n")
        yaml = yaml.replacingOccurrences(of: "extrinsics:", with: """
            - name: lidar
              kind: lidar
              image_size: {width: 256, height: 192}
              intrinsics: {fx: 200.0, fy: 200.0, cx: 128.0, cy: 96.0}
            extrinsics:
            """, options: [], range: yaml.range(of: "extrinsics:"))
        let rig = try CalibrationFile(yaml: yaml, path: "lidar-rig.yaml").rig
        cached = rig
        return rig
    }

    nonisolated(unsafe) private static var cached: Rig?
}
