import Dispatch
import DualcamGeometry

/// Ground-truth helpers over rendered views.
public enum GroundTruth {
    /// Which pixels of `source` are also seen by `destination` (row-major mask
    /// over the source image).
    ///
    /// A source pixel p with GT depth Z is back-projected to
    /// X = C_src + Z d_src(p) (the renderer's centre ray, `CameraRays`), mapped
    /// into the destination frame, X_dst = R_dst X + t_dst, and projected with
    /// the destination's exact camera model (with distortion) to q, which must
    /// lie inside the destination image (its nearest pixel exists). Then:
    ///
    /// - without `scene`, from the depth maps: co-visible when the destination
    ///   GT depth agrees with Z_dst within the relative `tolerance`
    ///   (|Z' - Z_dst| <= tolerance * Z_dst) for Z' = the nearest pixel's depth,
    ///   or Z' = the bilinear interpolation of inverse depth over the 2 x 2
    ///   pixels around q (exact on planes seen by an undistorted camera, so
    ///   slanted surfaces stay co-visible), or when those 4 pixels all show the
    ///   source pixel's object and Z_dst lies within their depth range widened
    ///   by the tolerance (creases such as a room's corners). A nearer
    ///   destination depth means the point is occluded there.
    /// - with `scene`, exactly: a destination ray is cast through q itself and
    ///   the point is co-visible when that ray's hit depth agrees within the
    ///   tolerance (a nearer hit = occluded). This has no pixel-level ambiguity.
    ///
    /// The rig's cameras must have the rendered views' sizes.
    public static func covisibility(from source: RenderedView, to destination: RenderedView, rig: Rig,
                                    scene: Scene? = nil, tolerance: Double = 0.001) throws -> [Bool] {
        for view in [source, destination] {
            let size = try rig.camera(view.camera).size
            guard size == view.size else {
                throw RenderError.invalidOptions(
                    "rendered view of '\(view.camera)' is \(view.size) but the rig's camera is \(size)")
            }
        }
        let rays = try CameraRays(rig: rig, camera: source.camera)
        let destinationRays = try CameraRays(rig: rig, camera: destination.camera)
        let caster = try scene.map { try SceneRayCaster($0) }
        let destinationModel = destinationRays.model
        let destinationFromWorld = destinationRays.cameraFromWorld
        let (sw, sh) = (source.size.width, source.size.height)
        let (dw, dh) = (destination.size.width, destination.size.height)
        let sourceDepth = source.depthValues()
        let map = DepthMap(depth: destination.depthValues(), ids: destination.objectIDs, width: dw, height: dh)
        var mask = [Bool](repeating: false, count: sw * sh)
        mask.withUnsafeMutableBufferPointer { out in
            rays.grid.nodes.withUnsafeBufferPointer { nodes in
                let grid = rays.grid.view(nodes)
                DispatchQueue.concurrentPerform(iterations: sh) { y in
                    for x in 0..<sw {
                        let z = Double(sourceDepth[y * sw + x])
                        guard z.isFinite else { continue }
                        let world = rays.center + z * rays.worldDirection(rays.refined(grid, Double(x), Double(y)))
                        let p = destinationFromWorld.apply(world)
                        guard let q = try? destinationModel.project(p), q.x >= -0.5, q.y >= -0.5,
                              q.x < Double(dw) - 0.5, q.y < Double(dh) - 0.5 else { continue }
                        if let caster {
                            let d = destinationRays.refinedDirection(sensorX: q.x, sensorY: q.y)
                            if let hit = caster.cast(origin: destinationRays.center, direction: d) {
                                out[y * sw + x] = abs(hit.distance - p.z) <= tolerance * p.z
                            }
                        } else {
                            out[y * sw + x] = map.agrees(at: q, depth: p.z, object: source.objectIDs[y * sw + x],
                                                         tolerance: tolerance)
                        }
                    }
                }
            }
        }
        return mask
    }
}

/// A destination depth map for the covisibility test.
private struct DepthMap {
    let depth: [Float]
    let ids: [Int32]
    let width: Int
    let height: Int

    func agrees(at q: Vector2, depth z: Double, object: Int32, tolerance: Double) -> Bool {
        func close(_ d: Double) -> Bool { abs(d - z) <= tolerance * z }
        let xr = Int((q.x + 0.5).rounded(.down)), yr = Int((q.y + 0.5).rounded(.down))
        if close(Double(depth[yr * width + xr])) { return true }
        let x0 = Int(q.x.rounded(.down)), y0 = Int(q.y.rounded(.down))
        guard x0 >= 0, y0 >= 0, x0 + 1 < width, y0 + 1 < height else { return false }
        let corners = [(x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1)].map { y0x in
            (depth: Double(depth[y0x.1 * width + y0x.0]), id: ids[y0x.1 * width + y0x.0])
        }
        let fx = q.x - Double(x0), fy = q.y - Double(y0)
        let inv = corners.map { 1 / $0.depth }
        let interpolated = 1 / ((inv[0] * (1 - fx) + inv[1] * fx) * (1 - fy) + (inv[2] * (1 - fx) + inv[3] * fx) * fy)
        if interpolated.isFinite, close(interpolated) { return true }
        guard corners.allSatisfy({ $0.id == object }) else { return false }
        let depths = corners.map(\.depth)
        return z >= depths.min()! * (1 - tolerance) && z <= depths.max()! * (1 + tolerance)
    }
}

extension Rig {
    /// The rig with the named cameras' models scaled to new image sizes
    /// (`CameraModel.scaled(to:)`: K' = diag(W/Wref, H/Href, 1) K, same aspect
    /// ratio required); other cameras and the extrinsics are unchanged.
    public func scaled(to sizes: [FrameName: PixelSize]) throws -> Rig {
        var rig = self
        for (name, size) in sizes {
            let camera = try rig.camera(name)
            try rig.setCamera(RigCamera(name: name, model: try camera.model.scaled(to: size)))
        }
        return rig
    }

    /// Every camera scaled to `width` pixels wide, keeping its aspect ratio:
    /// height = round(width * H / W).
    public func resized(width: Int) throws -> Rig {
        var sizes: [FrameName: PixelSize] = [:]
        for camera in cameras {
            let h = (Double(width) * Double(camera.size.height) / Double(camera.size.width)).rounded()
            sizes[camera.name] = PixelSize(width: width, height: max(1, Int(h)))
        }
        return try scaled(to: sizes)
    }
}
