import CZLib

/// zlib's deflate and CRC-32, for the PNG files signalpath writes itself (`PNGEncoder`): the only
/// Swift file that talks to zlib, and no zlib pointer leaves it.
///
/// libz is not linked but opened with `dlopen` when the first PNG is written: nothing else needs
/// it, and by then Cairo (whose own PNG code links it) has loaded it, so opening it costs one
/// lookup. Linked, it would be one more shared object at every start of every command.
public enum Deflate {
    /// `bytes` as one zlib stream (RFC 1950), compressed at `level` (1 fastest … 9 smallest).
    public static func compress(_ bytes: [UInt8], level: Int32) throws(SignalPathError) -> [UInt8] {
        let zlib = try ZLib.library()
        var stream = z_stream()
        let initialised = ZLIB_VERSION.withCString { version in
            zlib.deflateInit2(&stream, level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, version, Int32(MemoryLayout<z_stream>.size))
        }
        guard initialised == Z_OK else { throw .unavailable(path: "PNG", reason: "zlib refused its settings (status \(initialised))") }
        defer { _ = zlib.deflateEnd(&stream) }
        // One call with all the input and room for the worst case: no loop, one allocation, of
        // which only the pages written are touched (no fill first).
        let bound = Int(zlib.deflateBound(&stream, UInt(bytes.count)))
        var status = Z_OK
        let output = [UInt8](unsafeUninitializedCapacity: bound) { target, count in
            status = bytes.withUnsafeBufferPointer { source in
                // zlib's next_in is not const (z_const is empty by default) but deflate only reads it.
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return zlib.deflate(&stream, Z_FINISH)
            }
            count = status == Z_STREAM_END ? bound - Int(stream.avail_out) : 0
        }
        guard status == Z_STREAM_END else { throw .unavailable(path: "PNG", reason: "zlib could not compress the image (status \(status))") }
        return output
    }

    /// The CRC-32 (ISO 3309, as PNG's chunks use) of `bytes`.
    public static func crc32(_ bytes: ArraySlice<UInt8>) throws(SignalPathError) -> UInt32 {
        let zlib = try ZLib.library()
        return bytes.withUnsafeBufferPointer { UInt32(zlib.crc32(0, $0.baseAddress, UInt32($0.count))) }
    }
}

/// libz's functions, looked up once with `dlsym` after one `dlopen`.
private struct ZLib: LazyLibrary, @unchecked Sendable {
    // @unchecked: C function pointers, immutable after loading, callable from any thread (each
    // call above has its own z_stream).
    let deflateInit2: sp_deflateInit2__fn
    let deflate: sp_deflate_fn
    let deflateEnd: sp_deflateEnd_fn
    let deflateBound: sp_deflateBound_fn
    let crc32: sp_crc32_fn

    static let libraryName = "libz.so.1"

    static let loaded = load()
    static let need = "PNG files need zlib (Debian: apt-get install zlib1g)"

    init(_ library: SharedLibrary) throws(SignalPathError) {
        deflateInit2 = try library.function("deflateInit2_", sp_deflateInit2__fn.self)
        deflate = try library.function("deflate", sp_deflate_fn.self)
        deflateEnd = try library.function("deflateEnd", sp_deflateEnd_fn.self)
        deflateBound = try library.function("deflateBound", sp_deflateBound_fn.self)
        crc32 = try library.function("crc32", sp_crc32_fn.self)
    }
}
