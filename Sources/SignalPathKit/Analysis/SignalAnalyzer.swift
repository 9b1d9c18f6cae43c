/// Everything `analyze` measures, in one pass over a frame range: levels, loudness, true peak and
/// the averaged spectrum, per channel.
///
/// The range is cut into chunks of a fixed number of frames (independent of the number of
/// workers). Workers analyse chunks in parallel, each on its own reader and scratch; results are
/// merged in chunk order. The K-weighting filter, which has memory, starts each chunk from rest
/// `settlingFrames` before it, long enough for its past to fade below a Double's precision; so the
/// result is the same with one worker or many, and matches a filter run over the whole file.
/// Memory is a few chunks' worth plus, per 100 ms of audio, 8 bytes for loudness gating and 8 per
/// channel for the noise floor (24 bytes for stereo: about 21 MB for 24 hours).
public struct SignalAnalyzer: Sendable {
    public let file: AudioFile
    /// The frames asked for; for a stream of unknown length the upper bound is `Int64.max`.
    public let frames: Range<Int64>
    public let settings: AnalysisSettings
    /// The spectrum parameters in use (the window shrinks to a range shorter than it).
    public let spectrum: SpectrumParameters
    let weighting: KWeighting
    /// False at rates outside `Loudness.measurableSampleRates`: loudness is then null.
    let measuresLoudness: Bool
    let channelWeights: [Double]
    /// Frames per chunk: a whole number of spectrum hops.
    let chunkFrames: Int
    /// Frames read before a chunk to settle the K-weighting filter.
    let settlingFrames: Int

    /// Frames of spectrum per chunk, aimed at ~2 MB of samples per chunk.
    static let chunkSamples = 1 << 19

    public init(file: AudioFile, frames: Range<Int64>, settings: AnalysisSettings = AnalysisSettings()) {
        precondition(!frames.isEmpty)
        self.file = file
        self.frames = frames
        self.settings = settings
        var spectrum = settings.spectrum
        if frames.upperBound != Int64.max && Int64(spectrum.windowSize) > Int64(frames.count) {
            spectrum.windowSize = max(2, Int(frames.count))
        }
        self.spectrum = spectrum
        let rate = file.format.sampleRate
        weighting = KWeighting(sampleRate: rate)
        measuresLoudness = Loudness.measurableSampleRates.contains(rate)
        channelWeights = Loudness.channelWeights(channels: file.format.channels)
        let hop = spectrum.hop
        chunkFrames = hop * max(1, min(128, Self.chunkSamples / (hop * file.format.channels)))
        // The filter's settling time is ~0.19 s of audio, so its frames grow with the rate (4 × 10⁸
        // at 2 GHz): no more than the range holds, where they would be read for nothing, and none
        // for a filter whose loudness is not reported.
        let settling = max(measuresLoudness ? weighting.settlingFrames : 0, TruePeakMeter.taps)
        settlingFrames = min(settling, Int(clamping: frames.upperBound == Int64.max ? Int64.max : Int64(frames.count)))
    }

    /// The frames in the range, or nil for a stream that has not ended.
    var knownLength: Int64? { frames.upperBound == Int64.max ? nil : Int64(frames.count) }

    /// Frames per second that make a sub-block: the rate, but at least 10, so that below 10 Hz a
    /// "100 ms" block is one frame rather than none.
    private var subBlockRate: Int64 { Int64(max(10, file.format.sampleRate)) }

    /// Where 100 ms sub-block `index` starts, relative to the range.
    func subBlockStart(_ index: Int) -> Int64 { Int64(index) * subBlockRate / 10 }

    /// The sub-block holding relative frame `frame`.
    func subBlock(containing frame: Int64) -> Int {
        var index = Int(frame * 10 / subBlockRate)
        while subBlockStart(index + 1) <= frame { index += 1 }
        return index
    }

    /// Runs the analysis on up to `workers` tasks; `progress` hears the fraction done (0…1) of a
    /// range of known length, from the task that merges.
    public func run(workers: Int = 2, progress: (@Sendable (Double) -> Void)? = nil) async throws(SignalPathError) -> SignalAnalysis {
        let combiner = AnalysisCombiner(analyzer: self)
        guard let length = knownLength, file.isSeekable else {
            // A stream: one worker, chunk after chunk, until the stream ends.
            let worker = try AnalysisWorker(analyzer: self)
            for chunk in 0... {
                let result = try worker.process(chunk: chunk)
                combiner.add(result)
                if let end = result.endOfInput, end <= Int64(chunk + 1) * Int64(chunkFrames) { break }
            }
            return try combiner.finish()
        }
        let chunkCount = Int((length + Int64(chunkFrames) - 1) / Int64(chunkFrames))
        let workerCount = max(1, min(workers, chunkCount))
        var pool: [AnalysisWorker] = []
        for _ in 0..<workerCount { pool.append(try AnalysisWorker(analyzer: self)) }
        try await runChunks(chunkCount, on: pool, path: file.path) { chunk in
            combiner.add(chunk)
            progress?(combiner.fractionDone)
        }
        return try combiner.finish()
    }
}

/// One chunk's measurements.
struct AnalysisChunk: Sendable {
    var index: Int
    /// Per channel.
    var levels: [LevelStatistics]
    var truePeaks: [Float]
    /// Per channel: NaN or infinite samples, analysed as 0.
    var nonFiniteSamples: [Int64]
    /// The sub-block of the chunk's first frame; the arrays below start there.
    var firstSubBlock: Int
    /// Per sub-block, Σ over channels of weight · Σ (K-weighted sample)².
    var weightedEnergy: [Double]
    /// Per sub-block and channel (channel fastest), Σ sample².
    var squares: [Double]
    /// Per channel and bin (bins fastest), Σ |X|² over the chunk's segments.
    var power: [Double]
    var segments: Int
    /// Frames analysed, relative to the range.
    var frames: Range<Int64>
    /// Where the input ended, relative to the range, when this chunk found its end.
    var endOfInput: Int64?
}
