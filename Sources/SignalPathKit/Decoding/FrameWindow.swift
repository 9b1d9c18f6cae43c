/// A window of consecutive interleaved frames from an `AudioReader`, moved along a file by
/// `load(_:)`: frames shared with the previous window are kept, not read again, and the reader
/// moves forwards without seeking where it can (so windows serve streams too).
///
/// Its samples live in a `SampleScratch`, taken again only when a window is larger than any before
/// it. The kept frames are moved to its front: sliding the window along a larger scratch took more
/// CPU, as the one small window stays in cache and eight do not (docs/DECISIONS.md#frame-window).
final class FrameWindow {
    let reader: AudioReader
    let channels: Int
    private var storage: SampleScratch
    private(set) var start: Int64 = -1
    private(set) var filled = 0

    init(reader: AudioReader, capacity: Int = 0) {
        self.reader = reader
        channels = reader.format.channels
        storage = SampleScratch(count: capacity * channels)
    }

    /// Interleaved samples of frames `start..<start + filled` at the front; valid while the window
    /// lives and until the next `load`.
    var samples: UnsafeBufferPointer<Float> { UnsafeBufferPointer(storage.samples) }

    /// Loads `frames`; returns how many of them the file holds (fewer when it ends first).
    @discardableResult
    func load(_ frames: Range<Int64>) throws(SignalPathError) -> Int {
        let length = frames.count
        if frames.lowerBound == start && filled >= length { return length }
        if storage.samples.count < length * channels {
            let larger = SampleScratch(count: length * channels)
            larger.samples.baseAddress!.update(from: storage.samples.baseAddress!, count: filled * channels)
            storage = larger
        }
        let end = start + Int64(filled)
        // Everything held from the new start on is kept, even past the new end: the reader stands
        // at `end`, and a window that kept less would append the next frames read after a gap
        // (a shorter load followed by an overlapping one gave frames from the wrong place).
        let kept = frames.lowerBound > start && frames.lowerBound < end ? Int(end - frames.lowerBound) : 0
        if kept > 0 {
            // Keep the overlap: move it to the front and read only what follows.
            let shift = Int(frames.lowerBound - start) * channels
            let base = storage.samples.baseAddress!
            base.update(from: base + shift, count: kept * channels)
        } else if reader.position != frames.lowerBound {
            try reader.seek(toFrame: frames.lowerBound)
        }
        start = frames.lowerBound
        filled = kept
        while filled < length {
            let count = try reader.read(into: UnsafeMutableBufferPointer(rebasing: storage.samples[(filled * channels)...]), frames: length - filled)
            if count == 0 { break }
            filled += count
        }
        return min(filled, length)
    }
}
