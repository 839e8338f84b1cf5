import DualcamCalibrationFiles
import DualcamGeometry
import DualcamSynthetic

/// Shared fixtures of the renderer tests.
enum RenderFixtures {
    /// The nominal wide/tele rig (wide with Brown-Conrady distortion) scaled to `width`.
    static func nominalRig(width: Int) throws -> Rig {
        try NominalDevice.load().rig.resized(width: width)
    }

    /// A distortion-free rig: wide and tele both `size`, focal `f`, centred
    /// principal point, tele 10 mm to the left of wide (teleFromWide t = (-10, 0, 0) mm).
    static func pinholeRig(width: Int, height: Int, f: Double, cx: Double? = nil) throws -> Rig {
        let size = PixelSize(width: width, height: height)
        let k = try Intrinsics(fx: f, fy: f, cx: cx ?? Double(width - 1) / 2, cy: Double(height - 1) / 2, referenceSize: size)
        let tele = try Intrinsics(fx: 2 * f, fy: 2 * f, cx: Double(width - 1) / 2, cy: Double(height - 1) / 2, referenceSize: size)
        return try Rig(
            reference: .wide,
            cameras: [RigCamera(name: .wide, model: CameraModel(intrinsics: k)),
                      RigCamera(name: .tele, model: CameraModel(intrinsics: tele))],
            extrinsics: [RigidTransform(rotation: .identity, translation: Vector3(-10, 0, 0), unit: .millimetre,
                                        from: .wide, to: .tele)])
    }

    static func texture(_ seed: UInt64, _ base: RGB, featureSize: Double = 0.02) -> Appearance {
        .textured(ProceduralTexture(seed: seed, baseColor: base, featureSize: featureSize))
    }

    /// A room seen from inside: an interior box (walls 1.1-6 m from the
    /// camera), a textured sphere, a box and a poster on the far wall; the
    /// nearest surface (the box's front) is about 0.6 m away.
    static func room() -> Scene {
        Scene(name: "room", objects: [
            SceneObject(name: "room", shape: .box(center: Vector3(0, 0.2, 2.5), halfSize: Vector3(2.0, 1.3, 3.5), interior: true),
                        appearance: texture(1, RGB(0.7, 0.65, 0.6), featureSize: 0.03)),
            SceneObject(name: "ball", shape: .sphere(center: Vector3(0.45, 0.25, 2.2), radius: 0.35),
                        appearance: texture(2, RGB(0.8, 0.3, 0.2), featureSize: 0.01)),
            SceneObject(name: "crate", shape: .box(center: Vector3(-0.35, 0.3, 0.9), halfSize: Vector3(0.15, 0.2, 0.3), interior: false),
                        appearance: texture(3, RGB(0.3, 0.5, 0.8), featureSize: 0.005)),
            SceneObject(name: "poster", shape: .rectangle(center: Vector3(-0.5, -0.3, 5.99), normal: Vector3(0, 0, -1),
                                                          uAxis: Vector3(1, 0, 0), halfWidth: 0.6, halfHeight: 0.4),
                        appearance: .flat(RGB(0.95, 0.9, 0.2))),
        ])
    }
}
