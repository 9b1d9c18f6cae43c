/// Reads fixed-width integers from a byte array at given offsets, for parsing file headers.
/// Out-of-range reads return nil rather than trapping: headers come from untrusted files.
struct ByteView {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func uint16(at offset: Int, bigEndian: Bool = false) -> UInt16? {
        unsigned(at: offset, width: 2, bigEndian: bigEndian).map { UInt16($0) }
    }

    func uint32(at offset: Int, bigEndian: Bool = false) -> UInt32? {
        unsigned(at: offset, width: 4, bigEndian: bigEndian).map { UInt32($0) }
    }

    func uint64(at offset: Int, bigEndian: Bool = false) -> UInt64? {
        unsigned(at: offset, width: 8, bigEndian: bigEndian)
    }

    /// Four bytes as an ASCII tag ("RIFF", "fmt "), or nil.
    func tag(at offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    func slice(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, count >= 0, offset + count <= bytes.count else { return nil }
        return bytes[offset..<offset + count]
    }

    private func unsigned(at offset: Int, width: Int, bigEndian: Bool) -> UInt64? {
        guard offset >= 0, offset + width <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in 0..<width {
            let byte = UInt64(bytes[offset + (bigEndian ? index : width - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }
}
