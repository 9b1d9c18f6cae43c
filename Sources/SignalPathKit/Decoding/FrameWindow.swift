/// A window of consecutive interleaved frames from an `AudioReader`, moved along a file by
/// `load(_:)`: frames shared with the previous window are kept, not read again, and the reader
/// moves forwards without seeking where it can (so windows serve streams too).
///
/// Allocates only when a window is larger than any before it.
final class FrameWindow {
    let reader: AudioReader
    let channels: Int
    /// Interleaved samples of frames `start..<start + filled` at the front.
    private(set) var samples: [Float] = []
    private(set) var start: Int64 = -1
    private(set) var filled = 0

    init(reader: AudioReader, capacity: Int = 0) {
        self.reader = reader
        channels = reader.format.channels
        samples = [Float](repeating: 0, count: capacity * channels)
    }

    /// Loads `frames`; returns how many of them the file holds (fewer when it ends first).
    @discardableResult
    func load(_ frames: Range<Int64>) throws(SignalPathError) -> Int {
        let length = frames.count
        if frames.lowerBound == start && filled >= length { return length }
        if samples.count < length * channels {
            samples += [Float](repeating: 0, count: length * channels - samples.count)
        }
        let end = start + Int64(filled)
        let kept = frames.lowerBound > start && frames.lowerBound < end ? Int(min(end, frames.upperBound) - frames.lowerBound) : 0
        if kept > 0 {
            // Keep the overlap: move it to the front and read only what follows.
            let shift = Int(frames.lowerBound - start) * channels
            samples.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                base.update(from: base + shift, count: kept * channels)
            }
        } else if reader.position != frames.lowerBound {
            try reader.seek(toFrame: frames.lowerBound)
        }
        start = frames.lowerBound
        filled = kept
        while filled < length {
            let count = try reader.read(into: &samples, at: filled * channels, frames: length - filled)
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
