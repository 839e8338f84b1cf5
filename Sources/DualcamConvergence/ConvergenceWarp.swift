import DualcamGeometry
import DualcamImaging
import Foundation

/// Registers wide/tele pairs on a convergence plane: the fronto-parallel
/// plane Z = d in wide coordinates (see `ConvergenceGeometry` for the
/// homography and `ConvergenceMaps` for the one-pass undistort + warp).
///
/// Remap tables are cached per (distance, buffer sizes, intrinsics), so a
/// sequence of frames of one size at one distance builds them once. The
/// cache keeps the `cacheCapacity` most recently used distances; each holds
/// 9 bytes per canvas pixel per resampled image (two float32 maps and a
/// mask): 25 MB at 1920x1440 for the tele canvas, twice that for the wide
/// canvas when the wide is undistorted. The class is safe to use from
/// several threads.
///
///     let warp = try ConvergenceWarp(rig: calibration.rig)           // tele canvas
///     let pair = try warp.register(wide: wideImage, tele: teleImage,
///                                  distance: try Distance(parsing: "1.2m"))
///     let out = try ConvergenceViews.compose(.split, pair)
public final class ConvergenceWarp: @unchecked Sendable {
    public let rig: Rig
    public let canvas: ConvergenceCanvas
    public let wideCamera: FrameName
    public let teleCamera: FrameName
    public let cacheCapacity: Int

    private struct Key: Hashable {
        var geometry: ConvergenceGeometry
        var metres: Double
    }

    private let lock = NSLock()
    private var cache: [Key: ConvergenceMaps] = [:]
    private var order: [Key] = []

    /// Checks that the rig has both cameras and extrinsics between them.
    public init(rig: Rig, canvas: ConvergenceCanvas = .tele, wideCamera: FrameName = .wide,
                teleCamera: FrameName = .tele, cacheCapacity: Int = 4) throws {
        for name in [wideCamera, teleCamera] where !rig.cameraNames.contains(name) {
            throw ConvergenceError.invalidInput(
                "the calibration has no '\(name)' camera (it has \(rig.cameraNames.map(\.rawValue).joined(separator: ", ")))")
        }
        guard wideCamera != teleCamera else {
            throw ConvergenceError.invalidInput("wide and tele must be two different cameras, got '\(wideCamera)' twice")
        }
        do { _ = try rig.transform(from: wideCamera, to: teleCamera) } catch {
            throw ConvergenceError.invalidInput("\(error)")
        }
        self.rig = rig
        self.canvas = canvas
        self.wideCamera = wideCamera
        self.teleCamera = teleCamera
        self.cacheCapacity = max(1, cacheCapacity)
    }

    /// The geometry for buffers of these sizes (intrinsics scaled to them;
    /// an aspect-ratio mismatch is an error naming the camera).
    /// `wideIntrinsics` / `teleIntrinsics` override the calibration's, e.g.
    /// per-frame intrinsics.
    public func geometry(wideSize: PixelSize, teleSize: PixelSize,
                         wideIntrinsics: Intrinsics? = nil, teleIntrinsics: Intrinsics? = nil) throws -> ConvergenceGeometry {
        try ConvergenceGeometry(rig: rig, wideSize: wideSize, teleSize: teleSize, canvas: canvas,
                                wideCamera: wideCamera, teleCamera: teleCamera,
                                wideIntrinsics: wideIntrinsics, teleIntrinsics: teleIntrinsics)
    }

    /// The remap tables for `geometry` at `distance`, from the cache when present.
    public func maps(_ geometry: ConvergenceGeometry, distance: Distance) throws -> ConvergenceMaps {
        let key = Key(geometry: geometry, metres: distance.metres)
        if let hit = lookup(key) { return hit }
        let maps = try ConvergenceMaps(geometry: geometry, distance: distance)
        lock.lock()
        defer { lock.unlock() }
        if cache[key] == nil {
            cache[key] = maps
            order.append(key)
            while order.count > cacheCapacity { cache[order.removeFirst()] = nil }
        }
        return maps
    }

    /// Number of cached tables (for tests and reports).
    public var cachedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return cache.count
    }

    private func lookup(_ key: Key) -> ConvergenceMaps? {
        lock.lock()
        defer { lock.unlock() }
        guard let hit = cache[key] else { return nil }
        if let i = order.firstIndex(of: key) { order.remove(at: i); order.append(key) }
        return hit
    }

    /// Registers a pair on the canvas at `distance`: the moving image through
    /// its undistort + warp table, the fixed image through its undistortion
    /// table (or unchanged when its camera has no distortion), both bilinear
    /// with black outside. The images may have any element and 1, 3 or 4
    /// channels; their sizes pick the intrinsics (see `geometry`).
    public func register(wide: Image, tele: Image, distance: Distance,
                         wideIntrinsics: Intrinsics? = nil, teleIntrinsics: Intrinsics? = nil) throws -> ConvergedPair {
        let g = try geometry(wideSize: PixelSize(width: wide.width, height: wide.height),
                             teleSize: PixelSize(width: tele.width, height: tele.height),
                             wideIntrinsics: wideIntrinsics, teleIntrinsics: teleIntrinsics)
        return try register(wide: wide, tele: tele, maps: try maps(g, distance: distance))
    }

    /// Registers a pair with tables built before (sizes must match them).
    public func register(wide: Image, tele: Image, maps: ConvergenceMaps) throws -> ConvergedPair {
        let g = maps.geometry
        for (name, image, size) in [(g.wideCamera, wide, g.wideSize), (g.teleCamera, tele, g.teleSize)]
        where image.width != size.width || image.height != size.height {
            throw ConvergenceError.invalidInput(
                "\(name) image is \(image.width)x\(image.height) but the convergence tables were built for \(size)")
        }
        let movingImage = g.canvas == .tele ? wide : tele
        let fixedImage = g.canvas == .tele ? tele : wide
        let warped = try maps.moving.apply(movingImage)
        let fixed = try maps.fixed.map { try $0.apply(fixedImage) } ?? fixedImage
        return ConvergedPair(
            canvas: g.canvas, distance: maps.distance, teleFromWide: maps.teleFromWide,
            canvasFromMoving: maps.canvasFromMoving,
            wide: g.canvas == .tele ? warped : fixed, tele: g.canvas == .tele ? fixed : warped,
            movingValid: maps.moving.valid, movingFullyValid: maps.moving.isFullyValid)
    }
}
