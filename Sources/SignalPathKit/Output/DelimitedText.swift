/// CSV (RFC 4180 quoting, comma) and tab-separated text, built row by row. Lines end with LF, as
/// pandas, DuckDB and xsv write CSV: RFC 4180's CRLF left a `\r` in the last field for `read`,
/// `cut` and `awk`, and the readers that follow the RFC accept LF.
public struct DelimitedText {
    public enum Format: Sendable {
        case csv, tsv
    }

    public let format: Format
    /// The records as UTF-8: appending bytes takes under half the instructions of appending to a
    /// String, which checks its capacity per field and separator (docs/DECISIONS.md#csv-bytes).
    private var bytes: [UInt8] = []

    /// The records so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public init(_ format: Format) {
        self.format = format
    }

    /// Appends one record.
    public mutating func append(_ fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(format == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")) }
            appendEscaped(field)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// CSV quotes a field holding a comma, a quote or a line break, doubling its quotes; TSV, which
    /// has no quoting, writes such characters as the escapes `\t`, `\n`, `\r`, `\\`. Fields are
    /// handled as UTF-8 bytes, as CSV readers read them (these characters are single bytes that no
    /// other character's encoding holds): a scan by Character was slow
    /// (docs/DECISIONS.md#csv-bytes) and missed a `\r\n` or a quote followed by a combining mark,
    /// each one Character.
    private mutating func appendEscaped(_ field: String) {
        switch format {
        case .csv:
            let quote = UInt8(ascii: "\"")
            guard Self.holds(field, { $0 == UInt8(ascii: ",") || $0 == quote || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
                bytes.append(contentsOf: field.utf8)
                return
            }
            bytes.append(quote)
            for byte in field.utf8 {
                bytes.append(byte)
                if byte == quote { bytes.append(quote) }
            }
            bytes.append(quote)
        case .tsv:
            guard Self.holds(field, { $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\\") }) else {
                bytes.append(contentsOf: field.utf8)
                return
            }
            for byte in field.utf8 {
                switch byte {
                case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                default: bytes.append(byte)
                }
            }
        }
    }

    /// Whether a byte of `field`'s UTF-8 is `special`: on the contiguous bytes (every native
    /// String's), cheaper than the generic scan of the UTF-8 view (docs/DECISIONS.md#csv-bytes).
    private static func holds(_ field: String, _ special: (UInt8) -> Bool) -> Bool {
        field.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) } ?? field.utf8.contains(where: special)
    }
}
