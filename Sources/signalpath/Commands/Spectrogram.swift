import ArgumentParser
import SignalPathKit

struct Spectrogram: AsyncParsableCommand, LevelAxisCommand {
    static let configuration = CommandConfiguration(
        commandName: "spectrogram",
        _superCommandName: "signalpath",
        abstract: "Time × frequency: a heat map on a terminal, CSV when piped.",
        discussion: """
            On a terminal: a heat map as wide as the terminal, each column combining the segments \
            in its slice of the range (--average: mean power by default, or max, min, median), two \
            rows per line (half blocks), in a perceptual colour map (--colormap viridis, magma, \
            grayscale); without colour, a shade ramp. Levels are in --scale as in `spectrum`: \
            dbfs (a full-scale sine reads 0 dBFS), psd or power; shown from --floor to --ceiling \
            (default -120 to 0; for psd, to the maximum rounded up). --min-freq and --max-freq \
            zoom the plot and limit the data.

            Piped, or with --format csv: one row per segment (every hop; data is never averaged, \
            so --average is for plots), time_s (the middle of the segment), then one column per \
            bin, the header naming each bin's frequency in Hz (0, 11.71875, …); with several \
            channels a channel column follows time_s. --long gives \
            time_s,frequency_hz,channel,level_db rows instead. --format json and ndjson write the \
            same frames; in them, a file that cannot be read is an entry with `path` and `error`. \
            An --output file's extension picks the format (.csv, .tsv, .json, .ndjson; .png, \
            .svg, .pdf: a chart whose heat map has a column per pixel, --size, --theme, --dpi).

            Examples:
              signalpath spectrogram take.wav
              signalpath spectrogram take.wav --range 10s..20s --colormap magma --linear
              signalpath spectrogram take.wav --fft-size 1024 --format csv > frames.csv
              signalpath spectrogram take.wav --output take.png --theme dark
              signalpath spectrogram take.wav --average max --max-freq 4000
            """
    )

    static let name = "spectrogram"
    static let formats: [OutputFormat] = [.plot, .csv, .tsv, .json, .ndjson, .svg, .png, .pdf]
    static let view = TerminalView.picture
    static let writesFilePerInput = true
    static let levelUnit = "db"
    static let floorHelp = "Level at the cold end of the colour map, dB as --scale reads it (default: -120)."
    static let ceilingHelp = "Level at the hot end of the colour map, dB as --scale reads it (default: 0; with --scale psd the strongest level, rounded up to 10 dB)."
    static let defaultFloor: Double? = -120

    @OptionGroup var input: FileArguments
    @OptionGroup var streamOption: StreamOptions
    @OptionGroup var range: RangeOptions
    @OptionGroup var engine: SpectrumEngineOptions
    @OptionGroup var output: OutputOptions<Spectrogram>
    @OptionGroup var jobs: JobOptions
    @OptionGroup var plotting: PlotOptions
    @OptionGroup var levelAxis: LevelAxisOptions<Spectrogram>

    @Flag(name: .long, help: "Linear frequency axis (default: logarithmic, from 20 Hz).")
    var linear = false

    @Option(
        name: .long, help: ArgumentHelp("Channel: 1…N, left, right, a position (FL, LFE, SL, …), mix or all (default: mix for a plot, all for data).", valueName: "channel"),
        transform: OptionValue.channelOrAll)
    var channel: ChannelSelection?

    @Option(
        name: .long, help: ArgumentHelp("Scale of the levels: dbfs (full-scale sine = 0 dB), psd (dB re 1 FS²/Hz) or power (dB re 1 FS²) (default: dbfs).", valueName: "scale"),
        transform: OptionValue.decibelScale)
    var scale: SpectrumScale?

    @Option(name: .long, help: ArgumentHelp("Lowest frequency to show, in Hz (default: 20 on a log axis, else 0).", valueName: "hz"), transform: OptionValue.hertz)
    var minFreq: Double?

    @Option(name: .long, help: ArgumentHelp("Highest frequency to show, in Hz (default: Nyquist).", valueName: "hz"), transform: OptionValue.positiveHertz)
    var maxFreq: Double?

    @Option(name: .long, help: "Colour map of the heat map: viridis, magma or grayscale (default: viridis).")
    var colormap: ColorMap?

    @Flag(name: .long, help: "CSV as time_s,frequency_hz,channel,level_db rows.")
    var long = false

    /// Options that would change nothing in the chosen format are refused.
    func validate() throws {
        let format = output.resolvedFormat
        try plotting.refuseInapplicable(output, pictureOnly: levelAxis.given + [("--linear", linear)])
        try output.check(inputs: input.files)
        if let minFreq, let maxFreq, minFreq >= maxFreq { throw ValidationError("--min-freq must be below --max-freq.") }
        if format.isPicture {
            if long { throw output.dataOnly("--long", "applies to CSV and TSV", else: "--long applies to CSV and TSV, not to \(format.rawValue).") }
            if channel == .all {
                throw output.dataOnly("--channel all", "is for data", else: "A spectrogram plot shows one channel or the mix; --channel all is for data.")
            }
        } else {
            if colormap != nil {
                throw output.pictureOnly("--colormap", "applies to a picture", else: "--colormap applies to a picture (--format plot, svg, png or pdf), not to \(format.rawValue).")
            }
            if engine.average != nil {
                throw output.pictureOnly(
                    "--average", "combines the segments in each column of a plot",
                    else: "--average combines the segments in each column of a plot; data has a row per segment, which nothing averages.")
            }
            if long && format != .csv && format != .tsv { throw ValidationError("--long applies to CSV and TSV, not to \(format.rawValue).") }
        }
    }

    var presentation: SpectrogramPresentation {
        SpectrogramPresentation(scale: scale ?? .dbfs, frequencies: minFreq == nil && maxFreq == nil ? nil : (minFreq ?? 0)...(maxFreq ?? .infinity))
    }

    func run() async throws {
        let format = output.resolvedFormat
        let command = self
        try await FileBatch(files: input.files, output: output, schema: SpectrogramAnalyzer.schema, jobs: jobs.workers).run { item, writer throws(SignalPathError) in
            try await command.write(item, format: format, to: &writer)
        }
    }

    /// Data is written as the pass makes its frames (`ResultWriter.stream`); a picture takes its
    /// own pass, with a frame per column of the plot.
    private func write(_ item: FileBatch<Spectrogram>.Item, format: OutputFormat, to writer: inout ResultWriter) async throws(SignalPathError) {
        let presentation = self.presentation
        let path = item.path
        let file = try await AudioFile.openNoting(path, stream: streamOption.stream)
        let frames = try range.frames(in: file)
        let parameters = engine.parameters(for: file)
        // In a batch with a pattern, the batch's line shows progress; a stream's length is unknown.
        let progress = ProgressLine(
            label: "spectrogram \(path)", enabled: StandardError.isTerminal && output.pattern == nil && frames.upperBound != Int64.max)
        defer { progress.finish() }
        let done = { (frame: SpectrogramAnalyzer.Frame) in progress.update(Double(frame.span.upperBound - frames.lowerBound) / Double(frames.count)) }
        if format.isPicture {
            try writer.write(picture: picture(of: file, frames: frames, parameters: parameters, done: done))
            return
        }
        let analyzer = try SpectrogramAnalyzer(file: file, frames: frames, channels: channel ?? .all, parameters: parameters, columns: nil)
        try Self.requireBins(presentation, analyzer)
        let report = SpectrogramReport(analyzer: analyzer, presentation: presentation, long: long, path: item.pathColumn)
        try await writer.stream(report) { rows throws(SignalPathError) in
            try analyzer.run { frame throws(SignalPathError) in
                rows.add(frame)
                done(frame)
            }
        }
    }

    /// A frequency range with no bin in it is an error, not an empty result.
    static func requireBins(_ presentation: SpectrogramPresentation, _ analyzer: SpectrogramAnalyzer) throws(SignalPathError) {
        guard presentation.bins(of: analyzer).isEmpty, let range = presentation.frequencies else { return }
        let nyquist = Double(analyzer.file.format.sampleRate) / 2
        let asked =
            range.upperBound.isFinite
            ? "between \(UnitFormat.shortest(range.lowerBound)) and \(UnitFormat.shortest(range.upperBound)) Hz" : "at or above \(UnitFormat.shortest(range.lowerBound)) Hz"
        throw .invalidRequest(path: analyzer.file.path, reason: "no bin lies \(asked) (Nyquist: \(UnitFormat.shortest(nyquist)) Hz)")
    }

    /// 0 dB for dBFS and power (a full-scale sine reads 0 and -3.01); for a density, which has no
    /// such top, the highest level rounded up to 10 dB.
    static func defaultCeiling(_ levels: [[Double]], scale: SpectrumScale) -> Double {
        defaultCeiling(highest: levels.lazy.flatMap { $0 }.filter(\.isFinite).max() ?? 0, scale: scale)
    }

    static func defaultCeiling(highest: Double, scale: SpectrumScale) -> Double {
        guard scale == .psd else { return 0 }
        return highest.isFinite ? (highest / 10).rounded(.up) * 10 : 0
    }
}
