/// What a file's events add up to, as `check`'s rules on events read them: clipped samples, the
/// longest silence, the longest span of DC offset.
///
/// Fed from `analyze`'s pass (`init(analysis:)`), which measures clipping exactly (runs of at
/// least `--clip-run` full-scale samples, as the events pass counts them) but not silences or DC
/// spans: those stay nil until the events pass feeds them, and a rule on a nil figure is refused
/// before any work (`check --max-silence`), never passed.
public struct EventSummary: Sendable, Equatable {
    /// Samples in clipping runs, over all channels.
    public var clippedSamples: Int64
    /// The longest span in which every channel stays below the silence threshold, seconds; nil
    /// when not measured.
    public var longestSilence: Double?
    /// The longest span whose DC offset exceeds the limit, seconds; nil when not measured.
    public var longestDCSpan: Double?

    public init(clippedSamples: Int64, longestSilence: Double? = nil, longestDCSpan: Double? = nil) {
        self.clippedSamples = clippedSamples
        self.longestSilence = longestSilence
        self.longestDCSpan = longestDCSpan
    }

    /// What `analyze`'s pass measures: clipped samples summed over the channels.
    public init(analysis: SignalAnalysis) {
        self.init(clippedSamples: analysis.channels.reduce(0) { $0 + $1.clippedSamples })
    }
}
