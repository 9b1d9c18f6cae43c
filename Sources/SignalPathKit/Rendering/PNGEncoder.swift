/// A chart's pixels as a PNG file: 8-bit RGB, rows unfiltered, deflated by zlib at level 1
/// (`Deflate`).
///
/// Not Cairo's PNG writer: libpng's defaults (level 6, a filter tried per row) were a large part
/// of a batch of spectrograms. Level 1 unfiltered is several times faster for a somewhat larger
/// file; filters made it no faster and larger, run-length matching only slightly faster and
/// much larger (docs/DECISIONS.md#png-encoder).
public enum PNGEncoder {
    /// `raster` (`0xAARRGGBB`, alpha ignored) as the bytes of a PNG file.
    public static func encode(_ raster: ChartRaster) throws(SignalPathError) -> [UInt8] {
        let width = raster.width, height = raster.height
        let rowBytes = 1 + width * 3
        // Every byte is written below: no fill first (it cost a page fault per 4 kB written twice).
        let scanlines = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, count in
            raster.pixels.withUnsafeBufferPointer { pixels in
                for y in 0..<height {
                    let row = y * rowBytes
                    out[row] = 0  // filter type "none"
                    let here = y * width
                    for x in 0..<width {
                        let pixel = pixels[here + x]
                        let at = row + 1 + x * 3
                        out[at] = UInt8(truncatingIfNeeded: pixel >> 16)
                        out[at + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                        out[at + 2] = UInt8(truncatingIfNeeded: pixel)
                    }
                }
            }
            count = rowBytes * height
        }
        let compressed = try Deflate.compress(scanlines, level: 1)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file.reserveCapacity(compressed.count + 64)
        // IHDR: width, height, bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace.
        try chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0], into: &file)
        try chunk("IDAT", compressed, into: &file)
        try chunk("IEND", [], into: &file)
        return file
    }

    private static func chunk(_ type: String, _ data: [UInt8], into file: inout [UInt8]) throws(SignalPathError) {
        file += bigEndian(UInt32(data.count))
        let start = file.count
        file += Array(type.utf8)
        file += data
        file += bigEndian(try Deflate.crc32(file[start...]))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
