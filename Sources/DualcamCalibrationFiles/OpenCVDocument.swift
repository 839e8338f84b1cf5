import DualcamOpenCV
import DualcamGeometry
import DualcamSupport
import Foundation

/// An OpenCV FileStorage file (YAML or XML, read through `CVFileStorage`)
/// with typed, validated accessors whose errors name the file and the key.
struct OpenCVDocument {
    let storage: CVFileStorage
    let path: String
    let keys: [String]

    init(url: URL) throws {
        storage = try CVFileStorage(path: url.path, mode: .read)
        path = url.path
        keys = try storage.keys()
    }

    func has(_ key: String) -> Bool { keys.contains(key) }

    func error(_ key: String, _ reason: String) -> DualcamError {
        .format(path: path, reason: "\(key): \(reason)")
    }

    private func requireKey(_ key: String, _ what: String) throws {
        guard has(key) else { throw DualcamError.format(path: path, reason: "missing key '\(key)' (\(what))") }
    }

    /// A matrix with all entries finite.
    func matrix(_ key: String, _ what: String) throws -> CVFileStorage.Matrix {
        try requireKey(key, what)
        let m = try storage.readMatrix(key)
        guard m.values.allSatisfy(\.isFinite) else {
            throw error(key, "has non-finite entries (NaN or infinity), expected \(what)")
        }
        return m
    }

    /// A 3x3 camera matrix [fx s cx; 0 fy cy; 0 0 1] for images of `size`.
    func intrinsics(_ key: String, size: PixelSize) throws -> Intrinsics {
        let m = try matrix(key, "a 3x3 camera matrix")
        guard m.rows == 3, m.cols == 3 else { throw error(key, "expected a 3x3 camera matrix, got \(m.rows)x\(m.cols)") }
        do { return try Intrinsics(matrix: Matrix3(rowMajor: m.values)!, referenceSize: size) } catch {
            throw self.error(key, "\(error)")
        }
    }

    /// A distortion vector (1xN or Nx1, N = 4, 5, 8, 12 or 14) as Brown-Conrady.
    func distortion(_ key: String) throws -> LensDistortion {
        let m = try matrix(key, "distortion coefficients k1 k2 p1 p2 [k3 [k4 k5 k6]]")
        guard m.rows == 1 || m.cols == 1 else {
            throw error(key, "expected a 1xN or Nx1 distortion vector, got \(m.rows)x\(m.cols)")
        }
        do { return .brownConrady(try BrownConrady(coefficients: m.values)) } catch {
            throw self.error(key, "\(error)")
        }
    }

    /// A 3x3 rotation matrix, or a 3-element Rodrigues vector (radians).
    func rotation(_ key: String) throws -> Rotation {
        let m = try matrix(key, "a 3x3 rotation matrix")
        if m.values.count == 3, m.rows == 1 || m.cols == 1 {
            return Rotation(rotationVector: Vector3(m.values[0], m.values[1], m.values[2]))
        }
        guard m.rows == 3, m.cols == 3 else { throw error(key, "expected a 3x3 rotation matrix, got \(m.rows)x\(m.cols)") }
        do { return try Rotation(Matrix3(rowMajor: m.values)!) } catch { throw self.error(key, "\(error)") }
    }

    /// A 3-vector (3x1 or 1x3).
    func vector3(_ key: String) throws -> Vector3 {
        let m = try matrix(key, "a 3x1 translation")
        guard m.values.count == 3, m.rows == 1 || m.cols == 1 else {
            throw error(key, "expected a 3x1 translation, got \(m.rows)x\(m.cols)")
        }
        return Vector3(m.values[0], m.values[1], m.values[2])
    }

    func positiveInt(_ key: String) throws -> Int {
        try requireKey(key, "a positive integer")
        let v = try storage.readInt(key)
        guard v > 0 else { throw error(key, "expected a positive integer, got \(v)") }
        return v
    }

    func finiteReal(_ key: String) throws -> Double {
        try requireKey(key, "a number")
        let v = try storage.readReal(key)
        guard v.isFinite else { throw error(key, "expected a finite number, got \(v)") }
        return v
    }

    func string(_ key: String) throws -> String {
        try requireKey(key, "a string")
        return try storage.readString(key)
    }

    func optionalString(_ key: String) throws -> String? { has(key) ? try string(key) : nil }
    func optionalReal(_ key: String) throws -> Double? { has(key) ? try finiteReal(key) : nil }

    /// `width_key` x `height_key` when both are present, nil when both are absent.
    func optionalSize(width: String, height: String) throws -> PixelSize? {
        switch (has(width), has(height)) {
        case (false, false): return nil
        case (true, true): return PixelSize(width: try positiveInt(width), height: try positiveInt(height))
        default: throw DualcamError.format(path: path, reason: "has '\(has(width) ? width : height)' but not '\(has(width) ? height : width)'")
        }
    }
}
