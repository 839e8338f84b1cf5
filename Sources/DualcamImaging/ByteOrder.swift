/// Byte order of multi-byte values in a file.
public enum ByteOrder: Sendable {
    case littleEndian, bigEndian

    /// The byte order of the machine running the code.
    public static var host: ByteOrder { 1.littleEndian == 1 ? .littleEndian : .bigEndian }

    /// Copies `source` (values of `elementSize` bytes in `self` order) into
    /// `destination` in host order, or the reverse: the operation is symmetric.
    func copy(_ source: UnsafeRawBufferPointer, to destination: UnsafeMutableRawBufferPointer, elementSize: Int) {
        precondition(source.count == destination.count && source.count % elementSize == 0)
        guard self != ByteOrder.host, elementSize > 1 else {
            destination.copyMemory(from: source)
            return
        }
        var offset = 0
        while offset < source.count {
            for k in 0..<elementSize {
                destination[offset + k] = source[offset + elementSize - 1 - k]
            }
            offset += elementSize
        }
    }
}
