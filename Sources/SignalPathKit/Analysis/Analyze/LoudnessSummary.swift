/// What `loudness` reports for one file besides its series: the integrated loudness and LRA of the
/// pass, the loudest momentary and short-term windows and the true peak, each with its time.
public struct LoudnessSummary: Sendable {
    /// The pass (levels, loudness and true peak; no spectrum).
    public var analysis: SignalAnalysis
    /// Seconds between points of the series.
    public var interval: Double
    public var momentaryMax: LoudnessSeries.Maximum?
    public var shortTermMax: LoudnessSeries.Maximum?

    public init(analysis: SignalAnalysis, series: LoudnessSeries) {
        self.analysis = analysis
        interval = Double(series.step) / 10
        momentaryMax = series.momentaryMax
        shortTermMax = series.shortTermMax
    }

    public var path: String { analysis.path }
    public var integrated: Double? { analysis.loudness.integrated }
    public var range: Double? { analysis.loudness.range }
    /// The largest true peak over channels, dBTP, and where it lies (seconds from the start of
    /// the file); nil for digital silence.
    public var truePeak: Double? { analysis.truePeak.isFinite ? analysis.truePeak : nil }
    public var truePeakTime: Double? { analysis.truePeakTime }
}
