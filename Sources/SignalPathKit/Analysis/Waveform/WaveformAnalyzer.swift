/// Computes a `WaveformEnvelope` in one pass with memory that does not grow with the file: the range is
/// cut into chunks of a fixed number of frames (independent of the number of workers), workers
/// summarise the columns each chunk touches, and `InOrderMerger` adds the parts in chunk order —
/// so the result is identical for any number of workers.
public struct WaveformAnalyzer: Sendable {
    public static let schema = "signalpath.waveform/1"

    public let file: AudioFile
    public let frames: Range<Int64>
    /// Per result channel, the file channel it shows, or nil for the mix (the mean of all).
    let sources: [Int?]
    public let channelNames: [String]
    public let columns: Int
    /// Clipping as analyze counts it: samples in runs of at least this many full-scale samples.
    public let minimumClipRun: Int
    let chunkFrames: Int

    /// Samples per chunk (~2 MB of Float), as `SignalAnalyzer`'s chunks.
    static let chunkSamples = 1 << 19

    /// `columns` is clamped to the frames of the range (a column holds at least one frame).
    /// - Throws: `invalidRequest` for a channel the file lacks, an empty range, or a stream whose
    ///   length its header does not give (columns are exact frame ranges, so the length comes first).
    public init(
        file: AudioFile, frames: Range<Int64>, channels: ChannelSelection, columns: Int, minimumClipRun: Int = AnalysisSettings().minimumClipRun
    ) throws(SignalPathError) {
        guard frames.upperBound != Int64.max else {
            throw .invalidRequest(path: file.path, reason: "a waveform's columns need the length of the input, which this stream does not give; save it to a file first")
        }
        guard !frames.isEmpty else { throw .invalidRequest(path: file.path, reason: "the range holds no frames") }
        self.file = file
        self.frames = frames
        let layout = file.format.channelLayout
        sources = try channels.sourceChannels(in: layout, path: file.path)
        channelNames = channels.names(in: layout)
        self.columns = Int(min(Int64(max(1, columns)), Int64(frames.count)))
        self.minimumClipRun = max(1, minimumClipRun)
        chunkFrames = max(1, Self.chunkSamples / file.format.channels)
    }

    var chunkCount: Int { Int((Int64(frames.count) + Int64(chunkFrames) - 1) / Int64(chunkFrames)) }

    /// Runs the pass on up to `workers` tasks (one for a stream); `progress` hears the fraction done.
    public func run(workers: Int = 2, progress: (@Sendable (Double) -> Void)? = nil) async throws(SignalPathError) -> WaveformEnvelope {
        var waveform = WaveformEnvelope(
            path: file.path, sampleRate: file.format.sampleRate, frames: frames, channelNames: channelNames,
            fullScale: file.format.sampleFormat.fullScale, columns: columns)
        waveform.stream = file.namedStream
        let count = chunkCount
        var merger = InOrderMerger<WaveformChunk>()
        var merged = 0
        var ended: Int64?
        func add(_ chunk: WaveformChunk) {
            merger.add(chunk, index: chunk.index) { ready in
                waveform.merge(ready)
                merged += 1
                if ended == nil { ended = ready.endOfInput }
            }
            progress?(Double(merged) / Double(count))
        }
        if file.isSeekable {
            var pool: [WaveformWorker] = []
            for _ in 0..<max(1, min(workers, count)) { pool.append(try WaveformWorker(analyzer: self)) }
            try await runChunks(count, on: pool, path: file.path, receive: add)
        } else {
            let worker = try WaveformWorker(analyzer: self)
            for chunk in 0..<count { add(try worker.process(chunk: chunk)) }
        }
        if let ended {
            throw .malformed(path: file.path, reason: "the file ended at frame \(frames.lowerBound + ended), before the \(frames.upperBound) its header promises")
        }
        return waveform
    }
}

/// A worker's reader and frame window for `WaveformAnalyzer`, reused from chunk to chunk.
///
/// Unchecked Sendable: a worker is handed to exactly one child task at a time and handed back with
/// its result; the task group's hand-off orders the accesses.
final class WaveformWorker: ChunkWorking, @unchecked Sendable {
    private let analyzer: WaveformAnalyzer
    private let window: FrameWindow
    private let fullScale: Float

    init(analyzer: WaveformAnalyzer) throws(SignalPathError) {
        self.analyzer = analyzer
        let reader = try analyzer.file.makeReader()
        reader.limitReadAhead(toFrame: analyzer.frames.upperBound)
        window = FrameWindow(reader: reader, capacity: analyzer.chunkFrames + 2 * (analyzer.minimumClipRun - 1))
        fullScale = analyzer.file.format.sampleFormat.fullScale
    }

    /// The frames a chunk reads: its own, and the clip run's reach less one on each side within
    /// the range, so that a run crossing a chunk's edge is judged whole.
    private func loadedFrames(_ chunk: Int) -> Range<Int64> {
        let own = chunkFrames(chunk), reach = Int64(analyzer.minimumClipRun - 1)
        return max(0, own.lowerBound - reach)..<min(Int64(analyzer.frames.count), own.upperBound + reach)
    }

    /// The chunk's frames, relative to the range.
    private func chunkFrames(_ chunk: Int) -> Range<Int64> {
        let lower = Int64(chunk) * Int64(analyzer.chunkFrames)
        return lower..<min(lower + Int64(analyzer.chunkFrames), Int64(analyzer.frames.count))
    }

    func load(chunk: Int) async throws(SignalPathError) {
        let frames = loadedFrames(chunk)
        let start = analyzer.frames.lowerBound
        if let source = analyzer.file.source, let bytes = analyzer.file.byteRange(ofFrames: start + frames.lowerBound..<start + frames.upperBound) {
            try await source.load(bytes)
        }
    }

    /// The column holding relative frame `frame`.
    private func column(of frame: Int64) -> Int {
        let columns = analyzer.columns, total = Int64(analyzer.frames.count)
        var column = Int(WaveformEnvelope.dividedFloor(frame, times: Int64(columns), by: total))
        while column + 1 < columns && WaveformEnvelope.columnStart(column + 1, columns: columns, frames: total) <= frame { column += 1 }
        while column > 0 && WaveformEnvelope.columnStart(column, columns: columns, frames: total) > frame { column -= 1 }
        return column
    }

    func process(chunk: Int) throws(SignalPathError) -> WaveformChunk {
        let frames = chunkFrames(chunk), loaded = loadedFrames(chunk)
        let start = analyzer.frames.lowerBound
        let got = try window.load(start + loaded.lowerBound..<start + loaded.upperBound)
        let available = loaded.lowerBound + Int64(got)
        let present = frames.lowerBound..<max(frames.lowerBound, min(frames.upperBound, available))
        let firstColumn = column(of: frames.lowerBound)
        let lastColumn = present.isEmpty ? firstColumn : column(of: present.upperBound - 1)
        let outputs = analyzer.sources.count
        let count = (lastColumn - firstColumn + 1) * outputs
        var result = WaveformChunk(
            index: chunk, firstColumn: firstColumn, minimum: [Float](repeating: .infinity, count: count),
            maximum: [Float](repeating: -.infinity, count: count), sumOfSquares: [Double](repeating: 0, count: count),
            clipped: [Int64](repeating: 0, count: count), endOfInput: available < frames.upperBound ? present.upperBound : nil)
        let channels = window.channels
        let total = Int64(analyzer.frames.count), columns = analyzer.columns
        let samples = window.samples
        let offset = Int(frames.lowerBound - loaded.lowerBound)
        let clipped = clippedFrames(samples, frames: Int(available - loaded.lowerBound), channels: channels)
        for column in firstColumn...lastColumn {
            let columnFrames =
                max(
                    present.lowerBound, WaveformEnvelope.columnStart(column, columns: columns, frames: total))..<min(
                    present.upperBound, WaveformEnvelope.columnStart(column + 1, columns: columns, frames: total))
            guard !columnFrames.isEmpty else { continue }
            let first = Int(columnFrames.lowerBound - frames.lowerBound) + offset, last = Int(columnFrames.upperBound - frames.lowerBound) + offset
            for (output, source) in analyzer.sources.enumerated() {
                var low = Float.infinity, high = -Float.infinity, squares = 0.0, clips: Int64 = 0
                for frame in first..<last {
                    var value: Float
                    if let source {
                        value = samples[frame * channels + source]
                        if clipped[frame * channels + source] { clips += 1 }
                    } else {
                        // The mix: the mean of the channels; its frame is clipped when any channel is.
                        value = 0
                        var clippedHere = false
                        for channel in 0..<channels {
                            value += samples[frame * channels + channel]
                            clippedHere = clippedHere || clipped[frame * channels + channel]
                        }
                        value /= Float(channels)
                        if clippedHere { clips += 1 }
                    }
                    // NaN and infinity (float files) count as 0, as in analyze.
                    if !value.isFinite { value = 0 }
                    low = min(low, value)
                    high = max(high, value)
                    squares += Double(value) * Double(value)
                }
                let index = (column - firstColumn) * outputs + output
                result.minimum[index] = low
                result.maximum[index] = high
                result.sumOfSquares[index] = squares
                result.clipped[index] = clips
            }
        }
        return result
    }

    /// Per loaded sample, whether it is clipped by analyze's rule: in a run of at least
    /// `minimumClipRun` samples of one channel at full scale.
    private func clippedFrames(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int) -> [Bool] {
        var clipped = [Bool](repeating: false, count: frames * channels)
        let run = analyzer.minimumClipRun, fullScale = self.fullScale
        for channel in 0..<channels {
            var start = 0
            for frame in 0...frames {
                let value = frame < frames ? samples[frame * channels + channel] : 0
                let full = value.isFinite && abs(value) >= fullScale
                if full { continue }
                if frame - start >= run {
                    for member in start..<frame { clipped[member * channels + channel] = true }
                }
                start = frame + 1
            }
        }
        return clipped
    }
}
