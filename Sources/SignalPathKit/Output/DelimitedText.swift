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
        for (index, field) in fields.enumerated() {
            if index > 0 { text += format == .csv ? "," : "\t" }
            appendEscaped(field)
        }
        text += "\n"
    }

    /// CSV quotes a field holding a comma, a quote or a line break, doubling its quotes; TSV, which
    /// has no quoting, writes such characters as the escapes `\t`, `\n`, `\r`, `\\`. Fields are
    /// scanned as UTF-8 bytes, as CSV readers read them: a scan by Character took ~1 400
    /// instructions per number (two fifths of writing `spectrum`'s CSV of a 1 s range, 41.9 M
    /// instructions in all, now 12.9 M with `UnitFormat.fixed`'s; callgrind), and missed a `\r\n`
    /// or a quote followed by a combining mark, each one Character.
    private mutating func appendEscaped(_ field: String) {
        switch format {
        case .csv:
            guard Self.holds(field, { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
                text += field
                return
            }
            text += "\""
            for scalar in field.unicodeScalars {
                text.unicodeScalars.append(scalar)
                if scalar == "\"" { text += "\"" }
            }
            text += "\""
        case .tsv:
            guard Self.holds(field, { $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\\") }) else {
                text += field
                return
            }
            for scalar in field.unicodeScalars {
                switch scalar {
                case "\t": text += "\\t"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\\": text += "\\\\"
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// Whether a byte of `field`'s UTF-8 is `special`: on the contiguous bytes (every native
    /// String's); the generic scan of the UTF-8 view made escaping 4.3 M instructions for that
    /// CSV's 12 300 fields instead of 2.7 M.
    private static func holds(_ field: String, _ special: (UInt8) -> Bool) -> Bool {
        field.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) } ?? field.utf8.contains(where: special)
    }
}
