/// Everything `analyze` measures, in one pass over a frame range: levels, loudness, true peak and
/// the averaged spectrum, per channel.
///
/// The range is cut into chunks of a fixed number of frames (independent of the number of
/// workers). Workers analyse chunks in parallel, each on its own reader and scratch; results are
/// merged in chunk order. The K-weighting filter, which has memory, starts each chunk from rest
/// `settlingFrames` before it, long enough for its past to fade below a Double's precision; so the
/// result is the same with one worker or many, and matches a filter run over the whole file.
/// Memory is a few chunks' worth plus, per 100 ms of audio, 8 bytes for loudness gating and 8 per
/// channel for the noise floor (docs/ANALYZE.md, "How it runs").
public struct SignalAnalyzer: Sendable {
    public let file: AudioFile
    /// The frames asked for; for a stream of unknown length the upper bound is `Int64.max`.
    public let frames: Range<Int64>
    public let settings: AnalysisSettings
    /// The spectrum parameters in use (the window shrinks to a range shorter than it).
    public let spectrum: SpectrumParameters
    let weighting: KWeighting
    /// The bins of the distortion band, whose strongest bin each segment records; nil when no bin
    /// falls in the band.
    let distortionBins: ClosedRange<Int>?
    /// False at rates outside `Loudness.measurableSampleRates`: loudness is then null.
    let measuresLoudness: Bool
    let channelWeights: [Double]
    /// The channels whose stereo image is measured (`StereoImage.pair`), 0-based.
    let stereoPair: (left: Int, right: Int)?
    /// Frames per chunk: a whole number of spectrum hops.
    let chunkFrames: Int
    /// Frames read before a chunk to settle the K-weighting filter (and the true-peak
    /// interpolator's reach). The first chunk reads them before the range, where the file has
    /// them: a range cut inside steady audio then reads as that audio, not as an onset from silence.
    let settlingFrames: Int
    /// The true-peak meter in `settings.truePeakMode`.
    let truePeak: TruePeakMeter
    /// Frames read after the range's end, where the file has them, for the true-peak
    /// interpolator's outputs up to the end (it reads ahead).
    let postRollFrames: Int
    public let scope: Scope
    /// Where chunks take their bytes for the audio MD5; nil when it is not computed or the format
    /// has none.
    let audioMD5Source: AudioMD5.Source?

    /// What a pass measures.
    public enum Scope: Sendable {
        /// Everything `analyze` reports.
        case everything
        /// Levels, loudness and true peak, without the spectrum (no tones, distortion or spectral
        /// summary) and without the per-block levels (noise floor, silent fraction: nil): what
        /// `loudness` needs. The FFTs are most of analyze's time.
        case loudness
    }

    /// Frames of spectrum per chunk, aimed at ~2 MB of samples per chunk.
    static let chunkSamples = 1 << 19

    public init(file: AudioFile, frames: Range<Int64>, settings: AnalysisSettings = AnalysisSettings(), scope: Scope = .everything) {
        precondition(!frames.isEmpty)
        self.file = file
        self.scope = scope
        self.frames = frames
        self.settings = settings
        let spectrum = settings.spectrum.fitted(to: frames)
        self.spectrum = spectrum
        let rate = file.format.sampleRate
        weighting = KWeighting(sampleRate: rate)
        measuresLoudness = Loudness.measurableSampleRates.contains(rate)
        channelWeights = Loudness.channelWeights(layout: file.format.channelLayout)
        stereoPair = scope == .everything ? StereoImage.pair(in: file.format.channelLayout) : nil
        distortionBins = Distortion.bins(sampleRate: rate, fftSize: spectrum.fftSize)
        let hop = spectrum.hop
        // A loudness pass holds half as many samples per chunk: its chunks need no whole spectrum
        // segments, and two workers' windows are the largest part of its memory (docs/DECISIONS.md#chunk-sizes;
        // the same CSV, byte for byte).
        let samplesPerChunk = scope == .everything ? Self.chunkSamples : Self.chunkSamples / 2
        let fullChunk = hop * max(1, min(128, samplesPerChunk / (hop * file.format.channels)))
        // A range shorter than that is one chunk of its own length (in whole hops): the same single
        // chunk, but scratch for it, not for 2 MB (docs/DECISIONS.md#chunk-sizes).
        chunkFrames = frames.count < Int64(fullChunk) ? hop * Int((Int64(frames.count) + Int64(hop) - 1) / Int64(hop)) : fullChunk
        // The filter's settling time is ~0.19 s of audio, so its frames grow with the rate (4 × 10⁸
        // at 2 GHz): no more than the range holds, where they would be read for nothing, and none
        // for a filter whose loudness is not reported.
        // The true-peak interpolator's reach is not clamped: it is a few dozen frames.
        truePeak = TruePeakMeter(mode: settings.truePeakMode)
        let rangeLength = Int(clamping: frames.upperBound == Int64.max ? Int64.max : Int64(frames.count))
        settlingFrames = max(min(measuresLoudness ? weighting.settlingFrames : 0, rangeLength), truePeak.lookBehind)
        postRollFrames = truePeak.delay + truePeak.lookAhead
        audioMD5Source = settings.computesAudioMD5 && scope == .everything ? AudioMD5.Source(file) : nil
    }

    /// The frames in the range, or nil for a stream that has not ended.
    var knownLength: Int64? { frames.upperBound == Int64.max ? nil : Int64(frames.count) }

    /// Where 100 ms sub-block `index` starts, relative to the range.
    func subBlockStart(_ index: Int) -> Int64 { SubBlockPieces.start(of: index, sampleRate: file.format.sampleRate) }

    /// The sub-block holding relative frame `frame`.
    func subBlock(containing frame: Int64) -> Int {
        var index = Int(frame * 10 / SubBlockPieces.blockRate(sampleRate: file.format.sampleRate))
        while subBlockStart(index + 1) <= frame { index += 1 }
        return index
    }

    /// The pieces of `frames` (relative to the range) that lie in one sub-block each.
    func subBlockPieces(_ frames: Range<Int64>) -> SubBlockPieces {
        SubBlockPieces(frames: frames, firstSubBlock: subBlock(containing: frames.lowerBound), sampleRate: file.format.sampleRate)
    }

    /// Runs the analysis on up to `workers` tasks; `progress` hears the fraction done (0…1) of a
    /// range of known length, from the task that merges. `subBlocks` hears each whole 100 ms
    /// sub-block's K-weighted energy (Σ over channels of weight · Σ sample², 0 where loudness is
    /// not measured) and its frames, in order, as soon as the chunks before it have merged: what
    /// `LoudnessSeries` takes, so a series is written as the pass goes, never held.
    public func run(
        workers: Int = 2, progress: (@Sendable (Double) -> Void)? = nil, subBlocks: (_ energy: Double, _ frames: Int) -> Void = { _, _ in }
    ) async throws(SignalPathError) -> SignalAnalysis {
        guard let seconds = settings.fingerprintSeconds else { return try await analyse(workers: workers, progress: progress, subBlocks: subBlocks) }
        // The fingerprint reads the file's first minutes on a reader of its own, beside the pass.
        let file = self.file
        async let fingerprint = Result { () throws(SignalPathError) in try AudioFingerprint.compute(file, seconds: seconds) }
        var analysis = try await analyse(workers: workers, progress: progress, subBlocks: subBlocks)
        analysis.fingerprint = try await fingerprint.get()
        return analysis
    }

    /// `run` without the fingerprint.
    private func analyse(
        workers: Int, progress: (@Sendable (Double) -> Void)?, subBlocks: (_ energy: Double, _ frames: Int) -> Void
    ) async throws(SignalPathError) -> SignalAnalysis {
        let combiner = AnalysisCombiner(analyzer: self)
        if audioMD5Source != nil { combiner.audioMD5 = try AudioMD5() }
        guard let length = knownLength, file.isSeekable else {
            try await runStream(workers: workers, combiner: combiner, subBlocks: subBlocks)
            return await finish(combiner)
        }
        let chunkCount = Int((length + Int64(chunkFrames) - 1) / Int64(chunkFrames))
        let workerCount = max(1, min(workers, chunkCount))
        // A worker's place the chunks leave free (a range under two chunks) computes the window's
        // autocorrelation that `finish` needs for the stereo alignment meanwhile, which a 1 s range
        // otherwise waited for after its one chunk (the same cached values;
        // docs/DECISIONS.md#off-critical-path).
        async let aligned: Void = workerCount < workers ? prepareStereoAlignment() : ()
        var pool: [AnalysisWorker] = []
        for _ in 0..<workerCount { pool.append(try AnalysisWorker(analyzer: self)) }
        try await runChunks(chunkCount, on: pool, path: file.path) { chunk in
            combiner.add(chunk, subBlocks: subBlocks)
            progress?(combiner.fractionDone)
        }
        await aligned
        return await finish(combiner)
    }

    /// The combiner's analysis with the audio MD5, where it was computed, and the MD5 the file
    /// carries, where it was asked for.
    private func finish(_ combiner: AnalysisCombiner) async -> SignalAnalysis {
        var analysis = await combiner.finish()
        analysis.audioMD5 = await combiner.audioMD5?.finish()
        if settings.computesAudioMD5 { analysis.embeddedMD5 = EmbeddedMD5.read(file) }
        return analysis
    }

    /// Plans the FFT of `settings`' spectrum now (from the built-in wisdom, with FFTW's planner set
    /// up): `analyze` has it made on an idle core while a file opens and the analysis sets up,
    /// where a 1 s range otherwise waited for it in its worker's setup
    /// (docs/DECISIONS.md#off-critical-path).
    public static func prepare(_ settings: AnalysisSettings) {
        RealFFT.prepare(size: settings.spectrum.fftSize)
    }

    /// Computes (and caches) the window autocorrelation `StereoImage` reads, for a file with a pair.
    private func prepareStereoAlignment() {
        guard stereoPair != nil else { return }
        _ = StereoImage.sharedWindowAutocorrelation(
            WindowTable.shared(spectrum.window, size: spectrum.windowSize),
            upTo: StereoImage.lagLimit(sampleRate: file.format.sampleRate, fftSize: spectrum.fftSize))
    }
}

/// One chunk's measurements.
struct AnalysisChunk: Sendable {
    var index: Int
    /// Per channel.
    var levels: [LevelStatistics]
    var truePeaks: [Float]
    /// Per channel: where the true peak lies (frames relative to the range, fractional), nil
    /// where the sample peak is the true peak.
    var truePeakFrames: [Double?]
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
    /// Per segment and channel (channel fastest), the segment's strongest in-band bin and its
    /// in-band power: how steady the strongest tone is. Empty when no bin is in the band.
    var strongestBins: [(bin: Int, power: Double)]
    /// The stereo pair's sums over the chunk's own frames and segments; nil without a pair.
    var stereo: StereoImage.Sums?
    /// Where the segments' content ends, over all channels; nil for a loudness pass.
    var edges: SpectralEdgeStatistics?
    /// A coder's frame grid in the chunk's excerpt (`FrameGridProbe`); nil for a chunk without one.
    var frameGrid: FrameGridStatistics?
    var segments: Int
    /// Frames analysed, relative to the range.
    var frames: Range<Int64>
    /// Where the input ended, relative to the range, when this chunk found its end.
    var endOfInput: Int64?
    /// The chunk's own frames as the audio MD5 reads them (`AudioMD5.Source`); empty when not computed.
    var audioMD5Bytes: [FileBytes] = []
    /// The chunk's samples use bits below the stated valid bits: the file has no audio MD5.
    var audioMD5Refused = false
}
