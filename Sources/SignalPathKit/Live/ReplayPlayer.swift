/// Reads what replay shows at a play head: the frames since the previous frame (levels) and the
/// window before the head (spectrum) — only those bytes, through the file's cache, so seeking in a
/// file of many gigabytes is instant and scrubbing back is served from memory.
public final class ReplayPlayer {
    public let path: String
    /// The audio stream replayed (`--stream`; nil: the first).
    public let stream: Int?
    public private(set) var file: AudioFile
    private var reader: AudioReader
    private var source: FrameWindow
    /// A second reader for the audio sent to a device, so that playback does not move the
    /// frame window's reader.
    private var playbackReader: AudioReader
    public let analyzer: LiveAnalyzer
    /// Momentary and short-term loudness at the head, fed from a reader of its own.
    private var loudness: LoudnessMeter
    private var loudnessSource: FrameWindow

    /// Levels look back at most this far (after a seek, the previous frame is far away).
    static let longestLevelSpan = 0.25

    public init(path: String, stream: Int? = nil, fftSize: Int, bands: Int?) throws(SignalPathError) {
        let file = try AudioFile.open(path, stream: stream)
        guard file.isSeekable else { throw .notSeekable(path: path) }
        self.path = path
        self.stream = stream
        self.file = file
        reader = try file.makeReader()
        source = FrameWindow(reader: reader)
        playbackReader = try file.makeReader()
        analyzer = LiveAnalyzer(
            sampleRate: file.format.sampleRate, layout: file.format.channelLayout, sampleFormat: file.format.sampleFormat, fftSize: fftSize,
            bands: bands)
        loudness = LoudnessMeter(sampleRate: file.format.sampleRate, layout: file.format.channelLayout)
        loudnessSource = FrameWindow(reader: try file.makeReader())
    }

    public var sampleRate: Int { file.format.sampleRate }
    public var duration: Double { Double(file.format.frames ?? 0) / Double(sampleRate) }

    /// Reads the header again (a file still being recorded): the new duration. Keeps the cache's
    /// blocks only when the file did not change under them.
    @discardableResult
    public func refresh() throws(SignalPathError) -> Double {
        let reopened = try AudioFile.open(path, stream: stream)
        guard reopened.format.frames != file.format.frames else { return duration }
        file = reopened
        reader = try file.makeReader()
        source = FrameWindow(reader: reader)
        playbackReader = try file.makeReader()
        loudnessSource = FrameWindow(reader: try file.makeReader())
        loudness.reset(at: 0)
        return duration
    }

    /// The live frame at `time` seconds; levels over the frames since `previous`; the first
    /// `shown` channels analysed (nil: all).
    public func frame(at time: Double, previous: Double, shown: Int? = nil) throws(SignalPathError) -> LiveFrame {
        let rate = Double(sampleRate), channels = file.format.channels
        let total = file.format.frames ?? 0
        let end = min(total, max(0, Int64((time * rate).rounded())))
        var levelStart = Int64((previous * rate).rounded())
        if levelStart >= end || Double(end - levelStart) > Self.longestLevelSpan * rate {
            levelStart = max(0, end - Int64(rate / 30))
        }
        let windowSize = Int64(analyzer.windowSize)
        let start = max(0, min(levelStart, end - windowSize))
        let got = end > start ? try source.load(start..<end) : 0
        let available = start + Int64(got)
        // The window: the frames before the head that were loaded (the analyser puts zeros before them).
        let windowFrames = Int(min(windowSize, available - start))
        let first = Int(available - Int64(windowFrames) - start)
        let recentStart = Int(max(0, levelStart - start)), recentEnd = Int(available - start)
        try feedLoudness(to: end)
        let samples = source.samples
        var frame = analyzer.frame(
            time: min(max(0, time), duration),
            recent: UnsafeBufferPointer(rebasing: samples[recentStart * channels..<max(recentStart, recentEnd) * channels]),
            window: UnsafeBufferPointer(rebasing: samples[first * channels..<(first + windowFrames) * channels]), shown: shown)
        frame.momentary = loudness.momentary
        frame.shortTerm = loudness.shortTerm
        return frame
    }

    /// Feeds the loudness meter up to frame `end`: on from where it stopped while the head moves
    /// forward by less than a short-term window and the filter's settling, else (a seek, a jump)
    /// from rest that far before the head, so a value never waits for 3 s of playing.
    private func feedLoudness(to end: Int64) throws(SignalPathError) {
        let span = Int64(sampleRate) * 3 + Int64(loudness.settlingFrames)
        if end < loudness.position || end - loudness.position > span { loudness.reset(at: max(0, end - span)) }
        guard end > loudness.position else { return }
        let got = try loudnessSource.load(loudness.position..<end)
        let channels = file.format.channels
        loudness.feed(UnsafeBufferPointer(rebasing: loudnessSource.samples[0..<got * channels]))
    }

    /// The interleaved samples of `frames` (for playback).
    public func samples(_ frames: Range<Int64>) throws(SignalPathError) -> [Float] {
        try playbackReader.readFrames(frames)
    }

    /// The cache's hit rate so far (`--stats`).
    public var cacheHitRate: Double? { file.source?.cache.statistics.hitRate }
}
