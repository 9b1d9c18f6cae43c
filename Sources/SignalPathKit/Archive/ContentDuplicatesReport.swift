/// `scan --duplicates`: the database's groups of files with equal content (`ScanStore.duplicates`),
/// a line per file and a blank line between groups, or `signalpath.scan-duplicates/1`.
public struct ContentDuplicatesReport: DocumentReport {
    public static let schema = "signalpath.scan-duplicates/1"

    public let groups: [(sha256: String, sizeBytes: Int64, paths: [String])]
    /// Whether the text's paths are sanitized (for a terminal); piped, they stay as stored, for
    /// the commands that act on them.
    public let sanitizesPaths: Bool

    public init(_ groups: [(sha256: String, sizeBytes: Int64, paths: [String])], sanitizesPaths: Bool) {
        self.groups = groups
        self.sanitizesPaths = sanitizesPaths
    }

    public var documentText: String {
        let text = groups.map { group in
            group.paths.map { "\(group.sha256.prefix(16))  \(group.sizeBytes)  \(sanitizesPaths ? TerminalText.sanitized($0) : $0)" }.joined(separator: "\n")
        }.joined(separator: "\n\n")
        return text.isEmpty ? "" : text + "\n"
    }

    public var documentMembers: [JSONValue.Member] {
        let objects: [JSONValue] = groups.map { group in
            .object(["content_sha256": .string(group.sha256), "size_bytes": .integer(group.sizeBytes), "paths": .array(group.paths.map { .string($0) })])
        }
        return [.init("groups", .array(objects))]
    }
}
