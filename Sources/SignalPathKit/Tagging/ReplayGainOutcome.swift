/// What `replaygain` did with one file, in every form the command writes it: the report for
/// people, a table row, the JSON object (`signalpath.replaygain/1`, docs/REPLAYGAIN.md).
public struct ReplayGainOutcome: Report, Sendable {
    public enum Status: String, Sendable {
        case written, wouldWrite = "would_write", current
    }

    public var path: String
    public var status: Status
    /// The loudness and the fields written (or to write); nil for a file whose tags are current,
    /// which is not measured again.
    public var gain: ReplayGain?
    /// Which peak the fields hold: `sample` or `true`.
    public var peak: String

    public init(path: String, status: Status, gain: ReplayGain?, peak: String) {
        self.path = path
        self.status = status
        self.gain = gain
        self.peak = peak
    }

    public var reportText: String? {
        var first = "\(TerminalText.sanitized(path)): " + (gain.map { UnitFormat.fixed($0.trackLoudness, 2) + " LUFS, " } ?? "")
        first += status == .wouldWrite ? "would write" : status.rawValue
        if let album = gain?.album { first += " (album \(UnitFormat.fixed(album.loudness, 2)) LUFS)" }
        return ([first] + (gain?.fields ?? []).map { "  \($0.key)=\($0.value)" }).joined(separator: "\n")
    }

    public static let csvHeader = [
        "path", "container", "status", "loudness_lufs", "track_gain_db", "track_peak", "album_loudness_lufs", "album_gain_db", "album_peak", "peak",
    ]

    /// One row per file, with the decimals of the tags' own fields (gains 2, peaks 6); empty where
    /// JSON has null.
    public func appendRecords(to table: inout DelimitedText, header: Bool, path: String?) {
        func field(_ value: Double?, _ decimals: Int) -> String { value.map { UnitFormat.fixed($0, decimals) } ?? "" }
        if header { table.append(Self.csvHeader) }
        table.append([
            self.path, gain?.container.rawValue ?? "", status.rawValue, field(gain?.trackLoudness, 2), field(gain?.trackGain, 2), field(gain?.trackPeak, 6),
            field(gain?.album?.loudness, 2), field(gain?.albumGain, 2), field(gain?.album?.peak, 6), peak,
        ])
    }

    public var jsonMembers: [JSONValue.Member] {
        func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
        let fields = gain?.fields ?? []
        return [
            .init("path", .string(path)), .init("container", gain.map { .string($0.container.rawValue) } ?? .null), .init("status", .string(status.rawValue)),
            .init("loudness_lufs", number(gain?.trackLoudness)), .init("track_gain_db", number(gain?.trackGain)),
            .init("track_peak", number(gain?.trackPeak)), .init("album_loudness_lufs", number(gain?.album?.loudness)),
            .init("album_gain_db", number(gain?.albumGain)), .init("album_peak", number(gain?.album?.peak)),
            .init("peak", .string(peak)), .init("fields", .object(fields.map { .init($0.key, .string($0.value)) })),
        ]
    }
}
