/// Something that turns a file's bytes into interleaved Float frames, one consumer at a time.
protocol FrameDecoder: AnyObject {
    /// Moves to `frame` (0-based) for the next `read`.
    func seek(toFrame frame: Int64) throws(SignalPathError)
    /// Decodes up to `frames` interleaved frames into the start of `buffer` (which holds at least
    /// `frames × channels` samples); returns how many were decoded, 0 at the end.
    func read(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) throws(SignalPathError) -> Int
    /// Asks not to read ahead past `frame`: the caller needs nothing beyond it.
    func limitReadAhead(toFrame frame: Int64)
}

extension SndFile: FrameDecoder {
    /// Compressed data has no fixed byte position per frame, so libsndfile's reads keep their read-ahead.
    func limitReadAhead(toFrame frame: Int64) {}

    func seek(toFrame frame: Int64) throws(SignalPathError) {
        guard seek(toFrame: frame) as Bool else {
            throw SignalPathError.invalidRequest(path: path, reason: "cannot seek to frame \(frame)")
        }
    }
}

extension FFmpeg: FrameDecoder {
    /// Compressed data has no fixed byte position per frame: the cursor keeps its read-ahead.
    func limitReadAhead(toFrame frame: Int64) {}
}
