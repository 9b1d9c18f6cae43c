/// `duplicates`' report: text, or JSON (`signalpath.duplicates/1`), from the one result.
public struct AudioDuplicatesReport: DocumentReport {
    public static let schema = "signalpath.duplicates/1"

    public let duplicates: AudioDuplicates
    /// The scan database they were found in, as named.
    public let database: String

    public init(_ duplicates: AudioDuplicates, database: String) {
        self.duplicates = duplicates
        self.database = database
    }

    /// Offsets and similarities to 3 decimals: a sub-fingerprint is 0.124 s.
    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    public var documentMembers: [JSONValue.Member] {
        let (exact, near, matcher) = (duplicates.exact, duplicates.near, duplicates.matcher)
        func file(_ file: AudioDuplicates.File) -> [JSONValue.Member] {
            [.init("path", .string(file.path)), .init("duration_s", .number(file.seconds))]
        }
        let exactGroups: [JSONValue] = exact.map { group in
            .object([.init("audio_md5", .string(group.audioMD5)), .init("files", .array(group.files.map { .object(file($0)) }))])
        }
        let nearGroups: [JSONValue] = near.map { group in
            .object([
                .init(
                    "files",
                    .array(
                        group.map { member in
                            .object(
                                file(member.file) + [
                                    .init("offset_s", .number(Self.rounded(member.offsetSeconds))), .init("similarity", .number(member.similarity.map(Self.rounded))),
                                ])
                        }))
            ])
        }
        return [
            .init("database", .string(database)), .init("files_with_audio_md5", .integer(Int64(duplicates.hashedFiles))),
            .init("files_with_fingerprint", .integer(Int64(duplicates.fingerprintedFiles))),
            .init(
                "rule",
                .object([
                    "minimum_similarity": .number(matcher.minimumSimilarity),
                    "minimum_overlap_s": .number(Self.rounded(Double(matcher.minimumOverlap) * FingerprintMatcher.itemSeconds)),
                ])),
            .init("exact", .array(exactGroups)), .init("near", .array(nearGroups)),
        ]
    }

    /// Two sections, a blank line between groups; paths sanitized (a name is not a terminal command).
    public var documentText: String {
        let (exact, near, hashedFiles, fingerprintedFiles) = (duplicates.exact, duplicates.near, duplicates.hashedFiles, duplicates.fingerprintedFiles)
        var lines: [String] = []
        lines.append("Exact copies (the same audio MD5): \(exact.count) group\(exact.count == 1 ? "" : "s") (\(hashedFiles) files with an audio MD5)")
        for group in exact {
            lines.append("")
            lines.append("  \(group.audioMD5)")
            lines += group.files.map { "    \(TerminalText.sanitized($0.path))" }
        }
        lines.append("")
        lines.append("Near copies (Chromaprint): \(near.count) group\(near.count == 1 ? "" : "s") (\(fingerprintedFiles) files with a fingerprint)")
        for (number, group) in near.enumerated() {
            lines.append("")
            lines.append("  group \(number + 1)    offset   similarity")
            for member in group {
                let offset = "+" + UnitFormat.fixed(member.offsetSeconds, 2) + " s"
                let similarity = member.similarity.map { UnitFormat.fixed($0, 3) } ?? "  -  "
                let padded = String(repeating: " ", count: max(0, 10 - offset.count)) + offset
                lines.append("  \(padded)   \(similarity)        \(TerminalText.sanitized(member.file.path))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
