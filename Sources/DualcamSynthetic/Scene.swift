import DualcamGeometry

// The scene model of the synthetic renderer. Coordinates are in metres in the
// *world* frame, which is the rig's reference camera frame (the wide camera
// for dualcam's rigs): x right, y down, z forward (OpenCV's camera axes).

/// An RGB colour with components in [0, 1], display-encoded: as it looks
/// on screen (like an sRGB value), not linear light. Camera conditions decode
/// it with gamma 2.2 (`PhotometricModel.renderEncodingGamma`).
public struct RGB: Equatable, Hashable, Sendable {
    public var r: Double
    public var g: Double
    public var b: Double
    public init(_ r: Double, _ g: Double, _ b: Double) { self.r = r; self.g = g; self.b = b }
    public static let black = RGB(0, 0, 0)
    public static let white = RGB(1, 1, 1)
    public static func grey(_ v: Double) -> RGB { RGB(v, v, v) }
    public static func + (a: RGB, b: RGB) -> RGB { RGB(a.r + b.r, a.g + b.g, a.b + b.b) }
    public static func * (a: RGB, s: Double) -> RGB { RGB(a.r * s, a.g * s, a.b * s) }
    public static func * (a: RGB, b: RGB) -> RGB { RGB(a.r * b.r, a.g * b.g, a.b * b.b) }
}

/// The geometry of a scene object.
public enum Shape: Equatable, Sendable {
    /// A rectangle centred at `center` with unit `normal`, in-plane unit axis
    /// `uAxis` (orthogonal to the normal) and v = normal x u; it spans
    /// [-halfWidth, halfWidth] along u and [-halfHeight, halfHeight] along v.
    /// Infinite half extents make an unbounded plane. Visible from both sides.
    case rectangle(center: Vector3, normal: Vector3, uAxis: Vector3, halfWidth: Double, halfHeight: Double)
    /// An axis-aligned box. `interior` boxes are seen from inside (a room's
    /// walls, floor and ceiling); others from outside.
    case box(center: Vector3, halfSize: Vector3, interior: Bool)
    /// A sphere seen from outside.
    case sphere(center: Vector3, radius: Double)
}

/// What a surface looks like. Every appearance is a function of the surface
/// point (world-anchored surface coordinates), never of the camera, so all
/// cameras see the same surface.
public enum Appearance: Equatable, Sendable {
    /// Rich procedural texture for stereo matching: multi-scale value noise
    /// plus hard-edged patches.
    case textured(ProceduralTexture)
    /// A flat colour: an untextured region (stereo matching cannot work there).
    case flat(RGB)
    /// A greyscale bitmap (e.g. a calibration board) stretched over a
    /// rectangle: the bitmap's x axis along u, y axis along v, covering
    /// [-halfWidth, halfWidth] x [-halfHeight, halfHeight]; sampled with
    /// nearest-neighbour lookups (the renderer's supersampling anti-aliases edges).
    case bitmap(Bitmap)
    /// A periodic pattern: tiles, stripes, a chessboard (`RepetitiveTexture`).
    case repetitive(RepetitiveTexture)
    /// A painted wall: flat colour, very low-amplitude large-scale shading
    /// only (`PaintedSurface`), so textureless for matching.
    case painted(PaintedSurface)
}

/// Parameters of the procedural texture.
public struct ProceduralTexture: Equatable, Hashable, Sendable {
    /// Decorrelates objects: two objects with different seeds look different.
    public var seed: UInt64
    /// Mean colour.
    public var baseColor: RGB
    /// Finest feature size in metres (the smallest noise octave's wavelength).
    public var featureSize: Double
    /// Noise amplitude relative to the base colour, in [0, 1].
    public var contrast: Double
    /// Fraction of the surface covered by hard-edged patches, in [0, 1].
    public var edgeDensity: Double

    public init(seed: UInt64, baseColor: RGB, featureSize: Double = 0.01, contrast: Double = 0.6,
                edgeDensity: Double = 0.25) {
        self.seed = seed
        self.baseColor = baseColor
        self.featureSize = featureSize
        self.contrast = contrast
        self.edgeDensity = edgeDensity
    }
}

/// An 8-bit greyscale bitmap, row-major, row 0 at the top.
public struct Bitmap: Equatable, Hashable, Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "bitmap size does not match its pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// One object: a shape with an appearance.
public struct SceneObject: Equatable, Sendable {
    public var name: String
    public var shape: Shape
    public var appearance: Appearance

    public init(name: String, shape: Shape, appearance: Appearance) {
        self.name = name
        self.shape = shape
        self.appearance = appearance
    }
}

/// A scene: objects in world coordinates (metres, the reference camera's frame).
public struct Scene: Equatable, Sendable {
    public var name: String
    public var objects: [SceneObject]
    /// Colour of rays that hit nothing (their ground-truth depth is NaN).
    public var background: RGB

    public init(name: String, objects: [SceneObject], background: RGB = .black) {
        self.name = name
        self.objects = objects
        self.background = background
    }
}
