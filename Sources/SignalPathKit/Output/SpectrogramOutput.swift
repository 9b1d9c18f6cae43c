/// What a spectrogram shows of its frames: the scale of the levels (a dB scale of `spectrum`) and
/// a frequency range (all bins when nil).
public struct SpectrogramPresentation: Sendable, Equatable {
    public var scale: SpectrumScale
    public var frequencies: ClosedRange<Double>?

    public init(scale: SpectrumScale = .dbfs, frequencies: ClosedRange<Double>? = nil) {
        precondition(scale.isDecibels, "a spectrogram shows levels in dB")
        self.scale = scale
        self.frequencies = frequencies
    }

    /// The bins of `analyzer` inside the frequency range; empty when none lies in it.
    public func bins(of analyzer: SpectrogramAnalyzer) -> Range<Int> {
        let frequencies = analyzer.frequencies
        guard let range = self.frequencies else { return 0..<frequencies.count }
        let first = frequencies.firstIndex { $0 >= range.lowerBound } ?? frequencies.count
        let end = (frequencies.lastIndex { $0 <= range.upperBound } ?? -1) + 1
        return first..<max(first, end)
    }

    /// A frame's levels in the scale, per channel, for the bins in the range.
    public func levels(of frame: SpectrogramAnalyzer.Frame, in analyzer: SpectrogramAnalyzer) -> [[Double]] {
        let bins = bins(of: analyzer)
        return analyzer.spectrum(of: frame).values(in: scale).map { Array($0[bins]) }
    }
}

/// `spectrogram`'s data as its pass makes it: a frame at a time, in CSV/TSV wide (a row per
/// frame and channel, a column per bin) or long (a row per frame, bin and channel), an NDJSON line
/// per frame and channel, or an element of JSON's `frames`. Nothing closes it (no summary).
public struct SpectrogramReport: StreamingReport {
    public let analyzer: SpectrogramAnalyzer
    public let presentation: SpectrogramPresentation
    public let long: Bool
    /// With several files, every row starts with the path.
    public let path: String?

    public init(analyzer: SpectrogramAnalyzer, presentation: SpectrogramPresentation, long: Bool, path: String?) {
        self.analyzer = analyzer
        self.presentation = presentation
        self.long = long
        self.path = path
    }

    private var channelNames: [String] { analyzer.channelNames }
    private var frequencies: [Double] { Array(analyzer.frequencies[presentation.bins(of: analyzer)]) }

    public func appendHeader(to table: inout DelimitedText) {
        let prefix = path == nil ? [] : ["path"]
        if long {
            table.append(prefix + ["time_s", "frequency_hz", "channel", "level_db"])
        } else {
            table.append(prefix + ["time_s"] + (channelNames.count > 1 ? ["channel"] : []) + frequencies.map(UnitFormat.shortest))
        }
    }

    /// The rows of one frame; levels in the presentation's scale to 2 decimals, empty for digital silence.
    public func appendRecord(_ frame: SpectrogramAnalyzer.Frame, to table: inout DelimitedText) {
        let levels = presentation.levels(of: frame, in: analyzer)
        let time = UnitFormat.fixed(analyzer.time(of: frame), 6)
        let prefix = path.map { [$0] } ?? []
        let frequencies = self.frequencies
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
    }

    public var lineMembers: [JSONValue.Member] { AudioStream.sourceMembers(path: analyzer.file.path, stream: analyzer.file.namedStream) }
    public func jsonObjects(_ frame: SpectrogramAnalyzer.Frame) -> [[JSONValue.Member]] { analyzer.jsonFrames(frame, presentation) }
    public func jsonMembers(objects: [JSONValue], summary: Void) -> [JSONValue.Member] {
        analyzer.jsonMembers(presentation) + [.init("frames", .array(objects))]
    }
}

extension SpectrogramAnalyzer {
    public static let schema = "signalpath.spectrogram/1"

    /// A title that states file, range, parameters and the unit of the levels.
    public func title(scale: SpectrumScale) -> String {
        let rate = Double(file.format.sampleRate)
        let unit = scale == .dbfs ? "dBFS" : scale == .psd ? "dB re 1 FS²/Hz" : "dB re 1 FS²"
        let combined = columns == nil || parameters.averaging == .mean ? "" : " · \(parameters.averaging.rawValue) per column"
        let heading = AudioStream.heading(path: file.path, stream: file.namedStream)
        return "\(heading) · \(UnitFormat.times(Double(frames.lowerBound) / rate, Double(frames.upperBound) / rate, separator: "–")) · "
            + "\(parameters.window.name) \(parameters.fftSize)-pt FFT, \(UnitFormat.fixed(rate / Double(parameters.fftSize), 2)) Hz bins, "
            + "\(UnitFormat.fixed(parameters.overlap * 100, 0)) % overlap\(combined) · \(unit)"
    }

    /// Path (and stream) and conventions, for JSON: every frame is one segment (data is not averaged).
    public func jsonMembers(_ presentation: SpectrogramPresentation) -> [JSONValue.Member] {
        let window = self.window
        let rate = Double(file.format.sampleRate)
        return AudioStream.sourceMembers(path: file.path, stream: file.namedStream) + [
            .init("sample_rate", .integer(Int64(file.format.sampleRate))),
            .init("channels", .array(channelNames.map { .string($0) })),
            .init("fft_size", .integer(Int64(parameters.fftSize))),
            .init("window_size", .integer(Int64(parameters.windowSize))),
            .init("window", .string(parameters.window.name)),
            .init("bin_width_hz", .number(rate / Double(parameters.fftSize))),
            .init("enbw_hz", .number(window.enbwHertz(sampleRate: file.format.sampleRate))),
            .init("overlap", .number(parameters.overlap)),
            .init("hop", .integer(Int64(parameters.hop))),
            .init("scale", .string(presentation.scale.rawValue)),
            .init("reference", .string(presentation.scale.reference)),
            .init("frequencies_hz", .array(frequencies[presentation.bins(of: self)].map { .number($0) })),
        ]
    }

    /// One JSON object per channel of a frame: time_s, channel, levels_db (null for silence).
    public func jsonFrames(_ frame: Frame, _ presentation: SpectrogramPresentation) -> [[JSONValue.Member]] {
        let levels = presentation.levels(of: frame, in: self)
        let time = JSONValue.number((self.time(of: frame) * 1e6).rounded() / 1e6)
        return channelNames.enumerated().map { channel, name in
            [
                .init("time_s", time), .init("channel", .string(name)),
                .init("levels_db", .array(levels[channel].map { .number($0.isFinite ? ($0 * 100).rounded() / 100 : nil) })),
            ]
        }
    }
}
