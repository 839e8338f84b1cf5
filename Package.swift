// swift-tools-version:6.1
import PackageDescription

// Linux only: capture talks to V4L2 (<linux/videodev2.h>) and the modules use
// Glibc, so the manifest names no Apple platform.
//
// Module graph (arrows point at dependencies; no cycles, OpenCV behind one wall):
//
//   DualcamSupport: one-line user-facing errors, atomic file writes (no deps).
//   DualcamGeometry: the rig model, poses, projections (pure Swift, no deps).
//
//   The C/C++ layer:
//     COpenCVShim (binds OpenCV behind a plain C API; the only target that
//       includes OpenCV headers) -> COpenCV4 (system library, pkg-config opencv4),
//       CDualcamKernels (dualcam's own kernels on raw buffers, plain C API, no
//       OpenCV: stereo refinement, edge snap, edge-aware solver, relabelling;
//       the shim runs the OpenCV steps around them)
//     CLapacke (system library, pkg-config lapacke); CV4L2 (V4L2 ioctl/mmap/poll wrappers)
//
//   DualcamOpenCV -> COpenCVShim, DualcamSupport (Swift classes own the shim's handles)
//   DualcamImaging -> DualcamOpenCV, DualcamSupport
//   DualcamLinearAlgebra -> CLapacke
//   DualcamCalibrationFiles -> DualcamGeometry, DualcamOpenCV, DualcamSupport, Yams
//   DualcamSynthetic (scenes with ground truth) -> DualcamGeometry, DualcamImaging,
//     DualcamCalibrationFiles
//   DualcamConvergence (convergence plane, automatic distance) -> DualcamGeometry, DualcamImaging
//
//   DualcamDepthMap -> DualcamGeometry, DualcamImaging, DualcamSupport
//     (typed depth maps, sizes, confidence, depth files, metadata, metrics,
//     evaluation against ground truth (dualcam eval); shared by DualcamStereo
//     and DualcamFusion)
//   DualcamStereo (issue 8: stereo depth; rectification of a heterogeneous pair,
//   SGBM + LR check + subpixel refinement + confidence, reference alignment, fill)
//     -> DualcamDepthMap, DualcamGeometry, DualcamImaging, DualcamSupport,
//        DualcamOpenCV (rectify maps, SGBM, WLS, FGS fill, edge snap at depth
//        discontinuities)
//   DualcamFusion (issue 6: sparse metric samples + wide image + stereo -> absolute depth)
//     -> DualcamDepthMap, DualcamStereo, DualcamGeometry, DualcamImaging, DualcamSupport,
//        DualcamOpenCV (shared-guide FGS solver, guided filter, relabelling),
//        DualcamLinearAlgebra (robust scale/shift fit)
//   DualcamCalibrationSolver (issue 5: dualcam calibrate / verify / test suites)
//     -> DualcamCalibrationFiles, DualcamGeometry, DualcamSynthetic (board views
//        with truth), DualcamImaging (pattern detection), DualcamOpenCV (calib3d
//        shim), DualcamLinearAlgebra (extrinsic uncertainties), DualcamSupport,
//        Yams (suite manifests)
//
//   Capture (issue 7), kernel-facing parts without OpenCV or Foundation (they
//   also run statically linked inside a small VM):
//     DualcamV4L2 -> CV4L2
//     DualcamSync (no deps: ApproximateTime pairing of two timestamped streams)
//   DualcamCapture (frame sources: files, V4L2 pairs; decoding via DualcamOpenCV)
//     -> DualcamV4L2, DualcamSync, DualcamImaging, DualcamOpenCV, DualcamGeometry,
//        DualcamCalibrationFiles, DualcamSupport
//   DualcamBatch (issue 22: dualcam batch; manifest, plan into units, task
//   assignment, completion records, status) -> DualcamCapture (pair plans),
//     DualcamCalibrationFiles (YAML budget), DualcamSupport; the command wires the jobs
//   dualcam-vivid-probe -> DualcamV4L2, DualcamSync (no OpenCV, no Foundation: runs in
//     the qemu VM of VividIntegrationTests, scripts/vivid)
//
//   DualcamBench (dualcam bench) -> the algorithm modules it times
//   DualcamFuzzing (every parser of user input as a fuzz target) -> the parsing
//     modules; dualcam-fuzz -> DualcamFuzzing (libFuzzer entry, or a replay tool)
//   dualcam (CLI, parsing + wiring only) -> the library modules, ArgumentParser
//
// Only COpenCVShim includes OpenCV headers. Every shim and kernel entry point
// that can fail catches C++ exceptions and returns an error code and message;
// DualcamOpenCV owns the handles in Swift classes that free them in `deinit`.

let package = Package(
    name: "dualcam",
    products: [
        .executable(name: "dualcam", targets: ["dualcam"]),
        .library(name: "DualcamGeometry", targets: ["DualcamGeometry"]),
        .library(name: "DualcamImaging", targets: ["DualcamImaging"]),
        .library(name: "DualcamCalibrationFiles", targets: ["DualcamCalibrationFiles"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // MARK: System libraries and the OpenCV wall
        .systemLibrary(
            name: "COpenCV4",
            path: "Sources/COpenCV4",
            pkgConfig: "opencv4",
            providers: [.apt(["libopencv-dev"])]
        ),
        .target(
            name: "COpenCVShim",
            dependencies: ["COpenCV4", "CDualcamKernels"],
            cxxSettings: [.unsafeFlags(["-std=c++17", "-O2"])]  // -O2 also in debug: OpenCV's inline templates run in tests
        ),
        // dualcam's own C++ kernels on raw buffers (no OpenCV); the shim calls them.
        .target(
            name: "CDualcamKernels",
            cxxSettings: [.unsafeFlags(["-std=c++17", "-O2"])]  // -O2 also in debug: the refinement and solver loops run in tests
        ),
        .systemLibrary(
            name: "CLapacke",
            path: "Sources/CLapacke",
            pkgConfig: "lapacke",
            providers: [.apt(["liblapacke-dev"])]
        ),

        // MARK: Library modules
        .target(name: "DualcamSupport"),
        .target(name: "DualcamGeometry"),
        .target(name: "DualcamOpenCV", dependencies: ["COpenCVShim", "DualcamSupport"]),
        .target(name: "DualcamImaging", dependencies: ["DualcamOpenCV", "DualcamSupport"]),
        .target(name: "DualcamLinearAlgebra", dependencies: ["CLapacke"]),
        .target(
            name: "DualcamCalibrationFiles",
            dependencies: ["DualcamGeometry", "DualcamOpenCV", "DualcamSupport", .product(name: "Yams", package: "Yams")]
        ),
        .target(name: "DualcamSynthetic", dependencies: ["DualcamGeometry", "DualcamImaging", "DualcamCalibrationFiles"]),
        .target(name: "DualcamConvergence", dependencies: ["DualcamGeometry", "DualcamImaging"]),

        // MARK: Depth (issue 8), depth data shared by depth and fusion
        .target(name: "DualcamDepthMap", dependencies: ["DualcamGeometry", "DualcamImaging", "DualcamSupport"]),
        .target(
            name: "DualcamStereo",
            dependencies: ["DualcamDepthMap", "DualcamGeometry", "DualcamImaging", "DualcamOpenCV", "DualcamSupport"]
        ),

        // MARK: Fusion (issue 6)
        .target(
            name: "DualcamFusion",
            dependencies: ["DualcamDepthMap", "DualcamStereo", "DualcamGeometry", "DualcamImaging", "DualcamOpenCV", "DualcamLinearAlgebra", "DualcamSupport"]
        ),

        // MARK: Calibration solving and suites (issue 5)
        .target(
            name: "DualcamCalibrationSolver",
            dependencies: ["DualcamCalibrationFiles", "DualcamGeometry", "DualcamImaging", "DualcamOpenCV", "DualcamSynthetic", "DualcamLinearAlgebra", "DualcamSupport", .product(name: "Yams", package: "Yams")]
        ),

        // MARK: Capture (issue 7)
        .target(name: "CV4L2"),
        .target(name: "DualcamV4L2", dependencies: ["CV4L2"]),
        .target(name: "DualcamSync"),
        .target(
            name: "DualcamCapture",
            dependencies: ["DualcamV4L2", "DualcamSync", "DualcamImaging", "DualcamOpenCV", "DualcamGeometry", "DualcamCalibrationFiles", "DualcamSupport"]
        ),

        // MARK: Batch runs on cluster engines (issue 22)
        .target(name: "DualcamBatch", dependencies: ["DualcamCapture", "DualcamCalibrationFiles", "DualcamSupport"]),
        // Slurm integration test: scripts/slurm installs and starts a one-node cluster,
        // deploy/slurm/dualcam-batch.sbatch runs as an array (docs/batch.md).
        .testTarget(name: "SlurmIntegrationTests", dependencies: ["dualcam", "TestSupport", "DualcamSynthetic", "DualcamCalibrationFiles", "DualcamGeometry"]),

        // V4L2 integration test: scripts/vivid boots Debian's kernel in qemu with vivid
        // and runs the probe there (README, "V4L2 integration test").
        .executableTarget(name: "dualcam-vivid-probe", dependencies: ["DualcamV4L2", "DualcamSync"]),
        .testTarget(name: "VividIntegrationTests", dependencies: ["dualcam-vivid-probe", "TestSupport"]),

        .target(
            name: "DualcamBench",
            dependencies: [
                "DualcamSynthetic", "DualcamConvergence", "DualcamImaging", "DualcamCalibrationFiles", "DualcamSupport",
                "DualcamDepthMap", "DualcamStereo", "DualcamFusion", "DualcamCalibrationSolver",
            ]
        ),

        // MARK: Fuzzing: every parser of user input as a libFuzzer target
        // (scripts/fuzz.sh builds dualcam-fuzz with -sanitize=fuzzer into
        // .build-fuzz; built normally it replays files through a target).
        .target(
            name: "DualcamFuzzing",
            dependencies: [
                "DualcamSupport", "DualcamGeometry", "DualcamImaging", "DualcamCalibrationFiles", "DualcamDepthMap",
                "DualcamFusion", "DualcamCalibrationSolver", "DualcamCapture", "DualcamSynthetic", "DualcamV4L2", "DualcamBatch",
            ]
        ),
        .executableTarget(name: "dualcam-fuzz", dependencies: ["DualcamFuzzing"]),

        // MARK: The command
        .executableTarget(
            name: "dualcam",
            dependencies: [
                "DualcamSupport", "DualcamGeometry", "DualcamOpenCV", "DualcamImaging", "DualcamCalibrationFiles", "DualcamSynthetic", "DualcamConvergence", "DualcamBench",
                "DualcamDepthMap", "DualcamStereo", "DualcamFusion", "DualcamCalibrationSolver",
                "DualcamV4L2", "DualcamCapture", "DualcamBatch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "ImagingTestSupport", dependencies: ["DualcamImaging"], path: "Tests/ImagingTestSupport"),
        .testTarget(name: "DualcamSupportTests", dependencies: ["DualcamSupport", "TestSupport"]),
        .testTarget(name: "DualcamGeometryTests", dependencies: ["DualcamGeometry", "TestSupport"]),
        .testTarget(name: "DualcamImagingTests", dependencies: ["DualcamImaging", "DualcamOpenCV", "DualcamSupport", "TestSupport"]),
        .testTarget(name: "DualcamOpenCVTests", dependencies: ["DualcamOpenCV", "TestSupport"]),
        .testTarget(name: "CDualcamKernelsTests", dependencies: ["CDualcamKernels", "TestSupport"]),
        .testTarget(name: "DualcamLinearAlgebraTests", dependencies: ["DualcamLinearAlgebra", "TestSupport"]),
        .testTarget(
            name: "DualcamCalibrationFilesTests",
            dependencies: ["DualcamCalibrationFiles", "DualcamOpenCV", "DualcamGeometry", "DualcamSupport", "TestSupport"]
        ),
        .testTarget(name: "DualcamSyntheticTests", dependencies: ["DualcamSynthetic", "ImagingTestSupport", "DualcamCalibrationFiles", "DualcamImaging", "TestSupport"]),
        .testTarget(name: "DualcamConvergenceTests", dependencies: ["DualcamConvergence", "ImagingTestSupport", "DualcamSynthetic", "DualcamCalibrationFiles", "DualcamCalibrationSolver", "DualcamOpenCV", "DualcamImaging", "TestSupport"]),
        .testTarget(name: "DualcamDepthMapTests", dependencies: ["DualcamDepthMap", "DualcamImaging", "DualcamGeometry", "TestSupport"]),
        .testTarget(name: "DualcamStereoTests", dependencies: ["DualcamStereo", "DualcamDepthMap", "DualcamSynthetic", "DualcamCalibrationFiles", "DualcamCalibrationSolver", "DualcamOpenCV", "DualcamImaging", "DualcamGeometry", "TestSupport"]),
        .testTarget(name: "DualcamFusionTests", dependencies: ["DualcamFusion", "DualcamStereo", "DualcamDepthMap", "DualcamSynthetic", "DualcamCalibrationFiles", "DualcamImaging", "DualcamGeometry", "TestSupport"]),
        .testTarget(name: "DualcamCalibrationSolverTests", dependencies: ["DualcamCalibrationSolver", "DualcamCalibrationFiles", "DualcamSynthetic", "DualcamImaging", "DualcamGeometry", "TestSupport"]),
        // The fake kernel (FakeV4L2System, FakeDriver) that stands in for V4L2 in tests.
        .target(name: "V4L2TestSupport", dependencies: ["DualcamV4L2", "CV4L2"], path: "Tests/V4L2TestSupport"),
        .testTarget(name: "DualcamV4L2Tests", dependencies: ["DualcamV4L2", "CV4L2", "V4L2TestSupport", "TestSupport"]),
        .testTarget(name: "DualcamSyncTests", dependencies: ["DualcamSync", "TestSupport"]),
        .testTarget(name: "DualcamBenchTests", dependencies: ["DualcamBench"]),
        .testTarget(name: "DualcamCaptureTests", dependencies: ["DualcamCapture", "DualcamV4L2", "V4L2TestSupport", "DualcamSync", "DualcamImaging", "DualcamOpenCV", "DualcamSupport", "TestSupport"]),
        .testTarget(name: "DualcamBatchTests", dependencies: ["DualcamBatch", "DualcamCapture", "DualcamImaging", "DualcamSupport", "TestSupport", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "DualcamFuzzingTests", dependencies: ["DualcamFuzzing", "DualcamSupport", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["dualcam", "TestSupport", "DualcamImaging", "DualcamDepthMap", "DualcamOpenCV", "DualcamCalibrationFiles", "DualcamGeometry", "DualcamBench", "DualcamSynthetic", "DualcamCapture", .product(name: "Yams", package: "Yams")]),
    ],
    swiftLanguageModes: [.v5]
)
