/// `events` in one pass over a frame range: silences, clipping, dropouts, DC offset and jumps in
/// short-term loudness, each with its time.
///
/// As `SignalAnalyzer`: the range is cut into chunks of a fixed number of frames, workers scan
/// chunks in parallel and `EventCombiner` merges them in chunk order. A chunk reports what it
/// cannot decide alone — runs that touch its edges, per-millisecond and per-100 ms sums — and the
/// combiner joins those across edges before it applies a rule, so the events are the same for any
/// number of workers and equal those of one scan over the whole range (`EventDetectorTests`
/// checks both against a naive model). Memory: a few chunks, and the events of the last 2 s.
public struct EventDetector: Sendable {
    public let file: AudioFile
    public let frames: Range<Int64>
    public let settings: EventSettings
    let weighting: KWeighting
    let measuresLoudness: Bool
    let channelWeights: [Double]
    let fullScale: Float
    let chunkFrames: Int
    /// Frames read before a chunk: the K-weighting's settling time, and what a gap's edge is
    /// judged on (`gapReach`).
    let preRoll: Int
    /// Frames read after a chunk: what a gap's edge is judged on.
    let postRoll: Int
    /// A gap's flanks (10 ms) and its shortest length and edge window (1 ms).
    let flankFrames: Int
    let gapFrames: Int

    /// Half analyze's: two workers' windows are most of the memory (60-minute stereo WAV: 42.5 MB
    /// peak RSS with analyze's size; docs/EVENTS.md has the figures).
    static let chunkSamples = 1 << 18

    /// `chunkFrames` is for tests, which cut short ranges into many chunks.
    public init(file: AudioFile, frames: Range<Int64>, settings: EventSettings = EventSettings(), chunkFrames: Int? = nil) {
        precondition(!frames.isEmpty)
        self.file = file
        self.frames = frames
        self.settings = settings
        let rate = file.format.sampleRate
        weighting = KWeighting(sampleRate: rate)
        measuresLoudness = Loudness.measurableSampleRates.contains(rate)
        channelWeights = Loudness.channelWeights(layout: file.format.channelLayout)
        fullScale = file.format.sampleFormat.fullScale
        self.chunkFrames = max(1, chunkFrames ?? max(4096, Self.chunkSamples / file.format.channels))
        flankFrames = max(1, Int((Double(rate) * EventSettings.flankLength).rounded()))
        gapFrames = max(1, Int((Double(rate) * EventSettings.gapWindow).rounded()))
        let gapReach = GapEdgeSearch.reach(flankFrames: flankFrames, gapFrames: gapFrames)
        preRoll = max(measuresLoudness ? weighting.settlingFrames : 0, gapReach)
        postRoll = gapReach
    }

    var knownLength: Int64? { frames.upperBound == Int64.max ? nil : Int64(frames.count) }
    var sampleRate: Int { file.format.sampleRate }

    /// Where 1 ms block `index` starts, relative to the range (rates under 1 kHz: one frame each).
    func blockStart(_ index: Int) -> Int64 { Int64(index) * Int64(max(1000, sampleRate)) / 1000 }
    func block(containing frame: Int64) -> Int {
        var index = Int(frame * 1000 / Int64(max(1000, sampleRate)))
        while blockStart(index + 1) <= frame { index += 1 }
        while index > 0 && blockStart(index) > frame { index -= 1 }
        return index
    }
    func subBlockStart(_ index: Int) -> Int64 { SubBlockPieces.start(of: index, sampleRate: sampleRate) }
    func subBlock(containing frame: Int64) -> Int {
        var index = Int(frame * 10 / SubBlockPieces.blockRate(sampleRate: sampleRate))
        while subBlockStart(index + 1) <= frame { index += 1 }
        while index > 0 && subBlockStart(index) > frame { index -= 1 }
        return index
    }

    /// Scans the range on up to `workers` tasks; `emit` hears each event as it is decided, in the
    /// order events end, from the task that merges. Returns the summary of all of them.
    public func run(
        workers: Int = 2, progress: (@Sendable (Double) -> Void)? = nil, emit: (AudioEvent) -> Void
    ) async throws(SignalPathError) -> EventSummary {
        let combiner = EventCombiner(detector: self)
        guard let length = knownLength, file.isSeekable else {
            let worker = try EventWorker(detector: self)
            for chunk in 0... {
                let result = try worker.process(chunk: chunk)
                combiner.add(result, emit: emit)
                if let end = result.endOfInput, end <= Int64(chunk + 1) * Int64(chunkFrames) { break }
            }
            return combiner.finish(emit: emit)
        }
        let chunkCount = Int((length + Int64(chunkFrames) - 1) / Int64(chunkFrames))
        var pool: [EventWorker] = []
        for _ in 0..<max(1, min(workers, chunkCount)) { pool.append(try EventWorker(detector: self)) }
        try await runChunks(chunkCount, on: pool, path: file.path) { chunk in
            combiner.add(chunk, emit: emit)
            progress?(combiner.fractionDone)
        }
        return combiner.finish(emit: emit)
    }
}
