/// Hands out overlapping segments of interleaved frames from an `AudioReader`, reading each frame
/// once however much segments overlap, and moving forwards without seeking where it can (so it
/// serves streams too).
final class SegmentSource {
    let reader: AudioReader
    let channels: Int
    let length: Int
    /// Interleaved samples of frames `start..<start + filled`.
    private(set) var samples: [Float]
    private var start: Int64 = -1
    private var filled = 0

    init(reader: AudioReader, length: Int) {
        self.reader = reader
        self.channels = reader.format.channels
        self.length = length
        samples = [Float](repeating: 0, count: length * channels)
    }

    /// Loads the `length` frames from `frame` on; returns false when the file ends before them.
    func load(from frame: Int64) throws(SignalPathError) -> Bool {
        if frame == start && filled == length { return true }
        let kept = frame > start && frame < start + Int64(filled) ? Int(start + Int64(filled) - frame) : 0
        if kept > 0 {
            // Keep the overlap: move it to the front and read only what follows.
            let shift = Int(frame - start) * channels
            samples.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                base.update(from: base + shift, count: kept * channels)
            }
        } else if reader.position != frame {
            try reader.seek(toFrame: frame)
        }
        start = frame
        filled = kept
        while filled < length {
            let count = try reader.read(into: &samples, at: filled * channels, frames: length - filled)
            if count == 0 { return false }
            filled += count
        }
        return true
    }
}
