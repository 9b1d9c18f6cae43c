import ArgumentParser
import SignalPathKit

struct LoudnessCommand: AsyncParsableCommand, LevelAxisCommand {
    static let configuration = CommandConfiguration(
        commandName: "loudness",
        _superCommandName: "signalpath",
        abstract: "Loudness over time: momentary and short-term every 100 ms, a chart on a terminal, CSV when piped.",
        discussion: """
            Momentary (400 ms) and short-term (3 s) loudness by ITU-R BS.1770-4 / EBU Tech 3341, \
            every --interval (100 ms by default, a multiple of it), from the same one pass as the \
            integrated loudness, the loudness range (EBU Tech 3342), the loudest momentary and \
            short-term windows and the true peak, each with its time.

            On a terminal: a chart over time (the short-term line on top of momentary, drawn \
            faint as the range of its values per column, or left out with --no-momentary; gaps \
            where values are missing; the integrated level and, with --target, the target and \
            its --tolerance as a band), with the summary under it. Piped, or with --format csv: time_s,momentary_lufs,short_term_lufs rows, \
            the time being the end of the measurement window (as ffmpeg's ebur128 log has it, \
            from the start of the file); a value before the first full window or at or below the \
            absolute gate (-70 LUFS) is an empty field (null in JSON). With several files a path \
            column comes first. Rows are written as the pass goes, so memory does not grow with \
            the length. --format json (schema signalpath.loudness/1): per file integrated_lufs, \
            range_lu, momentary_max_lufs, momentary_max_time_s, short_term_max_lufs, \
            short_term_max_time_s, true_peak_dbtp, true_peak_time_s, conventions and series. \
            --format ndjson: one line per point, then one line with the file's summary. See \
            docs/LOUDNESS.md.

            Examples:
              signalpath loudness take.wav
              signalpath loudness take.wav --target -23 --tolerance 0.5
              signalpath loudness take.wav --target -16 --output take.png
              signalpath loudness take.wav --interval 1s > loudness.csv
              signalpath loudness --range 1:00..2:00 --format json take.wav
              signalpath loudness --format ndjson *.flac | jq .short_term_lufs
            """
    )
    static let name = "loudness"
    static let formats: [OutputFormat] = [.plot, .csv, .tsv, .json, .ndjson, .svg, .png, .pdf]
    static let view = TerminalView.picture
    static let writesFilePerInput = true
    static let levelUnit = "lufs"
    static let floorHelp = "Lowest loudness shown, LUFS (default: 40 LU below the top, and 5 LU below the --target band)."
    static let ceilingHelp = "Highest loudness shown, LUFS (default: the loudest point or the --target band, rounded up to 5 LU, plus 5)."
    static let defaultFloor: Double? = nil

    @OptionGroup var input: FileArguments
    @OptionGroup var streamOption: StreamOptions
    @OptionGroup var range: RangeOptions
    @OptionGroup var output: OutputOptions<LoudnessCommand>
    @OptionGroup var plotting: PlotOptions
    @OptionGroup var levelAxis: LevelAxisOptions<LoudnessCommand>
    @OptionGroup var jobs: JobOptions
    @OptionGroup var truePeak: TruePeakOptions

    @Option(
        name: .long, help: ArgumentHelp("Time between points: a multiple of 100 ms (default: 100ms).", valueName: "time"),
        transform: OptionValue.loudnessInterval)
    var interval: Int?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Target loudness to draw on the chart, LUFS (-23 for EBU R128, -16 for podcasts).", valueName: "lufs"),
        transform: OptionValue.loudnessLevel)
    var target: Double?

    @Option(
        name: .long, help: ArgumentHelp("Half the width of the --target band, LU (default: 1).", valueName: "lu"),
        transform: OptionValue.loudnessTolerance)
    var tolerance: Double?

    @Flag(
        name: .customLong("no-momentary"),
        help: "Leave momentary loudness out of the chart: the short-term line alone (momentary is drawn faint under it by default).")
    var leavesOutMomentary = false

    /// Options that would change nothing in the chosen format are refused.
    func validate() throws {
        let format = output.resolvedFormat
        try plotting.refuseInapplicable(output, pictureOnly: levelAxis.given + [("--no-momentary", leavesOutMomentary)])
        if tolerance != nil && target == nil { throw ValidationError("--tolerance is the width of the --target band; give --target too.") }
        if target != nil && !format.isPicture {
            throw output.pictureOnly(
                "--target", "is drawn on the chart", else: "--target is drawn on the chart (--format plot, svg, png or pdf), not written to \(format.rawValue).")
        }
        if truePeak.mode != .bs1770 && (format == .csv || format == .tsv) {
            throw ValidationError("--true-peak changes the true peak, which the \(format.rawValue) series does not hold; use --format json, ndjson or the chart.")
        }
        try output.check(inputs: input.files)
    }

    func run() async throws {
        let command = self
        try await FileBatch(files: input.files, output: output, schema: LoudnessSummary.schema, jobs: jobs.workers).run { item, writer throws(SignalPathError) in
            try await command.measure(item, writer: &writer)
        }
    }

    /// One file: the pass, its points written as they come (`ResultWriter.stream`), the summary
    /// after them; a picture is drawn from the points kept.
    private func measure(_ item: FileBatch<LoudnessCommand>.Item, writer: inout ResultWriter) async throws(SignalPathError) {
        let path = item.path
        let file = try await AudioFile.openNoting(path, stream: streamOption.stream)
        let frames = try range.frames(in: file)
        let progress = ProgressLine(label: "loudness \(path)", enabled: StandardError.isTerminal && output.pattern == nil)
        defer { progress.finish() }
        var settings = AnalysisSettings()
        settings.truePeakMode = truePeak.mode
        let analyzer = SignalAnalyzer(file: file, frames: frames, settings: settings, scope: .loudness)
        let report = LoudnessSeriesReport(path: path, stream: file.namedStream, pathColumn: item.pathColumn)
        let format = writer.format
        let picture = { (summary: LoudnessSummary, points: [LoudnessSeries.Point]) in
            PictureOutput(plotting: plotting, plotHeight: 24) { view(summary, points: points, format: format) }
        }
        try await writer.stream(report, picture: picture) { points throws(SignalPathError) in
            var series = LoudnessSeries(sampleRate: file.format.sampleRate, startFrame: frames.lowerBound, step: interval ?? 1)
            let analysis = try await analyzer.run(
                workers: item.workers, progress: { progress.update($0) },
                subBlocks: { energy, frameCount in
                    if let point = series.add(energy: energy, frames: frameCount) { points.add(point) }
                })
            return LoudnessSummary(analysis: analysis, series: series)
        }
    }

    /// The view of one file, for the terminal or a chart file.
    private func view(_ summary: LoudnessSummary, points: [LoudnessSeries.Point], format: OutputFormat) -> LoudnessPlot {
        let analysis = summary.analysis
        let rate = Double(analysis.sampleRate)
        let times = Double(analysis.frames.lowerBound) / rate...Double(analysis.frames.upperBound) / rate
        var view = LoudnessPlot(
            title: "\(AudioStream.heading(path: summary.path, stream: analysis.stream)) · \(UnitFormat.times(times.lowerBound, times.upperBound, separator: "–")) · "
                + "loudness (BS.1770-4), every \(UnitFormat.shortest(summary.interval)) s",
            points: points, times: times, integrated: summary.integrated)
        view.target = target.map { ($0, tolerance ?? 1) }
        view.summary = summary.summaryLines
        view.floor = levelAxis.floor
        view.ceiling = levelAxis.ceiling
        view.monochrome = plotting.isMonochrome(format)
        view.showsMomentary = !leavesOutMomentary
        return view
    }
}
