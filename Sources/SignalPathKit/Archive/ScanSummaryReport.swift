/// A scan's summary as its report: counts for people, or `signalpath.scan/1`.
public struct ScanSummaryReport: DocumentReport {
    public static let schema = "signalpath.scan/1"

    public let summary: ScanSummary
    public let database: String
    /// The delivery profile the scan checked against; nil without one (`check` is null).
    public let profile: String?

    public init(_ summary: ScanSummary, database: String, profile: String?) {
        self.summary = summary
        self.database = database
        self.profile = profile
    }

    public var documentText: String {
        let summary = self.summary
        let rescanned = summary.rescanned > 0 ? "; \(summary.rescanned) of them again with this scan's settings (--rescan)" : ""
        var lines = [
            "Scanned into \(TerminalText.sanitized(database)) in \(UnitFormat.time(summary.seconds, decimals: 2))",
            "  analysed    \(summary.analysed) (\(UnitFormat.fixed(Double(summary.bytesRead) / 1e6, 1)) MB read\(rescanned))",
            "  unchanged   \(summary.unchanged) (stored rows still hold: not read)",
        ]
        if summary.keptOtherSettings > 0 {
            lines.append("  kept        \(summary.keptOtherSettings) (rows made with other settings, kept as they are: --rescan analyses them)")
        }
        if summary.recognised > 0 { lines.append("  recognised  \(summary.recognised) (same content as a stored file: not analysed)") }
        lines.append("  failed      \(summary.failed)" + (summary.failedBefore > 0 ? " now, \(summary.failedBefore) before (not read again)" : ""))
        lines.append(
            "  truncated   \(summary.truncated)" + (summary.truncatedBefore > 0 ? " now, \(summary.truncatedBefore) before" : "")
                + (summary.truncated + summary.truncatedBefore > 0 ? " (shorter than their headers promise: see the messages above)" : ""))
        if let profile {
            lines.append(
                "  check       \(profile): \(summary.passed) passed, \(summary.notPassed) did not pass"
                    + (summary.withoutVerdict > 0 ? ", \(summary.withoutVerdict) without its verdict (rows kept with other settings)" : ""))
        }
        if summary.unreachable > 0 { lines.append("  unreachable \(summary.unreachable) (not walked: see the messages above)") }
        if summary.vanished > 0 { lines.append("  vanished    \(summary.vanished) (deleted before their turn)") }
        if let signal = summary.interruptedBy {
            lines.append("  stopped by signal \(signal): the files in flight were finished and committed; run again to go on")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `check` is null without a profile.
    public var documentMembers: [JSONValue.Member] {
        let summary = self.summary
        func count(_ value: Int) -> JSONValue { .integer(Int64(value)) }
        let check: JSONValue =
            profile.map { name in
                .object([
                    "profile": .string(name), "passed": count(summary.passed), "failed": count(summary.notPassed),
                    "without_verdict": count(summary.withoutVerdict),
                ])
            } ?? .null
        return [
            .init("database", .string(database)), .init("analysed", count(summary.analysed)), .init("rescanned", count(summary.rescanned)),
            .init("unchanged", count(summary.unchanged)), .init("kept_other_settings", count(summary.keptOtherSettings)),
            .init("recognised", count(summary.recognised)), .init("failed", count(summary.failed)), .init("failed_before", count(summary.failedBefore)),
            .init("truncated", count(summary.truncated)), .init("truncated_before", count(summary.truncatedBefore)), .init("check", check),
            .init("unreachable", count(summary.unreachable)), .init("vanished", count(summary.vanished)), .init("bytes_read", .integer(summary.bytesRead)),
            .init("commits", count(summary.commits)), .init("rows_written", count(summary.rowsWritten)),
            .init("seconds", .number((summary.seconds * 1000).rounded() / 1000)),
            .init("interrupted_by_signal", summary.interruptedBy.map { .integer(Int64($0)) } ?? .null),
        ]
    }
}
