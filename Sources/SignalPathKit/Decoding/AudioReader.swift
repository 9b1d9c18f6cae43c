/// Decodes one `AudioFile` into interleaved Float frames, with its own position.
///
/// Made by `AudioFile.makeReader()`; one reader serves one thread at a time (it is not Sendable).
/// Samples are normalised so that full scale is ±1.0 (integer codes over 2^(bits−1)).
public final class AudioReader {
    public let file: AudioFile
    /// The frame the next `read` starts at.
    public private(set) var position: Int64 = 0
    private let decoder: FrameDecoder
    /// The decoder, when it is `PCMDecoder` over a file (not a stream) and so can hand out samples
    /// where they lie.
    private let inPlace: PCMDecoder?
    /// The decoder, when it is `PCMDecoder` over a stream, which hands out samples as they arrive.
    private let streamed: PCMDecoder?

    init(file: AudioFile, decoder: FrameDecoder) {
        self.file = file
        self.decoder = decoder
        inPlace = file.isSeekable ? decoder as? PCMDecoder : nil
        streamed = file.isSeekable ? nil : decoder as? PCMDecoder
    }

    public var format: AudioFormat { file.format }

    /// Moves to `frame` for the next read. Streams move forwards only (by decoding and discarding).
    public func seek(toFrame frame: Int64) throws(SignalPathError) {
        if let frames = format.frames, frame < 0 || frame > frames {
            throw SignalPathError.invalidRequest(
                path: file.path,
                reason: "frame \(frame) is outside the file's \(frames) frames")
        }
        if file.isSeekable {
            try decoder.seek(toFrame: frame)
            position = frame
            return
        }
        guard frame >= position else { throw SignalPathError.notSeekable(path: file.path) }
        var discard = [Float](repeating: 0, count: 4096 * format.channels)
        while position < frame {
            if try read(into: &discard, frames: Int(min(4096, frame - position))) == 0 { break }
        }
    }

    /// Decodes up to `frames` interleaved frames into `buffer` from sample index `offset` on (the
    /// buffer holds at least `offset + frames × channels` samples); returns how many were decoded,
    /// 0 at the end of the file.
    public func read(into buffer: inout [Float], at offset: Int = 0, frames: Int) throws(SignalPathError) -> Int {
        precondition(offset >= 0 && buffer.count >= offset + frames * format.channels)
        return try buffer.withUnsafeMutableBufferPointer { (buffer) throws(SignalPathError) in
            try read(into: UnsafeMutableBufferPointer(rebasing: buffer[offset...]), frames: frames)
        }
    }

    /// As `read(into:at:frames:)`, into the start of `buffer` (at least `frames × channels` samples).
    func read(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) throws(SignalPathError) -> Int {
        let count = try decoder.read(into: buffer, frames: frames)
        position += Int64(count)
        return count
    }

    /// True when the file's samples are 16-bit PCM in the host's byte order, read in place
    /// (`withInt16Frames`, `forEachInt16Piece`).
    var holdsHostInt16: Bool { inPlace?.holdsHostInt16 == true }

    /// Hands `body` the raw interleaved 16-bit samples of `frames` where they lie in memory in one
    /// piece; nil where they do not (see `PCMDecoder.withInt16Frames`): `read` them instead. The
    /// position does not move.
    func withInt16Frames<Result>(_ frames: Range<Int64>, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        inPlace?.withInt16Frames(frames, body) ?? nil
    }

    /// `PCMDecoder.forEachInt16Piece` for a seekable file; false otherwise.
    func forEachInt16Piece(_ frames: Range<Int64>, _ body: (UnsafeRawBufferPointer, Int) -> Void) -> Bool {
        inPlace?.forEachInt16Piece(frames, body) ?? false
    }

    /// True for a stream of 16-bit samples in the host's byte order (`forEachStreamedInt16Piece`).
    var streamsHostInt16: Bool { streamed?.holdsHostInt16 == true }

    /// Asks a stream to keep in memory the `frames` frames before the furthest one read, so that the next
    /// `forEachStreamedInt16Piece` may start that far back.
    func keepBehind(frames: Int) {
        streamed?.keepBehind(frames: frames)
    }

    /// `PCMDecoder.forEachStreamedInt16Piece` for a stream that `streamsHostInt16`.
    func forEachStreamedInt16Piece(_ frames: Range<Int64>, _ body: (UnsafeRawBufferPointer, Int) -> Void) throws(SignalPathError) -> Int {
        guard let streamed else { preconditionFailure("only a stream of 16-bit PCM hands out its samples as they arrive") }
        return try streamed.forEachStreamedInt16Piece(frames, body)
    }

    /// Asks the decoder not to read ahead past `frame` (where it can: uncompressed PCM), so that
    /// analysing a range reads only the bytes of the range.
    public func limitReadAhead(toFrame frame: Int64) {
        decoder.limitReadAhead(toFrame: frame)
    }

    /// The interleaved samples of `range` (fewer frames if the file ends first).
    public func readFrames(_ range: Range<Int64>) throws(SignalPathError) -> [Float] {
        try seek(toFrame: range.lowerBound)
        limitReadAhead(toFrame: range.upperBound)
        let channels = format.channels
        var samples: [Float] = []
        samples.reserveCapacity(range.count * channels)
        var block = [Float](repeating: 0, count: min(range.count, 65536) * channels)
        while samples.count < range.count * channels {
            let count = try read(into: &block, frames: min(65536, range.count - samples.count / channels))
            if count == 0 { break }
            samples.append(contentsOf: block[0..<count * channels])
        }
        return samples
    }
}
