import ArgumentParser
import SignalPathKit

struct Waveform: AsyncParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "waveform",
        _superCommandName: "signalpath",
        abstract: "Min/max envelope and RMS over time: a braille overview on a terminal, CSV when piped.",
        discussion: """
            Each column of the picture (or of the data) covers an exact run of frames: column c of \
            C covers frames floor(c*N/C) to floor((c+1)*N/C) of the range's N frames, read in one \
            pass in fixed chunks (the same result with any --jobs). Per column and channel: the \
            smallest and largest sample, the RMS (a full-scale square wave reads 1) and the clipped \
            samples, as analyze counts them: in runs of 3 or more at full scale (the largest code \
            of the format).

            On a terminal: a lane per channel (--channel all, the default; or one channel, or \
            mix), two braille dots per cell across, the envelope dimmed around the RMS band, \
            clipped columns marked x under the lanes in red. --scale linear (default) spans ±1 \
            full scale; --scale dbfs draws |x| in dB from --floor (default -60) at the centre line \
            to 0 dBFS at the edges.

            Piped, or with --format csv: a row per column and channel, \
            column,start_frame,end_frame,start_s,end_s,channel,min,max,rms,clipped, linear \
            values (a path column first when several files share the table); --columns sets how \
            many (default 1000). --format json and ndjson write the same columns per channel with \
            their conventions. An --output file's extension picks the format (.csv, .tsv, .json, \
            .ndjson; .png, .svg, .pdf: a chart with a column per pixel, --size, --theme, --dpi); \
            a pattern such as 'pictures/{stem}.png' writes one file per input ({stem}, {name}, \
            {dir}), --jobs of them at once, replacing existing files only with --force.

            Examples:
              signalpath waveform take.wav
              signalpath waveform take.wav --scale dbfs --channel mix
              signalpath waveform take.wav --columns 200 --format csv > envelope.csv
              signalpath waveform take.wav --output take.png --scale dbfs
              signalpath waveform takes/*.wav --output 'pictures/{stem}.png'
            """
    )

    static let name = "waveform"
    static let formats: [OutputFormat] = [.plot, .csv, .tsv, .json, .ndjson, .svg, .png, .pdf]
    static let view = TerminalView.picture
    static let writesFilePerInput = true
    /// Columns of data when --columns is not given.
    static let defaultColumns = 1000
    /// The centre line's level with --scale dbfs when --floor is not given.
    static let defaultFloor = -60.0

    @OptionGroup var input: FileArguments
    @OptionGroup var range: RangeOptions
    @OptionGroup var streamOption: StreamOptions
    @OptionGroup var output: OutputOptions<Waveform>
    @OptionGroup var jobs: JobOptions
    @OptionGroup var plotting: PlotOptions

    @Option(
        name: .long, help: ArgumentHelp("Channel: 1…N, left, right, a position (FL, LFE, SL, …), mix or all (default: all).", valueName: "channel"),
        transform: OptionValue.channelOrAll)
    var channel: ChannelSelection?

    @Option(
        name: .long, help: ArgumentHelp("Columns of data (CSV, TSV, JSON, NDJSON) (default: \(defaultColumns)); a picture has one per dot or pixel.", valueName: "n"),
        transform: OptionValue.columns)
    var columns: Int?

    @Option(name: .long, help: "Vertical scale of the picture: linear (±1 full scale) or dbfs (|x| in dB from --floor to 0) (default: linear).")
    var scale: WaveformPlot.Scale?

    // Levels are negative: `.unconditional` takes `-40` as the value, not as an option.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("With --scale dbfs: the level at the centre line, dBFS, below 0 (default: \(UnitFormat.shortest(defaultFloor))).", valueName: "db"))
    var floor: Double?

    /// Options that would change nothing in the chosen format are refused.
    func validate() throws {
        let format = output.resolvedFormat
        try output.check(inputs: input.files)
        if let floor, !(floor.isFinite && (-400..<0).contains(floor)) { throw ValidationError("--floor takes -400 dBFS up to, not including, 0.") }
        try plotting.refuseInapplicable(output, pictureOnly: [("--floor", floor != nil)])
        if format.isPicture {
            if columns != nil {
                throw output.dataOnly(
                    "--columns", "applies to data", else: "--columns applies to data; a picture has a column per braille dot or pixel (see --width, --size).")
            }
            if floor != nil && scale != .dbfs { throw ValidationError("--floor applies to --scale dbfs, the level at the centre line.") }
        } else if scale != nil {
            throw output.pictureOnly("--scale", "applies to a picture", else: "--scale applies to a picture; data holds linear values (dB is 20·log10 of them).")
        }
    }

    func run() async throws {
        let format = output.resolvedFormat
        let command = self
        try await FileBatch(files: input.files, output: output, schema: WaveformAnalyzer.schema, jobs: jobs.workers).run { item, writer throws(SignalPathError) in
            try await command.write(item, format: format, to: &writer)
        }
    }

    private func write(_ item: FileBatch<Waveform>.Item, format: OutputFormat, to writer: inout ResultWriter) async throws(SignalPathError) {
        // Columns are exact frame ranges, so the length comes first: a stream is spooled to a
        // temporary file (as FLAC and Ogg streams always are) and decoded by libsndfile, which is
        // bit-identical to the direct PCM decoder (DecodingTests).
        let file = try await AudioFile.openNoting(item.path, stream: streamOption.stream, decoding: item.path == "-" ? .libsndfile : .automatic)
        let frames = try range.frames(in: file)
        let scale = self.scale ?? .linear
        let wanted: Int
        switch format {
        case .plot:
            let size = plotting.size(defaultHeight: Self.defaultHeight(channels: file.format.channels))
            wanted = WaveformPlot.plotArea(in: Area(x: 0, y: 0, width: size.width, height: size.height)).width * 2
        case .svg, .png, .pdf:
            let rate = Double(file.format.sampleRate)
            let names = (channel ?? .all).names(in: file.format.channelLayout)
            wanted = WaveformPlot.chartColumns(
                plotting.chartStyle, channels: names, scale: scale, floor: floorLevel, times: Double(frames.lowerBound) / rate...Double(frames.upperBound) / rate)
        default:
            wanted = columns ?? Self.defaultColumns
        }
        let analyzer = try WaveformAnalyzer(file: file, frames: frames, channels: channel ?? .all, columns: max(1, wanted))
        let progress = ProgressLine(label: "waveform \(item.path)", enabled: StandardError.isTerminal && output.pattern == nil)
        defer { progress.finish() }
        let waveform = try await analyzer.run(workers: item.workers) { progress.update($0) }
        let plotHeight = Self.defaultHeight(channels: file.format.channels)
        try writer.write(waveform, path: item.pathColumn, picture: PictureOutput(plotting: plotting, plotHeight: plotHeight) { plot(waveform) })
    }

    private var floorLevel: Double { floor ?? Self.defaultFloor }

    /// The view of `waveform` in the chosen scale.
    private func plot(_ waveform: WaveformEnvelope) -> WaveformPlot {
        var plot = WaveformPlot(title: Self.title(waveform, scale: scale ?? .linear, floor: floorLevel), waveform: waveform)
        plot.scale = scale ?? .linear
        plot.floor = floorLevel
        plot.monochrome = plotting.isMonochrome(.plot)
        return plot
    }

    /// Rows for the picture: five per lane and the title and time axis, within a terminal.
    static func defaultHeight(channels: Int) -> Int { min(40, 3 + 5 * max(1, min(channels, 6))) }

    /// `take.wav · 0.000 s–2.000 s · 48000 Hz · linear · 12 clipped samples`: clipped as analyze counts
    /// them (runs of at least 3 full-scale samples), over the lanes drawn (the mix: its frames with any).
    static func title(_ waveform: WaveformEnvelope, scale: WaveformPlot.Scale, floor: Double) -> String {
        let clipped = waveform.clipped.reduce(0, +)
        let heading = AudioStream.heading(path: waveform.path, stream: waveform.stream)
        return "\(heading) · \(UnitFormat.times(waveform.seconds.lowerBound, waveform.seconds.upperBound, separator: "–")) · "
            + "\(waveform.sampleRate) Hz · " + (scale == .linear ? "linear" : "dBFS from \(UnitFormat.fixed(floor, 0))")
            + (clipped > 0 ? " · \(UnitFormat.grouped(clipped)) clipped sample\(clipped == 1 ? "" : "s")" : "")
    }
}
