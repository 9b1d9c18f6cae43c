/// How `events` writes what it finds: one row per event in a table for people, CSV/TSV, JSON
/// (`signalpath.events/2`) and NDJSON (one line per event), with the rules in `conventions`.
/// Version 2 put a loudness jump's level in `level_lufs`, where version 1 wrote it in `level_dbfs`.
public struct EventOutput: Sendable {
    public static let schema = "signalpath.events/2"
    public let path: String
    /// The stream searched, when reports name it (`AudioFile.namedStream`).
    public let stream: AudioStream?
    public let format: AudioFormat
    public let frames: Range<Int64>
    public let settings: EventSettings

    public init(path: String, stream: AudioStream? = nil, format: AudioFormat, frames: Range<Int64>, settings: EventSettings) {
        self.path = path
        self.stream = stream
        self.format = format
        self.frames = frames
        self.settings = settings
    }

    private var rate: Double { Double(format.sampleRate) }
    private func seconds(_ frame: Int64) -> Double { SignalAnalysis.rounded(Double(frame) / rate) }
    /// The table's times all read in the shape of the range's end (a column of one shape).
    private var timeShape: UnitFormat.TimeShape { UnitFormat.TimeShape(Double(frames.upperBound) / rate) }

    /// The channel's name (`all` for events of every channel).
    public func channelName(_ event: AudioEvent) -> String {
        guard let channel = event.channel else { return "all" }
        let names = format.channelLayout.names
        return channel < names.count ? names[channel] : "ch\(channel + 1)"
    }

    // MARK: JSON

    public func jsonMembers(_ event: AudioEvent) -> [JSONValue.Member] {
        [
            .init("type", .string(event.kind.rawValue)), .init("channel", .string(channelName(event))),
            .init("start_s", .number(seconds(event.frames.lowerBound))), .init("end_s", .number(seconds(event.frames.upperBound))),
            .init("duration_s", .number(seconds(Int64(event.frames.count)))),
            .init("level_dbfs", .number(event.levelDBFS.map { SignalAnalysis.rounded($0, 2) })),
            .init("level_lufs", .number(event.loudnessLUFS.map { SignalAnalysis.rounded($0, 2) })),
            .init("detail", .string(event.detail)),
        ]
    }

    /// `path`, and `stream` when one is named: what opens each JSON entry and NDJSON line.
    public var sourceMembers: [JSONValue.Member] { AudioStream.sourceMembers(path: path, stream: stream) }

    /// The file's entry: path, format, range, conventions, summary and events (`objects`, each
    /// event's `jsonMembers(_:)`).
    public func jsonMembers(objects: [JSONValue], summary: EventSummary) -> [JSONValue.Member] {
        sourceMembers + [
            .init(
                "format",
                .object([
                    "sample_rate": .integer(Int64(format.sampleRate)), "channels": .integer(Int64(format.channels)),
                    "duration_s": .number(seconds(format.frames ?? frames.upperBound)),
                ])),
            .init(
                "range",
                .object([
                    "start_s": .number(seconds(frames.lowerBound)), "end_s": .number(seconds(frames.upperBound)),
                ])),
            .init("conventions", conventions),
            .init("summary", summaryJSON(summary)),
            .init("events", .array(objects)),
        ]
    }

    /// What the file's events add up to (JSON's `summary`; NDJSON's last line for the file).
    public func summaryJSON(_ summary: EventSummary) -> JSONValue {
        .object([
            "events": .integer(Int64(summary.counts.values.reduce(0, +))),
            "longest_silence_s": .number(SignalAnalysis.rounded(summary.longestSilence)),
            "clipped_samples": .integer(summary.clippedSamples),
            "longest_dc_offset_s": .number(SignalAnalysis.rounded(summary.longestDC)),
            "largest_dc_offset": .number(SignalAnalysis.rounded(summary.largestDC)),
        ])
    }

    /// Each rule, with the thresholds in use.
    public var conventions: JSONValue {
        .object([
            .init("times", .string("seconds from the start of the file; end_s is the first frame after the event; rows in the order events end")),
            .init("silence_threshold_dbfs", .number(settings.silenceThreshold)),
            .init("min_silence_s", .number(settings.minimumSilence)),
            .init(
                "silence",
                .string(
                    "every channel's |sample| below the threshold for at least min_silence_s, judged sample by sample as ffmpeg silencedetect; level: the largest |sample| in it"
                )),
            .init("clip_run", .integer(Int64(settings.minimumClipRun))),
            .init(
                "clipping",
                .string(
                    "per channel, runs of >= clip_run samples at full scale (|x| >= the largest code: 1 - 2^-(bits-1) for integer PCM, 1.0 for float), runs less than 10 ms apart in one event; level: the peak"
                )),
            .init(
                "dropout",
                .string(
                    "per channel, a gap inside sound of 1 ms or more, any length: a run of one value (digital zero or any other, not full scale) with an RMS about the mean of 20 dB or more above the silence threshold over the 10 ms each side (to the sample); or a fall whose first 1 ms lies 40 dB or more below the 10 ms before it, whose last 1 ms lies 40 dB below the 10 ms after it (and 20 dB below the 1 ms after it), both 10 ms at least 20 dB above the silence threshold, no 1 ms block between coming back to within 20 dB of the level before, and its mean 40 dB or more below both sides (to the sample); findings within 1 ms of each other on a channel are one gap, a gap every channel shares alike is one row of channel all, and a gap a silence row covers is not listed; level: the repeated value or the gap's mean level"
                )),
            .init(
                "dc_offset",
                .string(
                    "per channel: the mean over 1 s, every 100 ms, above max_dc (fraction of full scale) and steady (each 100 ms mean in it within 50 % of it); the span runs from the first to the last 100 ms block of those windows whose own mean is above it, spans less than 1 s apart are one; level: the span's mean in dBFS"
                )),
            .init("max_dc", .number(settings.maximumDC)),
            .init(
                "dc_offset",
                .string(
                    "per channel: the mean over 1 s, every 100 ms, above max_dc (fraction of full scale) and steady (each 100 ms mean in it within 50 % of it); the span runs from the first to the last 100 ms block of those windows whose own mean is above it; level: the span's mean in dBFS"
                )),
            .init("max_jump_lu", .number(settings.maximumJump)),
            .init(
                "loudness_jump",
                .string(
                    "short-term loudness (BS.1770-4, 3 s, every 100 ms) changing by more than max_jump_lu between two values 1 s apart, both above -70 LUFS; consecutive ones in one event; level_lufs: the short-term loudness at its end"
                )),
            .init(
                "channel_layout",
                .object([
                    "name": format.channelLayout.name.map { .string($0) } ?? .null, "source": .string(format.channelLayout.source.rawValue),
                    "names": .string(ChannelLayout.rule),
                ])),
        ])
    }

    // MARK: CSV and text

    public static let csvHeader = ["path", "type", "channel", "start_s", "end_s", "duration_s", "level_dbfs", "level_lufs", "detail"]

    public func csvRow(_ event: AudioEvent) -> [String] {
        [
            path, event.kind.rawValue, channelName(event), UnitFormat.fixed(Double(event.frames.lowerBound) / rate, 6),
            UnitFormat.fixed(Double(event.frames.upperBound) / rate, 6), UnitFormat.fixed(Double(event.frames.count) / rate, 6),
            event.levelDBFS.map { UnitFormat.fixed($0, 2) } ?? "", event.loudnessLUFS.map { UnitFormat.fixed($0, 2) } ?? "", event.detail,
        ]
    }

    /// The table's heading for this file.
    public var textHeading: String? {
        let start = Double(frames.lowerBound) / rate, end = start + Double(frames.count) / rate
        return "\(AudioStream.heading(path: path, stream: stream))  (\(UnitFormat.times(start, end)), \(format.sampleRate) Hz, \(format.channels) ch)\n"
            + Self.textColumns(["type", "channel", "start", "end", "duration", "level", "detail"])
    }

    public func textLines(_ event: AudioEvent) -> String {
        Self.textColumns([
            event.kind.rawValue, TerminalText.sanitized(channelName(event)), UnitFormat.time(Double(event.frames.lowerBound) / rate, shape: timeShape),
            UnitFormat.time(Double(event.frames.upperBound) / rate, shape: timeShape), UnitFormat.time(Double(event.frames.count) / rate),
            event.level.map { UnitFormat.fixed($0, 1) + (event.kind == .loudnessJump ? " LUFS" : " dBFS") } ?? "-", event.detail,
        ])
    }

    /// The line under the table: the counts and the thresholds.
    public func closingText(_ summary: EventSummary) -> String {
        let total = summary.counts.values.reduce(0, +)
        let counts = AudioEvent.Kind.allCases.compactMap { kind in summary.counts[kind].map { "\($0) \(kind.rawValue)" } }
        return (total == 0 ? "no events" : "\(total) event\(total == 1 ? "" : "s"): " + counts.joined(separator: ", ")) + "\n"
            + "rules: silence < \(UnitFormat.fixed(settings.silenceThreshold, 1)) dBFS for >= \(UnitFormat.shortest(settings.minimumSilence)) s; "
            + "clipping >= \(settings.minimumClipRun) full-scale samples; dropout: a gap inside sound of >= 1 ms, of one value or 40 dB down; "
            + "DC > \(UnitFormat.shortest(settings.maximumDC * 100)) % steady over 1 s; loudness jump > \(UnitFormat.shortest(settings.maximumJump)) LU in 1 s (docs/EVENTS.md)"
    }

    private static let widths = [14, 8, 13, 13, 13, 12]

    static func textColumns(_ fields: [String]) -> String {
        var line = ""
        for (index, field) in fields.enumerated() {
            if index < widths.count {
                line += field + String(repeating: " ", count: max(1, widths[index] - field.count))
            } else {
                line += field
            }
        }
        return line
    }
}
