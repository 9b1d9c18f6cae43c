/// A file's delivery check, as `check` and `scan` make it: the analyze pass, then the events pass
/// when a rule needs it (the longest silence) or the caller wants the events, then the verdict
/// against the rules when there are any.
public struct DeliveryCheck: Sendable {
    public var analysis: SignalAnalysis
    /// The events pass's summary (with `eventSettings`); nil when it did not run.
    public var events: EventSummary?
    public var eventSettings: EventSettings
    /// Nil without rules.
    public var verdict: DeliveryVerdict?

    /// Runs the passes over `frames` of `file` on up to `workers` tasks; `progress` hears the
    /// fraction done of both passes together.
    public static func run(
        file: AudioFile, frames: Range<Int64>, settings: AnalysisSettings, rules: DeliveryRules?, findingEvents: Bool = false, workers: Int,
        progress: (@Sendable (Double) -> Void)? = nil
    ) async throws(SignalPathError) -> DeliveryCheck {
        let findsEvents = findingEvents || rules?.maximumSilence != nil
        let analysisProgress: (@Sendable (Double) -> Void)? = progress.map { report in { @Sendable in report(findsEvents ? $0 / 2 : $0) } }
        let analysis = try await SignalAnalyzer(file: file, frames: frames, settings: settings).run(workers: workers, progress: analysisProgress)
        // `events`' rules with its defaults (silence: every channel under -60 dBFS for 0.5 s or
        // more), and analyze's clipping run.
        var eventSettings = EventSettings()
        eventSettings.minimumClipRun = settings.minimumClipRun
        var events: EventSummary?
        if findsEvents {
            // The events pass reads the file a second time, which a stream cannot give.
            guard file.isSeekable else { throw .notSeekable(path: file.path) }
            let eventsProgress: (@Sendable (Double) -> Void)? = progress.map { report in { @Sendable in report(0.5 + $0 / 2) } }
            events = try await EventDetector(file: file, frames: frames, settings: eventSettings).run(workers: workers, progress: eventsProgress, emit: { _ in })
        }
        let verdict = rules.map { DeliveryVerdict(analysis: analysis, events: events, rules: $0) }
        return DeliveryCheck(analysis: analysis, events: events, eventSettings: eventSettings, verdict: verdict)
    }
}
