import ArgumentParser
import SignalPathKit

struct Spectrum: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The FFT spectrum of a time range: a plot on a terminal, CSV when piped.",
        discussion: """
            Every number states its conventions. The default scale, dbfs, is the single-sided \
            amplitude spectrum corrected for the window's coherent gain: a full-scale sine on a bin \
            centre reads 0.00 dBFS, a half-scale one −6.02. Segments overlap (50 % by default) and \
            their power is averaged (Welch's method); --scale psd equals scipy.signal.welch with \
            scaling='density' and the same window, size and overlap (without detrending).

            CSV (RFC 4180) has a header row: frequency_hz, then one column per channel named after \
            the channel and the unit (left_dbfs, right_dbfs; mix_…; mono_…). With --bands the rows are \
            bands (frequency_hz, nominal_hz, lower_hz, upper_hz, …); with --peaks they are the peaks. \
            Digital silence (−∞ dB) is an empty field in CSV and null in JSON. With several files, \
            CSV rows start with a path column.

            On a terminal the spectrum is drawn: braille traces per channel (or --style bars) over a \
            logarithmic frequency axis (--linear), dB grid, the strongest peaks marked with \
            frequency and note. --format text gives a summary with the peaks instead; --output \
            FILE.svg writes the plot as an SVG file.

            Examples:
              signalpath spectrum take.wav --range 1.5s..3s
              signalpath spectrum take.wav --range 00:01:00..00:01:10 --channel left | head
              signalpath spectrum take.flac --bands 1/3 --weighting A --format json
              signalpath spectrum take.wav --window flat-top --peaks 10 --format csv
            """
    )

    @OptionGroup var input: FileArguments

    @OptionGroup var range: RangeOptions
    @OptionGroup var engine: SpectrumEngineOptions
    @OptionGroup var show: PresentationOptions
    @OptionGroup var output: MachineOutputOptions
    @OptionGroup var jobs: JobOptions
    @OptionGroup var plotting: PlotOptions

    @Option(name: .long, help: "Plot traces as lines (braille) or bars (eighth blocks; always for --bands).")
    var style: SpectrumPlot.TraceStyle = .lines

    func run() async throws {
        let format = output.format ?? (StandardOutput.isTerminal || plotting.output != nil ? .plot : .csv)
        let timeRange = try range.timeRange()
        let presentation = show.presentation(defaultPeaks: format == .text ? 5 : format == .plot ? 3 : 0)
        var failures = FailureTally()
        var documents: [JSONValue] = []
        var table = DelimitedText(format == .tsv ? .tsv : .csv)
        var wroteHeader = false
        for (index, path) in input.files.enumerated() {
            do throws(SignalPathError) {
                let report = try await analyse(path, timeRange: timeRange, presentation: presentation)
                switch format {
                case .plot:
                    let plot = report.plot(style: style, logarithmic: !plotting.linear, floor: plotting.floor, ceiling: plotting.ceiling)
                    try plotting.emit(defaultHeight: 24) { canvas, area in plot.draw(into: &canvas, area: area) }
                case .text:
                    print((index == 0 ? "" : "\n") + report.text)
                case .csv, .tsv:
                    let pathColumn = input.files.count > 1 ? path : nil
                    if show.peaks != nil {
                        report.appendPeaks(to: &table, header: !wroteHeader, path: pathColumn)
                    } else {
                        report.appendRows(to: &table, header: !wroteHeader, path: pathColumn)
                    }
                    wroteHeader = true
                    print(table.text, terminator: "")
                    table = DelimitedText(format == .tsv ? .tsv : .csv)
                    if StandardError.isTerminal { StandardError.writeLine("signalpath: " + report.conventionsLine) }
                case .ndjson:
                    print(JSONValue.object([.init("schema", .string(SpectrumReport.schema))] + report.jsonMembers).serialized())
                case .json:
                    documents.append(.object(report.jsonMembers))
                }
            } catch {
                failures.record(error)
            }
        }
        if format == .json {
            print(JSONValue.object(["schema": .string(SpectrumReport.schema), "files": .array(documents)]).serialized(pretty: true))
        }
        try failures.finish()
    }

    private func analyse(_ path: String, timeRange: TimeRange, presentation: SpectrumPresentation) async throws(SignalPathError) -> SpectrumReport {
        let file = try AudioFile.openNoting(path)
        let frames = try timeRange.frames(in: path, sampleRate: file.format.sampleRate, frames: file.format.frames)
        let analyzer = try SpectrumAnalyzer(
            file: file, frames: frames, channels: show.channels,
            parameters: engine.parameters(sampleRate: file.format.sampleRate))
        return SpectrumReport(spectrum: try await analyzer.run(workers: jobs.workers), presentation: presentation)
    }
}
