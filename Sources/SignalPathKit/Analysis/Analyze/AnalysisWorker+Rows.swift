/// Steps 1 and 2 of `AnalysisWorker`: the loaded frames into one row per channel, and non-finite
/// samples cleaned out of them.
extension AnalysisWorker {
    /// Steps 1 and 2 at once for 16-bit PCM: the chunk's samples go from where they lie in the
    /// file's cache straight into the rows, converted as `PCMDecoder` converts them (x · 2^-15),
    /// without the window's interleaved Float copy (docs/DECISIONS.md#pcm16-in-place); nil where
    /// the file does not hold the frames (then `loadWindow` decodes them, and reports a cut file).
    func loadInPlace(_ chunk: Int, _ reader: AudioReader) throws(SignalPathError) -> ChunkFrames? {
        guard let fileFrames = analyzer.file.format.frames else { return nil }
        let wanted = Self.loadedFrames(chunk, analyzer)
        let first = analyzer.frames.lowerBound + wanted.lowerBound
        let got = Int(max(0, min(Int64(wanted.count), fileFrames - first)))
        guard got + 2 * padding <= rowLength else { return nil }
        zeroPadding(got: got)
        let rows = planar.baseAddress! + padding, channels = self.channels, rowLength = self.rowLength
        let placed = reader.forEachInt16Piece(first..<first + Int64(got)) { piece, firstFrame in
            PCMDecoder.deinterleave(int16: piece, channels: channels, into: rows + firstFrame, rowLength: rowLength)
        }
        guard placed else { return nil }
        let load = try FrameWindow.ChunkLoad(
            got: got, of: wanted, rangeStart: analyzer.frames.lowerBound, knownLength: analyzer.knownLength, path: analyzer.file.path)
        return chunkFrames(chunk, load)
    }

    /// Zeroes each row's padding before the loaded frames and after the `got` of them.
    func zeroPadding(got: Int) {
        let base = planar.baseAddress!
        for channel in 0..<channels {
            let row = base + channel * rowLength
            for index in 0..<padding { row[index] = 0 }
            for index in padding + got..<min(rowLength, got + 2 * padding) { row[index] = 0 }
        }
    }

    /// Step 2: copies the loaded frames into the channels' rows (after their front padding) and
    /// zeroes the padding around them. Stereo goes eight samples at a time.
    func deinterleave(_ frames: ChunkFrames, _ interleaved: UnsafeBufferPointer<Float>) {
        let padding = self.padding, got = frames.got, channels = self.channels, rowLength = self.rowLength
        let base = planar.baseAddress!
        zeroPadding(got: got)
        do {
            var frame = 0
            if channels == 2 {
                let left = base + padding, right = base + rowLength + padding
                let source = UnsafeRawPointer(interleaved.baseAddress!)
                while frame &+ 4 <= got {
                    let pairs = source.loadUnaligned(fromByteOffset: frame &* 8, as: SIMD8<Float>.self)
                    UnsafeMutableRawPointer(left + frame).storeBytes(of: pairs.evenHalf, as: SIMD4<Float>.self)
                    UnsafeMutableRawPointer(right + frame).storeBytes(of: pairs.oddHalf, as: SIMD4<Float>.self)
                    frame &+= 4
                }
            }
            for channel in 0..<channels {
                let row = base + channel * rowLength + padding
                for index in frame..<got { row[index] = interleaved[index &* channels &+ channel] }
            }
        }
    }

    /// Step 2, continued: NaN and ±∞ (float files) become 0, or they would poison the filters and
    /// FFTs; returns how many of them lay in the chunk's own frames.
    func zeroNonFinite(_ channel: Int, _ frames: ChunkFrames) -> Int64 {
        guard !integerSamples else { return 0 }
        let row = row(channel)
        let range = padding..<padding + frames.got
        let counting = frames.offset(frames.present.lowerBound)..<frames.offset(frames.present.upperBound)
        var count: Int64 = 0
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + 256, range.upperBound)
            if !LevelStatistics.allFinite(UnsafeBufferPointer(rebasing: row[start..<end])) {
                for index in start..<end where !row[index].isFinite {
                    row[index] = 0
                    if counting.contains(index) { count += 1 }
                }
            }
            start = end
        }
        return count
    }
}
