import SignalPathAVX2

/// 16-bit PCM from where it lies into one row of Floats per channel (`analyze`'s and `events`' workers).
extension PCMDecoder {
    /// Converts whole interleaved 16-bit frames (host byte order) into rows from `rows` on (row c
    /// at `rows + c · rowLength`), each sample x · 2^-15 as `PCMDecoder` converts it; stereo four
    /// frames at a time (`PCMDecoder.channel(_:of:)`).
    static func deinterleave(
        int16 piece: UnsafeRawBufferPointer, channels: Int, into rows: UnsafeMutablePointer<Float>, rowLength: Int,
        wide: Bool = ProcessorFeatures.hasX86_64_v3
    ) {
        let frames = piece.count / (2 * channels)
        guard frames > 0, let source = piece.baseAddress else { return }
        var frame = 0
        if channels == 2 {
            let left = rows, right = rows + rowLength
            if wide { frame = StereoAVX2.deinterleave(int16: source, count: frames, leftIsLow: 1.littleEndian == 1, left: left, right: right) }
            while frame &+ 4 <= frames {
                let pairs = source.loadUnaligned(fromByteOffset: frame &* 4, as: SIMD4<Int32>.self)
                UnsafeMutableRawPointer(left + frame).storeBytes(of: PCMDecoder.channel(true, of: pairs) * 0x1p-15, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(right + frame).storeBytes(of: PCMDecoder.channel(false, of: pairs) * 0x1p-15, as: SIMD4<Float>.self)
                frame &+= 4
            }
        }
        for channel in 0..<channels {
            let row = rows + channel &* rowLength
            for index in frame..<frames {
                row[index] = Float(source.loadUnaligned(fromByteOffset: (index &* channels &+ channel) &* 2, as: Int16.self)) * 0x1p-15
            }
        }
    }
}
