import SignalPathAVX2

/// 16-bit PCM from where it lies into one row of Floats per channel (`analyze`'s and `events`' workers).
extension PCMDecoder {
    /// Converts whole interleaved 16-bit frames (host byte order) into rows from `rows` on (row c
    /// at `rows + c · rowLength`), each sample x · 2^-15 as `PCMDecoder` converts it; stereo eight
    /// frames at a time (`StereoInt16`, built for AVX2 where the processor has it).
    static func deinterleave(
        int16 piece: UnsafeRawBufferPointer, channels: Int, into rows: UnsafeMutablePointer<Float>, rowLength: Int,
        wide: Bool = ProcessorFeatures.hasX86_64_v3
    ) {
        let frames = piece.count / (2 * channels)
        guard frames > 0, let source = piece.baseAddress else { return }
        var frame = 0
        if channels == 2 {
            let left = rows, right = rows + rowLength, leftIsLow = 1.littleEndian == 1
            frame =
                wide
                ? StereoAVX2.deinterleave(int16: source, count: frames, leftIsLow: leftIsLow, left: left, right: right)
                : StereoInt16.deinterleave(int16: source, count: frames, leftIsLow: leftIsLow, left: left, right: right)
        }
        for channel in 0..<channels {
            let row = rows + channel &* rowLength
            for index in frame..<frames {
                row[index] = Float(source.loadUnaligned(fromByteOffset: (index &* channels &+ channel) &* 2, as: Int16.self)) * 0x1p-15
            }
        }
    }
}
