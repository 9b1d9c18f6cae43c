/// How every report names the stream it measured (`AudioFile.namedStream`): beside the path in
/// text heads and chart titles, and as a `stream` object after `path` in JSON.
extension AudioStream {
    /// `stream 1 (aac, eng, "Commentary")`: the number `--stream` takes, the codec, the language
    /// and title tags where the file has them; text from the file sanitized for a terminal.
    public var label: String {
        var parts = [codec]
        if let language { parts.append(TerminalText.sanitized(language)) }
        if let title { parts.append("\"" + TerminalText.sanitized(title) + "\"") }
        return "stream \(number) (\(parts.joined(separator: ", ")))"
    }

    /// `{"index": 1, "codec": "aac", "language": "eng", "title": "Commentary"}`, null for a missing tag.
    public var json: JSONValue {
        .object([
            .init("index", .integer(Int64(number))), .init("codec", .string(codec)),
            .init("language", language.map { .string($0) } ?? .null), .init("title", title.map { .string($0) } ?? .null),
        ])
    }

    /// A report's head: the path and, when a stream is named, its label
    /// (`film.mkv · stream 1 (aac, eng, "Commentary")`); safe to show on a terminal.
    public static func heading(path: String, stream: AudioStream?) -> String {
        TerminalText.sanitized(path) + (stream.map { " · " + $0.label } ?? "")
    }

    /// A JSON entry's first members: `path`, then `stream` when one is named.
    public static func sourceMembers(path: String, stream: AudioStream?) -> [JSONValue.Member] {
        [.init("path", .string(path))] + (stream.map { [.init("stream", $0.json)] } ?? [])
    }
}
