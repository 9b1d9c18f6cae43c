/// CSV/TSV of spectrogram frames: wide (a row per frame and channel, a column per bin) or long (a
/// row per frame, bin and channel).
public struct SpectrogramTable {
    public let analyzer: SpectrogramAnalyzer
    public let format: DelimitedText.Format
    public let long: Bool
    /// With several files, every row starts with the path.
    public let path: String?

    public init(analyzer: SpectrogramAnalyzer, format: DelimitedText.Format, long: Bool, path: String?) {
        self.analyzer = analyzer
        self.format = format
        self.long = long
        self.path = path
    }

    private var channelNames: [String] { analyzer.channelNames }

    public func header() -> String {
        var table = DelimitedText(format)
        let prefix = path == nil ? [] : ["path"]
        if long {
            table.append(prefix + ["time_s", "frequency_hz", "channel", "level_db"])
        } else {
            table.append(prefix + ["time_s"] + (channelNames.count > 1 ? ["channel"] : []) + analyzer.frequencies.map(UnitFormat.shortest))
        }
        return table.text
    }

    /// The rows of one frame; levels in dBFS to 2 decimals, empty for digital silence.
    public mutating func rows(_ frame: SpectrogramAnalyzer.Frame) -> String {
        var table = DelimitedText(format)
        let levels = analyzer.spectrum(of: frame).values(in: .dbfs)
        let time = UnitFormat.fixed(analyzer.time(of: frame), 6)
        let prefix = path.map { [$0] } ?? []
        let frequencies = analyzer.frequencies
        for (channel, name) in channelNames.enumerated() {
            let fields = levels[channel].map { $0.isFinite ? UnitFormat.fixed($0, 2) : "" }
            if long {
                for (bin, field) in fields.enumerated() {
                    table.append(prefix + [time, UnitFormat.shortest(frequencies[bin]), name, field])
                }
            } else {
                table.append(prefix + [time] + (channelNames.count > 1 ? [name] : []) + fields)
            }
        }
        return table.text
    }
}

extension SpectrogramAnalyzer {
    public static let schema = "signalpath.spectrogram/1"

    /// A title that states file, range and parameters.
    public var title: String {
        let rate = Double(file.format.sampleRate)
        return "\(TerminalText.sanitized(file.path)) · \(UnitFormat.fixed(Double(frames.lowerBound) / rate, 2))–\(UnitFormat.fixed(Double(frames.upperBound) / rate, 2)) s · "
            + "\(parameters.window.name) \(parameters.fftSize)-pt FFT, \(UnitFormat.fixed(rate / Double(parameters.fftSize), 2)) Hz bins, "
            + "\(UnitFormat.fixed(parameters.overlap * 100, 0)) % overlap · dBFS"
    }

    /// Path and conventions, for JSON.
    public var jsonMembers: [JSONValue.Member] {
        let window = self.window
        let rate = Double(file.format.sampleRate)
        return [
            .init("path", .string(file.path)),
            .init("sample_rate", .integer(Int64(file.format.sampleRate))),
            .init("channels", .array(channelNames.map { .string($0) })),
            .init("fft_size", .integer(Int64(parameters.fftSize))),
            .init("window_size", .integer(Int64(parameters.windowSize))),
            .init("window", .string(parameters.window.name)),
            .init("bin_width_hz", .number(rate / Double(parameters.fftSize))),
            .init("enbw_hz", .number(window.enbwHertz(sampleRate: file.format.sampleRate))),
            .init("overlap", .number(parameters.overlap)),
            .init("hop", .integer(Int64(parameters.hop))),
            .init("reference", .string(SpectrumScale.dbfs.reference)),
            .init("frequencies_hz", .array(frequencies.map { .number($0) })),
        ]
    }

    /// One JSON object per channel of a frame: time_s, channel, levels_db (null for silence).
    public func jsonFrames(_ frame: Frame) -> [[JSONValue.Member]] {
        let levels = spectrum(of: frame).values(in: .dbfs)
        let time = JSONValue.number((self.time(of: frame) * 1e6).rounded() / 1e6)
        return channelNames.enumerated().map { channel, name in
            [
                .init("time_s", time), .init("channel", .string(name)),
                .init("levels_db", .array(levels[channel].map { .number($0.isFinite ? ($0 * 100).rounded() / 100 : nil) })),
            ]
        }
    }
}
