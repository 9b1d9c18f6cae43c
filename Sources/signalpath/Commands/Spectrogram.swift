import ArgumentParser
import SignalPathKit

struct Spectrogram: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time × frequency: a heat map on a terminal, CSV when piped.",
        discussion: """
            On a terminal: a heat map as wide as the terminal, each column the mean power of the \
            segments in its slice of the range, two rows per line (half blocks), in a perceptual \
            colour map (--colormap viridis, magma, grayscale); without colour, a shade ramp. Levels \
            are dB re full scale as in `spectrum` (a full-scale sine reads 0 dBFS), shown from \
            --floor to --ceiling (default -120 to 0).

            CSV: one row per segment (every hop): time_s (the middle of the segment), then one \
            column per bin, the header naming each bin's frequency in Hz (0, 11.71875, …); with \
            several channels a channel column follows time_s. --long gives \
            time_s,frequency_hz,channel,level_db rows instead. --format json writes the same frames.

            Examples:
              signalpath spectrogram take.wav
              signalpath spectrogram take.wav --range 10s..20s --colormap magma --linear
              signalpath spectrogram take.wav --fft-size 1024 --format csv > frames.csv
              signalpath spectrogram take.wav --output take.svg
            """
    )

    @OptionGroup var input: FileArguments
    @OptionGroup var range: RangeOptions
    @OptionGroup var engine: SpectrumEngineOptions
    @OptionGroup var output: MachineOutputOptions
    @OptionGroup var plotting: PlotOptions

    @Option(name: .long, help: ArgumentHelp("Channel: 1…N, left, right, mix or all (default: mix for a plot, all for data).", valueName: "channel"))
    var channel: String?

    @Option(name: .long, help: "Colour map of the heat map: viridis, magma or grayscale.")
    var colormap: ColorMap = .viridis

    @Flag(name: .long, help: "CSV as time_s,frequency_hz,channel,level_db rows.")
    var long = false

    func validate() throws {
        if let channel, channel != "all", ChannelSelection(parsing: channel) == nil {
            throw ValidationError("Unknown channel '\(channel)'. Use a number from 1, left, right, mix or all.")
        }
    }

    func run() async throws {
        let format = output.format ?? (StandardOutput.isTerminal || plotting.output != nil ? .plot : .csv)
        let timeRange = try range.timeRange()
        let channels = channel.flatMap { $0 == "all" ? ChannelSelection.all : ChannelSelection(parsing: $0) } ?? (format == .plot ? .mix : .all)
        var failures = FailureTally()
        var documents: [JSONValue] = []
        for (index, path) in input.files.enumerated() {
            do throws(SignalPathError) {
                let file = try AudioFile.openNoting(path)
                let frames = try timeRange.frames(in: path, sampleRate: file.format.sampleRate, frames: file.format.frames)
                let parameters = engine.parameters(sampleRate: file.format.sampleRate)
                switch format {
                case .plot, .text:
                    try plot(file, frames: frames, channels: channels, parameters: parameters)
                case .csv, .tsv:
                    let analyzer = try SpectrogramAnalyzer(file: file, frames: frames, channels: channels, parameters: parameters, columns: nil)
                    var table = SpectrogramTable(analyzer: analyzer, format: format == .tsv ? .tsv : .csv, long: long, path: input.files.count > 1 ? path : nil)
                    if index == 0 { print(table.header(), terminator: "") }
                    try analyzer.run { frame throws(SignalPathError) in print(table.rows(frame), terminator: "") }
                case .json, .ndjson:
                    let analyzer = try SpectrogramAnalyzer(file: file, frames: frames, channels: channels, parameters: parameters, columns: nil)
                    var frameObjects: [JSONValue] = []
                    try analyzer.run { frame throws(SignalPathError) in
                        let objects = analyzer.jsonFrames(frame)
                        if format == .ndjson {
                            for object in objects {
                                print(JSONValue.object([.init("schema", .string(SpectrogramAnalyzer.schema)), .init("path", .string(path))] + object).serialized())
                            }
                        } else {
                            frameObjects += objects.map(JSONValue.object)
                        }
                    }
                    if format == .json { documents.append(.object(analyzer.jsonMembers + [.init("frames", .array(frameObjects))])) }
                }
            } catch {
                failures.record(error)
            }
        }
        if format == .json {
            print(JSONValue.object(["schema": .string(SpectrogramAnalyzer.schema), "files": .array(documents)]).serialized(pretty: true))
        }
        try failures.finish()
    }

    private func plot(_ file: AudioFile, frames: Range<Int64>, channels: ChannelSelection, parameters: SpectrumParameters) throws(SignalPathError) {
        let size = plotting.size(defaultHeight: 32)
        let plotArea = SpectrogramPlot.plotArea(in: Area(x: 0, y: 0, width: size.width, height: size.height))
        let columns = max(1, plotArea.width)
        let selected = channels == .all ? ChannelSelection.mix : channels
        let analyzer = try SpectrogramAnalyzer(file: file, frames: frames, channels: selected, parameters: parameters, columns: columns)
        var levels: [[Double]] = []
        try analyzer.run { frame throws(SignalPathError) in levels.append(analyzer.spectrum(of: frame).values(in: .dbfs)[0]) }
        let rate = Double(file.format.sampleRate)
        var view = SpectrogramPlot(
            title: analyzer.title, frequencies: analyzer.frequencies, frames: levels,
            times: Double(frames.lowerBound) / rate...Double(frames.upperBound) / rate)
        view.logarithmic = !plotting.linear
        view.floor = plotting.floor
        view.ceiling = plotting.ceiling ?? 0
        view.shades = plotting.output == nil && plotting.depth == .none
        try plotting.emit(defaultHeight: 32, theme: Theme(colorMap: colormap)) { canvas, area in view.draw(into: &canvas, area: area) }
    }
}
