import CV4L2
import DualcamV4L2
import V4L2TestSupport

/// Fake devices shaped like common UVC webcams.
enum FakeCameras {
    static let hd = FrameSize(width: 1280, height: 720)
    static let vga = FrameSize(width: 640, height: 480)
    static let qvga = FrameSize(width: 320, height: 240)

    /// YUYV and MJPEG at 1280x720, 640x480, 320x240; 30 and 15 fps.
    static func webcam(_ card: String, mjpeg: Bool = true, events: [FakeV4L2System.Event] = []) -> FakeV4L2System.Device {
        var formats = [FakeV4L2System.Format(.yuyv, name: "YUYV 4:2:2", sizes: [(hd, [30, 15]), (vga, [30, 15]), (qvga, [30, 15])])]
        if mjpeg {
            formats.append(FakeV4L2System.Format(.mjpeg, name: "Motion-JPEG", sizes: [(hd, [30, 15]), (vga, [30, 15]), (qvga, [30, 15])]))
        }
        return FakeV4L2System.Device(card: card, formats: formats, events: events)
    }

    /// Frames at `periodNs` from `startNs`, sequence from 0 (monotonic clock).
    static func frames(_ count: Int, startNs: Int64 = 5_000_000_000, periodNs: Int64 = 33_333_000, skipping: Set<UInt32> = []) -> [FakeV4L2System.Event] {
        (0..<UInt32(count + skipping.count)).filter { !skipping.contains($0) }.map {
            .frame(timestampNs: startNs + Int64($0) * periodNs, sequence: $0)
        }
    }
}
