/// `check`'s result for one file as a `Report`: the verdict, with the character set its text is
/// written in (✓ and ✗ where the locale is UTF-8, ASCII words otherwise), which the command
/// detects once for all its files.
public struct DeliveryReport: VerdictReport, Sendable {
    public let verdict: DeliveryVerdict
    public let charset: TerminalCharset

    public init(_ verdict: DeliveryVerdict, charset: TerminalCharset) {
        self.verdict = verdict
        self.charset = charset
    }

    public var passed: Bool { verdict.passed }
    public var reportText: String? { verdict.text(charset: charset) }
    public var jsonMembers: [JSONValue.Member] { verdict.jsonMembers }

    /// One row per rule, each with the file's path (for one file as for several).
    public func appendRecords(to table: inout DelimitedText, header: Bool, path: String?) {
        if header { table.append(DeliveryVerdict.csvHeader) }
        verdict.appendRows(to: &table)
    }
}
