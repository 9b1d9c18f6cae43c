extension SignalAnalysis {
    /// Why a file asked for its audio MD5 has none.
    var audioMD5Absence: String {
        switch format.sampleFormat {
        case .float: "none: float samples (FLAC's MD5 is defined for integers)"
        case .compressed: "none: a lossy codec's decode"
        case .ulaw, .alaw: "none: µ-law and A-law codes"
        // The one way integer samples of up to 24 bits get none (`AudioMD5.abandon`).
        case .pcm(let bits, _) where bits <= 24: "none: the samples use bits below the valid bits the header states (flac refuses such a file)"
        default: "none: more than 24 bits per sample"
        }
    }

    /// `audio_md5` and `embedded_md5` with `--md5`, `fingerprint` with `--fingerprint` (null where
    /// absent); nothing otherwise, so that reports without them stay as they were.
    var identityJSONMembers: [JSONValue.Member] {
        var members: [JSONValue.Member] = []
        if settings.computesAudioMD5 { members += md5JSONMembers }
        if settings.fingerprintSeconds != nil {
            let value: JSONValue =
                fingerprint.map { print in
                    .object([
                        .init("value", .string(print.compressed)), .init("seconds", .number(Self.rounded(print.seconds))),
                        .init("algorithm", .integer(Int64(AudioFingerprint.algorithm))),
                        .init("raw", .array(print.raw.map { .integer(Int64($0)) })),
                    ])
                } ?? .null
            members.append(.init("fingerprint", value))
        }
        return members
    }

    private var md5JSONMembers: [JSONValue.Member] {
        let embedded: JSONValue =
            embeddedMD5.map { embedded in
                .object([
                    .init("source", .string(embedded.source.rawValue)), .init("value", embedded.value.map { .string($0) } ?? .null),
                    .init("matches", embeddedMD5Matches.map { .bool($0) } ?? .null),
                ])
            } ?? .null
        return [.init("audio_md5", audioMD5.map { .string($0) } ?? .null), .init("embedded_md5", embedded)]
    }

    /// The CSV columns of `identityJSONMembers`, on every channel's row, after the others: none
    /// without `--md5` and `--fingerprint`, so that tables without them stay as they were.
    static func identityCSVColumns(_ settings: AnalysisSettings) -> [String] {
        (settings.computesAudioMD5 ? ["audio_md5", "embedded_md5", "embedded_md5_source", "embedded_md5_matches"] : [])
            + (settings.fingerprintSeconds != nil ? ["fingerprint", "fingerprint_duration_s"] : [])
    }

    /// The fields of `identityCSVColumns` (empty where JSON has null; the compressed fingerprint
    /// only, as fpcalc prints it: the raw values are JSON's).
    var identityCSVFields: [String] {
        var fields: [String] = []
        if settings.computesAudioMD5 {
            fields += [
                audioMD5 ?? "", embeddedMD5?.value ?? "", embeddedMD5?.source.rawValue ?? "", embeddedMD5Matches.map { String($0) } ?? "",
            ]
        }
        if settings.fingerprintSeconds != nil {
            fields += [fingerprint?.compressed ?? "", fingerprint.map { UnitFormat.fixed($0.seconds, 6) } ?? ""]
        }
        return fields
    }

    /// What the text report says of the embedded MD5.
    var embeddedMD5Text: String {
        guard let embedded = embeddedMD5 else { return "none" }
        let source = embedded.source == .flacStreamInfo ? "FLAC STREAMINFO" : "BWF MD5 chunk"
        guard let value = embedded.value else { return "unset (\(source) all zeros)" }
        let verdict =
            switch embeddedMD5Matches {
            case true?: "matches"
            case false?: "MISMATCH"
            case nil: "not compared"
            }
        return "\(value) (\(source)): \(verdict)"
    }

    /// The rows of the text report's Identity section: empty unless asked for.
    var identityRows: [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        if settings.computesAudioMD5 { rows += [("Audio MD5", audioMD5 ?? audioMD5Absence), ("Embedded MD5", embeddedMD5Text)] }
        if settings.fingerprintSeconds != nil {
            // The whole fingerprint is JSON's; people see its start and what it covers.
            let text = fingerprint.map { "\($0.compressed.prefix(24))… (\($0.raw.count) sub-fingerprints, first \(UnitFormat.fixed($0.seconds, 1)) s)" }
            rows.append(("Fingerprint", text ?? "none: too little audio, or a stream"))
        }
        return rows
    }
}
