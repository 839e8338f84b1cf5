import DualcamGeometry
import DualcamSupport
import Foundation

/// 3-D points (metres) in a sensor's frame, read from PLY (ascii or
/// binary_little_endian; `vertex` element with float/double/int x, y, z) or
/// from CSV with the header `x,y,z`. Hand-written: the project has no PLY
/// reader and OpenCV's (viz module) is not part of its build.
public enum PointCloudReader {
    public static func read(_ url: URL) throws -> [Vector3] {
        let data = try FileContents.read(url)
        if url.pathExtension.lowercased() == "ply" { return try ply(data, path: url.path) }
        return try csv(String(decoding: data, as: UTF8.self), path: url.path)
    }

    static func csv(_ text: String, path: String) throws -> [Vector3] {
        var points: [Vector3] = []
        var sawHeader = false
        try NumericCSV.forEachLine(text) { line in
            if line.isBlank { return }
            guard sawHeader else {
                guard line.normalized == "x,y,z" else {
                    throw DualcamError.format(path: path, reason: "expected the CSV header x,y,z (points in metres in the sensor frame)")
                }
                sawHeader = true
                return
            }
            guard line.fieldCount == 3, let x = line.double(0), let y = line.double(1), let z = line.double(2) else {
                throw DualcamError.format(path: path, reason: "line \(line.number): expected 3 numbers x,y,z")
            }
            guard points.count < InputLimits.maxSamples else {
                throw DualcamError.format(path: path, reason: "more than \(InputLimits.maxSamples) points exceed the limit (InputLimits.maxSamples)")
            }
            points.append(Vector3(x, y, z))
        }
        guard sawHeader else {
            throw DualcamError.format(path: path, reason: "expected the CSV header x,y,z (points in metres in the sensor frame)")
        }
        return points
    }

    static func ply(_ data: Data, path: String) throws -> [Vector3] {
        let bytes = [UInt8](data)
        guard let end = find("end_header\n", in: bytes.prefix(maxHeaderBytes)) else {
            throw DualcamError.format(path: path, reason: "not a PLY file (no end_header line in the first \(maxHeaderBytes) bytes)")
        }
        let header = String(decoding: bytes[..<end], as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        guard header.first == "ply" else { throw DualcamError.format(path: path, reason: "not a PLY file (no 'ply' magic)") }
        var format = "", vertexCount = -1, inVertex = false, beforeVertex = true
        var properties: [(name: String, type: String)] = []
        for line in header.dropFirst() {
            let f = line.split(separator: " ").map(String.init)
            guard let key = f.first else { continue }
            if key == "format", f.count >= 2 { format = f[1] }
            if key == "element", f.count == 3 {
                if f[1] == "vertex" { vertexCount = Int(f[2]) ?? -1; inVertex = true } else {
                    if vertexCount < 0 { beforeVertex = false }
                    inVertex = false
                }
            }
            if key == "property", inVertex {
                guard f.count == 3 else { throw DualcamError.format(path: path, reason: "list properties in vertices are not supported") }
                properties.append((f[2], f[1]))
            }
        }
        guard beforeVertex, vertexCount >= 0 else {
            throw DualcamError.format(path: path, reason: "expected a 'vertex' element first in the PLY header")
        }
        let names = properties.map(\.name)
        guard let ix = names.firstIndex(of: "x"), let iy = names.firstIndex(of: "y"), let iz = names.firstIndex(of: "z") else {
            throw DualcamError.format(path: path, reason: "PLY vertices need x, y and z properties")
        }
        try InputLimits.checkCount(vertexCount, limit: InputLimits.maxSamples, limitName: "maxSamples",
                                   what: "PLY vertices", name: path)
        var points: [Vector3] = []
        let body = end + "end_header\n".utf8.count
        switch format {
        case "ascii":
            let lines = String(decoding: bytes[body...], as: UTF8.self).split(whereSeparator: \.isNewline)
            guard lines.count >= vertexCount else {
                throw DualcamError.format(path: path, reason: "PLY header promises \(vertexCount) vertices, found \(lines.count) lines")
            }
            points.reserveCapacity(vertexCount)
            for (i, line) in lines.prefix(vertexCount).enumerated() {
                let v = line.split(separator: " ").map { Double($0) }
                guard v.count >= properties.count, let x = v[ix], let y = v[iy], let z = v[iz] else {
                    throw DualcamError.format(path: path, reason: "PLY vertex \(i): expected \(properties.count) numbers separated by spaces")
                }
                points.append(Vector3(x, y, z))
            }
        case "binary_little_endian":
            let sizes = try properties.map { try size(of: $0.type, path: path) }
            let stride = sizes.reduce(0, +)
            guard bytes.count - body >= stride * vertexCount else {
                throw DualcamError.format(path: path, reason: "PLY data is shorter than \(vertexCount) vertices")
            }
            points.reserveCapacity(vertexCount)
            let offsets = sizes.indices.map { sizes[..<$0].reduce(0, +) }
            for i in 0..<vertexCount {
                let base = body + i * stride
                func value(_ k: Int) -> Double { decode(bytes, base + offsets[k], properties[k].type) }
                points.append(Vector3(value(ix), value(iy), value(iz)))
            }
        default:
            throw DualcamError.format(path: path, reason: "PLY format \(PrintableText.quoted(format)) is not supported (expected ascii or binary_little_endian)")
        }
        return points
    }

    private static func size(of type: String, path: String) throws -> Int {
        switch type {
        case "char", "uchar", "int8", "uint8": return 1
        case "short", "ushort", "int16", "uint16": return 2
        case "int", "uint", "float", "int32", "uint32", "float32": return 4
        case "double", "float64": return 8
        default: throw DualcamError.format(path: path, reason: "unknown PLY property type \(PrintableText.quoted(type))")
        }
    }

    private static func decode(_ b: [UInt8], _ at: Int, _ type: String) -> Double {
        func u(_ n: Int) -> UInt64 { (0..<n).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) } }
        switch type {
        case "char", "int8": return Double(Int8(bitPattern: UInt8(u(1))))
        case "uchar", "uint8": return Double(u(1))
        case "short", "int16": return Double(Int16(bitPattern: UInt16(u(2))))
        case "ushort", "uint16": return Double(u(2))
        case "int", "int32": return Double(Int32(bitPattern: UInt32(u(4))))
        case "uint", "uint32": return Double(u(4))
        case "float", "float32": return Double(Float(bitPattern: UInt32(u(4))))
        default: return Double(bitPattern: u(8))
        }
    }

    /// The longest PLY header searched for `end_header` (real headers are a few hundred bytes).
    static let maxHeaderBytes = 1 << 20

    private static func find(_ needle: String, in bytes: ArraySlice<UInt8>) -> Int? {
        let n = Array(needle.utf8)
        guard bytes.count >= n.count else { return nil }
        for i in bytes.startIndex...(bytes.endIndex - n.count) where bytes[i] == n[0] && bytes[i..<(i + n.count)].elementsEqual(n) {
            return i
        }
        return nil
    }
}
