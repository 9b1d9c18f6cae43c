import ArgumentParser
import SignalPathKit

struct Spectrum: AsyncParsableCommand, LevelAxisCommand {
    static let configuration = CommandConfiguration(
        commandName: "spectrum",
        _superCommandName: "signalpath",
        abstract: "The FFT spectrum of a time range: a plot on a terminal, CSV when piped.",
        discussion: """
            Every number states its conventions. The default scale, dbfs, is the single-sided \
            amplitude spectrum corrected for the window's coherent gain: a full-scale sine on a bin \
            centre reads 0.00 dBFS, a half-scale one -6.02. Segments overlap (50 % by default) and \
            their power is averaged (Welch's method); --scale psd equals scipy.signal.welch with \
            scaling='density' and the same window, size and overlap (without detrending).

            CSV (RFC 4180 quoting, LF line ends) has a header row: frequency_hz, then one column per channel named after \
            the channel and the unit (left_dbfs, right_dbfs; mix_…; mono_…). With --bands the rows are \
            bands (frequency_hz, nominal_hz, lower_hz, upper_hz, …); with --peaks they are the peaks. \
            Digital silence (-inf dB) is an empty field in CSV and null in JSON. With several files, \
            CSV rows start with a path column.

            On a terminal the spectrum is drawn: braille traces per channel (or --style bars) over a \
            logarithmic frequency axis (--linear), dB grid, the strongest peaks marked with \
            frequency and note. Piped, the spectrum is CSV; --format text gives a summary with \
            the peaks instead, --format json or ndjson the data with its conventions (a file that \
            cannot be read is an entry with `path` and `error`). --output FILE writes a file whose \
            extension picks the format (.png .svg .pdf: the chart, --size, --theme, --dpi; \
            .csv .tsv .json .ndjson .txt). Options \
            that would change nothing in the chosen format (--width or --style with CSV, \
            --smooth with text, …) are refused.

            Examples:
              signalpath spectrum take.wav --range 1.5s..3s
              signalpath spectrum take.wav --range 00:01:00..00:01:10 --channel left | head
              signalpath spectrum take.flac --bands 1/3 --weighting A --format json
              signalpath spectrum take.wav --window flat-top --peaks 10 --format csv
              signalpath spectrum take.wav --output take.png --size 1600x900
            """
    )

    static let name = "spectrum"
    static let formats: [OutputFormat] = [.plot, .text, .csv, .tsv, .json, .ndjson, .svg, .png, .pdf]
    static let view = TerminalView.picture
    static let writesFilePerInput = true
    static let levelUnit = "db"
    static let floorHelp = "Lowest level shown, in the unit of --scale (default: -120)."
    static let ceilingHelp = "Highest level shown, in the unit of --scale (default: 5 dB or more above the strongest level, on a multiple of 10)."
    static let defaultFloor: Double? = -120

    @OptionGroup var input: FileArguments
    @OptionGroup var streamOption: StreamOptions

    @OptionGroup var range: RangeOptions
    @OptionGroup var engine: SpectrumEngineOptions
    @OptionGroup var show: PresentationOptions
    @OptionGroup var output: OutputOptions<Spectrum>
    @OptionGroup var jobs: JobOptions
    @OptionGroup var plotting: PlotOptions
    @OptionGroup var levelAxis: LevelAxisOptions<Spectrum>

    @Flag(name: .long, help: "Linear frequency axis (default: logarithmic).")
    var linear = false

    @Option(name: .long, help: "Plot traces as lines (braille) or bars (eighth blocks; always for --bands) (default: lines).")
    var style: SpectrumPlot.TraceStyle?

    /// Options that would change nothing in the chosen format are refused.
    func validate() throws {
        let format = output.resolvedFormat
        try plotting.refuseInapplicable(output, pictureOnly: levelAxis.given + [("--linear", linear)])
        if style != nil && !format.isPicture {
            throw output.pictureOnly("--style", "shapes the plot's traces", else: "--style applies to a picture (--format plot, svg, png or pdf), not to \(format.rawValue).")
        }
        try output.check(inputs: input.files)
        if format == .text, let option = show.smooth != nil ? "--smooth" : show.bands != nil ? "--bands" : nil {
            throw ValidationError("\(option) shapes the spectrum that plots and data show; the text summary lists peaks of the bins.")
        }
        if show.a4 != nil && show.peakCount(format: format) == 0 {
            // A plot marks 3 peaks unasked, data none: the pipe's CSV would drop what the terminal shows.
            if show.peaks == nil {
                throw output.pictureOnly("--a4", "names the notes of the peaks a plot marks", else: "--a4 names the notes of peaks; ask for some with --peaks N.")
            }
            throw ValidationError("--a4 names the notes of peaks; ask for some with --peaks N.")
        }
    }

    func run() async throws {
        let format = output.resolvedFormat
        let command = self
        try await FileBatch(files: input.files, output: output, schema: SpectrumReport.schema, jobs: jobs.workers).run { item, writer throws(SignalPathError) in
            try await command.write(item, format: format, to: &writer)
        }
    }

    private func write(_ item: FileBatch<Spectrum>.Item, format: OutputFormat, to writer: inout ResultWriter) async throws(SignalPathError) {
        let report = try await analyse(item.path, presentation: show.presentation(format: format), workers: item.workers)
        try writer.write(
            report, path: item.pathColumn,
            picture: PictureOutput(plotting: plotting, plotHeight: 24) {
                report.plot(
                    style: style ?? .lines, logarithmic: !linear, floor: levelAxis.floorLevel, ceiling: levelAxis.ceiling,
                    monochrome: plotting.isMonochrome(format))
            })
    }

    private func analyse(_ path: String, presentation: SpectrumPresentation, workers: Int) async throws(SignalPathError) -> SpectrumReport {
        let file = try await AudioFile.openNoting(path, stream: streamOption.stream)
        let frames = try range.frames(in: file)
        let analyzer = try SpectrumAnalyzer(file: file, frames: frames, channels: show.channels, parameters: engine.parameters(for: file))
        // In a batch with a pattern, the batch's line shows progress.
        let progress = ProgressLine(label: "spectrum \(path)", enabled: StandardError.isTerminal && output.pattern == nil)
        defer { progress.finish() }
        return SpectrumReport(spectrum: try await analyzer.run(workers: workers) { progress.update($0) }, presentation: presentation)
    }
}
