import ArgumentParser
import DualcamImaging
import DualcamSupport
import Foundation

struct ImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Inspect and convert images and depth maps (PNG 8/16, JPEG, TIFF, EXR, PFM, NPY).",
        discussion: "Example: dualcam image convert depth.pfm depth.png --depth-png mm",
        subcommands: [Info.self, Convert.self]
    )

    enum DepthConvention: String, ExpressibleByArgument, CaseIterable {
        case mm, kitti

        var convention: DepthPNG.Convention { self == .mm ? .millimetres : .kitti256 }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print size, channels, element type and value statistics of an image.",
            discussion: "Example: dualcam image info wide.depth.pfm --json"
        )

        @Argument(help: "Image file.")
        var file: String

        @Flag(name: .long, help: "Print JSON instead of text.")
        var json = false

        struct Report: Encodable {
            let file: String
            let format: String
            let width: Int
            let height: Int
            let channels: Int
            let element: String
            let statistics: ImageStatistics
        }

        func run() throws {
            try reportingErrors {
                let url = URL(fileURLWithPath: file)
                let format = try ImageFormat.of(url)
                let image = try ImageIO.read(url)
                let stats = ImageStatistics(image)
                if json {
                    try printJSON(Report(file: file, format: format.name, width: image.width, height: image.height,
                                         channels: image.channels, element: "\(image.element)", statistics: stats))
                } else {
                    print("\(file): \(format.name), \(image.description)")
                    if let lo = stats.minimum, let hi = stats.maximum, let mean = stats.mean {
                        print("values: min \(lo), max \(hi), mean \(mean) over \(stats.finiteCount) finite")
                    }
                    if stats.nanCount + stats.infiniteCount > 0 {
                        print("non-finite: \(stats.nanCount) NaN, \(stats.infiniteCount) infinite")
                    }
                }
            }
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert an image or depth map to the format of the output's extension.",
            discussion: """
                With --depth-png, a 16-bit PNG side is a depth map: float metres <-> uint16
                millimetres (mm) or value x 256 (kitti), 0 meaning no value (NaN).

                Example: dualcam image convert depth.png depth.npy --depth-png mm
                """
        )

        @Argument(help: "Input image.")
        var input: String

        @Argument(help: "Output image; the format follows the extension.")
        var output: String

        @Option(name: .customLong("depth-png"), help: "Depth PNG16 convention: mm or kitti.")
        var depthPNG: DepthConvention?

        func run() throws {
            try reportingErrors {
                let inURL = URL(fileURLWithPath: input), outURL = URL(fileURLWithPath: output)
                try StagedOutputs(inputs: [input]).refuseClash(output, flag: "output")
                let inFormat = try ImageFormat.of(inURL), outFormat = try ImageFormat.of(outURL)
                if depthPNG != nil, inFormat != .png, outFormat != .png {
                    throw DualcamError.invalidValue(
                        name: "--depth-png", reason: "applies only when the input or the output is a .png file")
                }
                let image: Image
                if let depthPNG, inFormat == .png {
                    image = try DepthPNG.read(inURL, convention: depthPNG.convention)
                } else {
                    image = try ImageIO.read(inURL)
                }
                var stored = image.description
                if outFormat == .png, image.element == .float32 || image.element == .float16 {
                    guard let depthPNG else {
                        throw DualcamError.invalidValue(
                            name: output, reason: "a float image needs --depth-png mm or --depth-png kitti to be stored as a 16-bit PNG")
                    }
                    let summary = try DepthPNG.write(depthMetres: image, to: outURL, convention: depthPNG.convention)
                    stored = "\(image.width)x\(image.height) 16-bit depth PNG (\(depthPNG.rawValue)), \(summary.valid) valid values"
                    if summary.lostValues > 0 {
                        let lost = summary.lostValues, other = summary.invalid - summary.notANumber
                        FileHandle.standardError.write(Data(
                            ("dualcam: warning: \(output): \(lost) value\(lost == 1 ? "" : "s") stored as 0 (no value): "
                             + "\(summary.outOfRange) outside the PNG16 range, \(other) infinite or not positive\n").utf8))
                    }
                } else if outFormat.elements.contains(image.element) {
                    try ImageIO.write(image, to: outURL)
                } else {
                    // The user asked for this format: store the same values in a wider
                    // element type it supports (uint8 -> float32 for PFM). Narrowing
                    // would round or clip values, so it is refused, not done silently.
                    guard let target = outFormat.elements.first(where: { image.element.widens(to: $0) }) else {
                        throw DualcamError.invalidValue(
                            name: output, reason: "\(outFormat.name) cannot store \(image.element) values without loss "
                                + "(it stores \(outFormat.elements.map(\.rawValue).joined(separator: ", "))); choose another format")
                    }
                    let converted = image.converted(to: target)
                    try ImageIO.write(converted, to: outURL)
                    stored = converted.description
                }
                FileHandle.standardError.write(Data("wrote \(output) (\(outFormat.name), \(stored))\n".utf8))
            }
        }
    }
}

extension PixelElement {
    /// True when every value of `self` is exactly representable in `other`.
    func widens(to other: PixelElement) -> Bool {
        switch (self, other) {
        case (.uint8, _): return true
        case (.uint16, .uint16), (.uint16, .float32): return true
        case (.float16, .float16), (.float16, .float32): return true
        case (.float32, .float32): return true
        default: return false
        }
    }
}
