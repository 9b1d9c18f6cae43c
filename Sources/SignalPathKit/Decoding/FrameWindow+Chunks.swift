extension FrameWindow {
    /// What one chunk of a chunked pass found when it loaded its frames.
    struct ChunkLoad {
        /// Frames the window holds from the start of `wanted`.
        var got: Int
        /// The end of the frames held inside the range (relative to it).
        var available: Int64
        /// Where the input ends, when this load reached it (relative to the range).
        var endOfInput: Int64?
    }

    /// Loads `wanted` (relative to a range that starts at `rangeStart` and is `knownLength` frames
    /// long, nil for a stream). A file that ends before its header promised is malformed; a stream
    /// has simply ended. Frames wanted past the range's end (a look-ahead) may be missing.
    func loadChunk(_ wanted: Range<Int64>, rangeStart: Int64, knownLength: Int64?, path: String) throws(SignalPathError) -> ChunkLoad {
        let got = try load(rangeStart + wanted.lowerBound..<rangeStart + wanted.upperBound)
        return try ChunkLoad(got: got, of: wanted, rangeStart: rangeStart, knownLength: knownLength, path: path)
    }
}

extension FrameWindow.ChunkLoad {
    /// What a load of `wanted` that found `got` frames means (see `FrameWindow.loadChunk`).
    init(got: Int, of wanted: Range<Int64>, rangeStart: Int64, knownLength: Int64?, path: String) throws(SignalPathError) {
        let inRange = wanted.lowerBound..<max(wanted.lowerBound, min(wanted.upperBound, knownLength ?? Int64.max))
        let available = wanted.lowerBound + Int64(min(got, inRange.count))
        var endOfInput: Int64? = nil
        if available < inRange.upperBound {
            if knownLength != nil {
                throw .malformed(
                    path: path, reason: "the file ended at frame \(rangeStart + available), before the \(rangeStart + inRange.upperBound) its header promises")
            }
            endOfInput = available
        } else if let length = knownLength, inRange.upperBound == length {
            endOfInput = length
        }
        self.init(got: got, available: available, endOfInput: endOfInput)
    }
}
