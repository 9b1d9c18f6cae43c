/// What `signalpath info` reports about one file: format facts, tags and how it is decoded.
public struct FileInfo: Sendable, Equatable {
    public var path: String
    public var format: AudioFormat
    public var metadata: [MetadataEntry]
    /// Size on disk in bytes; nil for a stream.
    public var fileSize: Int64?
    /// "direct_pcm", "libsndfile" or "ffmpeg".
    public var decoder: String
    /// Every audio stream of the file, and the one described above (`--stream`).
    public var streams: [AudioStream]
    public var streamNumber: Int
    /// The described stream, when the head names it (`AudioFile.namedStream`).
    public var namedStream: AudioStream?
    /// The described stream's bit rate, stated and measured; nil when not known.
    public var bitRate: BitRate?

    public init(
        path: String, format: AudioFormat, metadata: [MetadataEntry], fileSize: Int64?, decoder: String, streams: [AudioStream] = [],
        streamNumber: Int = 0, namedStream: AudioStream? = nil, bitRate: BitRate? = nil
    ) {
        self.path = path
        self.format = format
        self.metadata = metadata
        self.fileSize = fileSize
        self.decoder = decoder
        self.streams = streams
        self.streamNumber = streamNumber
        self.namedStream = namedStream
        self.bitRate = bitRate
    }

    /// Reads the facts of an open file. For a stream whose header does not give its length, the
    /// stream is decoded to the end to count the frames.
    public init(file: AudioFile) throws(SignalPathError) {
        var format = file.format
        if format.frames == nil {
            let reader = try file.makeReader()
            var buffer = [Float](repeating: 0, count: 16384 * format.channels)
            var frames: Int64 = 0
            while case let count = try reader.read(into: &buffer, frames: 16384), count > 0 { frames += Int64(count) }
            format.frames = frames
        }
        // Only a PCM stream has no length before it is read, and its rate is exact.
        let bitRate = file.bitRate()
        // The decoded stream states what `bitRate` found (PCM's exact rate, an MP3's header).
        let streams = file.streams.map { stream in
            var stream = stream
            if stream.number == file.streamNumber { stream.bitRate = bitRate.stated.map { Int($0.rounded()) } }
            return stream
        }
        self.init(
            path: file.path, format: format, metadata: file.metadata, fileSize: file.source?.size,
            decoder: file.usesDirectPCM ? "direct_pcm" : file.usesFFmpeg ? "ffmpeg" : "libsndfile", streams: streams,
            streamNumber: file.streamNumber, namedStream: file.namedStream, bitRate: bitRate)
    }
}

extension FileInfo {
    public static let schema = "signalpath.info/1"

    /// The snake_case JSON object for this file; later commands use the same names for the same facts.
    public var json: JSONValue { .object(jsonMembers) }

    /// The members of `json`, for callers that add their own (an NDJSON line's `schema`).
    public var jsonMembers: [JSONValue.Member] {
        [
            .init("path", .string(path)),
            .init("container", .string(format.container.rawValue)),
            .init("sample_format", .string(format.sampleFormat.identifier)),
            .init("bit_depth", format.sampleFormat.bitDepth.map { .integer(Int64($0)) } ?? .null),
            .init("sample_rate", .integer(Int64(format.sampleRate))),
            .init("channels", .integer(Int64(format.channels))),
            .init("frames", format.frames.map { .integer($0) } ?? .null),
            .init("truncated", .bool(format.isTruncated)),
            .init("frames_promised", format.framesPromised.map { .integer($0) } ?? .null),
            .init("duration_s", .number(format.duration)),
            .init("file_size_bytes", fileSize.map { .integer($0) } ?? .null),
            .init("bit_rate", Self.bitsPerSecond(bitRate?.stated)),
            .init("measured_bit_rate", Self.bitsPerSecond(bitRate?.measured)),
            .init("decoder", .string(decoder)),
            .init("metadata", .object(metadata.map { JSONValue.Member($0.key, .string($0.value)) })),
            .init("stream", .integer(Int64(streamNumber))),
            .init("streams", .array(streams.map { .object(Self.jsonMembers($0)) })),
        ]
    }

    /// One audio stream: its number (as `--stream` takes it), codec, channels and layout, rate,
    /// duration (exact for the decoded stream, as the container states it for the others) and tags.
    static func jsonMembers(_ stream: AudioStream) -> [JSONValue.Member] {
        [
            .init("index", .integer(Int64(stream.number))), .init("codec", .string(stream.codec)),
            .init("channels", .integer(Int64(stream.channels))), .init("channel_layout", stream.channelLayout.name.map { .string($0) } ?? .null),
            .init("channel_names", .array(stream.channelLayout.names.map { .string($0) })),
            .init("sample_rate", .integer(Int64(stream.sampleRate))), .init("duration_s", .number(stream.duration)),
            .init("bit_rate", bitsPerSecond(stream.bitRate.map(Double.init))), .init("language", stream.language.map { .string($0) } ?? .null),
            .init("title", stream.title.map { .string($0) } ?? .null),
        ]
    }

    /// A bit rate in JSON: whole bits per second, null when unknown.
    static func bitsPerSecond(_ rate: Double?) -> JSONValue {
        rate.map { .integer(Int64($0.rounded())) } ?? .null
    }

    /// Column names for CSV/TSV: one row per file.
    public static let tableColumns = [
        "path", "container", "sample_format", "bit_depth", "sample_rate", "channels",
        "frames", "duration_s", "file_size_bytes", "decoder", "title", "artist", "bit_rate", "measured_bit_rate",
    ]

    /// This file's row, matching `tableColumns`; empty fields for values that do not exist.
    public var tableFields: [String] {
        [
            path, format.container.rawValue, format.sampleFormat.identifier, format.sampleFormat.bitDepth.map(String.init) ?? "",
            String(format.sampleRate), String(format.channels), format.frames.map(String.init) ?? "",
            format.duration.map(UnitFormat.shortest) ?? "", fileSize.map(String.init) ?? "", decoder,
            metadata.first { $0.key == "title" }?.value ?? "", metadata.first { $0.key == "artist" }?.value ?? "",
            bitRate?.stated.map { String(Int64($0.rounded())) } ?? "", bitRate?.measured.map { String(Int64($0.rounded())) } ?? "",
        ]
    }

    /// Aligned lines for people, every file-derived string sanitized for the terminal.
    public var text: String {
        var rows: [(String, String)] = [
            ("container", format.container.displayName),
            ("sample format", format.sampleFormat.displayName),
            ("sample rate", "\(format.sampleRate) Hz"),
            ("channels", FileInfo.channelDescription(format.channelLayout)),
        ]
        if let frames = format.frames, let duration = format.duration {
            rows.append(("duration", "\(UnitFormat.time(duration)) (\(UnitFormat.grouped(frames)) frames)"))
        }
        if let promised = format.framesPromised {
            rows.append(("truncated", "the header promises \(UnitFormat.grouped(promised)) frames"))
        }
        if let fileSize { rows.append(("file size", "\(UnitFormat.bytes(fileSize)) (\(UnitFormat.grouped(fileSize)) bytes)")) }
        if let bitRate = bitRate.flatMap(bitRateDescription) { rows.append(("bit rate", bitRate)) }
        rows.append(("decoder", decoder == "direct_pcm" ? "direct PCM" : decoder == "ffmpeg" ? "FFmpeg" : "libsndfile"))
        if streams.count > 1 || decoder == "ffmpeg" {
            for stream in streams { rows.append(("stream \(stream.number)", Self.streamDescription(stream, selected: stream.number == streamNumber))) }
        }
        for entry in metadata {
            rows.append((entry.key.split(separator: "_").joined(separator: " "), TerminalText.sanitized(entry.value)))
        }
        let width = rows.map(\.0.count).max() ?? 0
        let body = rows.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
        return ([AudioStream.heading(path: path, stream: namedStream)] + body).joined(separator: "\n")
    }

    /// `1411.2 kb/s, exact (PCM: 44100 Hz, 2 channels, 16 bits)`, `128.0 kb/s stated, 128.2 kb/s
    /// measured`, `668.4 kb/s measured (none stated)`; nil when neither is known.
    func bitRateDescription(_ bitRate: BitRate) -> String? {
        func kilobits(_ rate: Double) -> String { UnitFormat.fixed(rate / 1000, 1) + " kb/s" }
        switch (bitRate.stated, bitRate.measured) {
        case (let stated?, _) where bitRate.isExact:
            let bits = format.sampleFormat.bitDepth ?? 0
            return kilobits(stated) + ", exact (PCM: \(format.sampleRate) Hz, \(format.channels) channel\(format.channels == 1 ? "" : "s"), \(bits) bits)"
        case (let stated?, let measured?): return kilobits(stated) + " stated, " + kilobits(measured) + " measured"
        case (let stated?, nil): return kilobits(stated) + " stated"
        case (nil, let measured?): return kilobits(measured) + " measured (none stated)"
        case (nil, nil): return nil
        }
    }

    /// `aac, 2 (stereo), 48000 Hz, 10.005 s, 128.0 kb/s, eng, "Commentary"` (the bit rate the stream
    /// states); the decoded stream is marked.
    static func streamDescription(_ stream: AudioStream, selected: Bool) -> String {
        var parts = [stream.codec, channelDescription(stream.channelLayout), "\(stream.sampleRate) Hz"]
        if let duration = stream.duration { parts.append(UnitFormat.time(duration)) }
        if let bitRate = stream.bitRate { parts.append(UnitFormat.fixed(Double(bitRate) / 1000, 1) + " kb/s") }
        if let language = stream.language { parts.append(TerminalText.sanitized(language)) }
        if let title = stream.title { parts.append("\"" + TerminalText.sanitized(title) + "\"") }
        return parts.joined(separator: ", ") + (selected ? "  (decoded)" : "")
    }

    /// The count, the layout's name and the channels in order: `6 (5.1(side): FL FR FC LFE SL SR)`,
    /// `1 (mono)`; a layout the file does not state says so.
    static func channelDescription(_ layout: ChannelLayout) -> String {
        let count = String(layout.channelCount)
        if let name = layout.name, name == "mono" || name == "stereo" { return "\(count) (\(name))" }
        guard layout.positions.contains(where: { $0 != nil }) else { return count }
        let names = layout.names.joined(separator: " ")
        let assumed = layout.source == .assumed ? "; assumed, the usual order for the count" : ""
        return "\(count) (\(layout.name.map { "\($0): " } ?? "")\(names)\(assumed))"
    }
}
