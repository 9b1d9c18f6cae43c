/// CSV (RFC 4180 quoting, comma) and tab-separated text, built row by row. Lines end with LF, as
/// pandas, DuckDB and xsv write CSV: RFC 4180's CRLF left a `\r` in the last field for `read`,
/// `cut` and `awk`, and the readers that follow the RFC accept LF.
public struct DelimitedText {
    public enum Format: Sendable {
        case csv, tsv
    }

    public let format: Format
    private(set) public var text = ""

    public init(_ format: Format) {
        self.format = format
    }

    /// Appends one record.
    public mutating func append(_ fields: [String]) {
        let separator = format == .csv ? "," : "\t"
        text += fields.map(escape).joined(separator: separator)
        text += "\n"
    }

    /// CSV quotes a field holding a comma, a quote or a line break, doubling its quotes; TSV, which
    /// has no quoting, writes such characters as the escapes `\t`, `\n`, `\r`, `\\`.
    private func escape(_ field: String) -> String {
        switch format {
        case .csv:
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
        case .tsv:
            guard field.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\\" }) else { return field }
            var escaped = ""
            for character in field {
                switch character {
                case "\t": escaped += "\\t"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\\": escaped += "\\\\"
                default: escaped.append(character)
                }
            }
            return escaped
        }
    }
}
