import Foundation

/// How a calibration was made, stored in the `provenance` section of a
/// dualcam calibration file.
public struct Provenance: Equatable, Hashable, Sendable, Codable {
    /// Where the numbers come from.
    public enum Source: String, CaseIterable, Equatable, Hashable, Sendable, Codable {
        /// Made-up, typical values (device profiles); not a measurement.
        case nominal
        /// Measured by a calibration procedure (see `rms`).
        case calibrated
        /// Converted from another tool's file (see `originalFile`).
        case imported
    }

    public var source: Source
    /// The program (and version) that made the file, e.g. `OpenCV stereo_calib`.
    public var tool: String?
    /// When it was made, ISO-8601: `2024-05-01` or `2024-05-01T12:00:00Z`.
    public var date: String?
    public var notes: String?
    /// The file this one was imported from.
    public var originalFile: String?
    /// Reprojection errors of a calibration, in pixels.
    public var rms: RMSErrors?

    public init(source: Source, tool: String? = nil, date: String? = nil, notes: String? = nil,
                originalFile: String? = nil, rms: RMSErrors? = nil) {
        self.source = source
        self.tool = tool
        self.date = date
        self.notes = notes
        self.originalFile = originalFile
        self.rms = rms
    }

    /// Provenance for a file imported now from `originalFile` by `tool`.
    public static func imported(from originalFile: String, tool: String, notes: String? = nil) -> Provenance {
        Provenance(source: .imported, tool: tool, date: isoDate(Date()), notes: notes, originalFile: originalFile)
    }

    /// `date` formatted as an ISO-8601 UTC timestamp without fractional seconds.
    public static func isoDate(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    /// True for `YYYY-MM-DD` and for ISO-8601 date-times (with or without
    /// fractional seconds, `Z` or an offset).
    public static func isValidISODate(_ text: String) -> Bool {
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        if text.count == 10, dateOnly.date(from: text) != nil { return true }
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime]
        if full.date(from: text) != nil { return true }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return full.date(from: text) != nil
    }
}

/// RMS reprojection errors of a calibration, in pixels.
public struct RMSErrors: Equatable, Hashable, Sendable, Codable {
    /// Per-camera RMS of the single-camera calibrations, by camera name.
    public var cameras: [String: Double]
    /// RMS of the joint stereo calibration.
    public var stereo: Double?

    public init(cameras: [String: Double] = [:], stereo: Double? = nil) {
        self.cameras = cameras
        self.stereo = stereo
    }

    public var isEmpty: Bool { cameras.isEmpty && stereo == nil }
}
