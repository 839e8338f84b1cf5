import ArgumentParser
import DualcamCapture
import DualcamSupport
import DualcamV4L2
import Foundation

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List V4L2 cameras (formats, sizes, rates) and estimate the USB bandwidth of a pair.",
        discussion: """
            Without paths, lists every /dev/video* node. With --size, --fps and --format (and
            optionally --wide/--tele to check the devices offer them) it prints the estimated USB 2.0
            bandwidth of the pair against the high-speed isochronous budget: YUYV needs
            width x height x 2 x fps bytes/s; MJPEG is estimated at 1/8 of that.

            Example: dualcam devices --size 1280x720 --fps 30 --format yuyv
            """
    )

    @Argument(help: "Devices to list (default: /dev/video*).")
    var paths: [String] = []

    @Option(name: .long, help: "Wide camera device for the bandwidth estimate.")
    var wide: String?

    @Option(name: .long, help: "Tele camera device for the bandwidth estimate.")
    var tele: String?

    @Option(name: .long, help: "Frame size WxH for the bandwidth estimate.")
    var size: String?

    @Option(name: .long, parsing: .unconditional, help: "Frame rate for the bandwidth estimate.")
    var fps: Double?

    @Option(name: .long, help: "Pixel format for the bandwidth estimate: mjpeg or yuyv.")
    var format: String?

    func run() throws {
        try reportingErrors { try execute() }
    }

    func execute() throws {
        let wantsEstimate = wide != nil || tele != nil || size != nil || fps != nil || format != nil
        if wantsEstimate {
            try estimate()
            return
        }
        let list = paths.isEmpty ? Self.videoNodes() : paths
        if list.isEmpty {
            print("devices: no V4L2 devices (/dev/video*)")
            return
        }
        for path in list {
            let device: V4L2Device
            do {
                device = try V4L2Device(path: path)
            } catch let error as V4L2Error {
                // Listing everything: nodes that are not capture devices are shown, not fatal.
                if paths.isEmpty { print("\(path): \(Self.short(error))"); continue }
                throw error
            }
            print(try DeviceReport.text(device))
        }
    }

    /// /dev/video0, /dev/video1, ... in numeric order.
    static func videoNodes() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }.map { "/dev/" + $0 }
    }

    static func short(_ error: V4L2Error) -> String {
        switch error {
        case .noCaptureCapability: return "no video capture (metadata or output node)"
        default: return String(describing: error).components(separatedBy: ": ").dropFirst().joined(separator: ": ")
        }
    }

    private func estimate() throws {
        var modes: [CaptureMode]
        if wide != nil || tele != nil {
            let options = try DeviceOptions.none().liveOptions(wide: wide, tele: tele, fps: fps, size: size, format: format)
            let devices = try [wide!, tele!].map { try V4L2Device(path: $0) }
            modes = try LiveModeChoice.modes(devices: devices, options: options)
        } else {
            guard let size, let fps, let format else {
                throw DualcamError.invalidValue(name: "--size/--fps/--format", reason: "give all three for an estimate without devices (or --wide/--tele)")
            }
            let options = try DeviceOptions.none().liveOptions(wide: "wide", tele: "tele", fps: fps, size: size, format: format)
            modes = [CaptureMode](repeating: CaptureMode(pixelFormat: options.format!, size: options.size!, framesPerSecond: fps), count: 2)
        }
        let cost = USBBandwidth.cost(modes)
        print("devices: \(USBBandwidth.explain(modes))")
        print(cost < 1 ? "devices: fits one USB 2.0 controller (cost < 1)"
              : "devices: does not fit one USB 2.0 controller (cost >= 1): STREAMON will likely fail with ENOSPC; lower --size or --fps, use --format mjpeg, separate controllers, or capture with --fit")
    }
}

extension DeviceOptions {
    /// No flags given (for the bandwidth estimate, which only needs the parsing).
    static func none() -> DeviceOptions { try! DeviceOptions.parse([]) }
}
