/// A scan database's rows as `export` writes them (schema signalpath.export/1): a CSV row of the
/// scalar columns, or a JSON object of every column and `result`, analyze's stored record. The
/// rows stream out one by one (`StreamingReport`): an archive holds 100 000 rows and more.
public struct ScanExport: StreamingReport {
    public typealias Record = ScanRecord
    public typealias Summary = Void

    public static let schema = "signalpath.export/1"

    public init() {}

    /// CSV's cells are scalars: the record and the raw sub-fingerprints (whose compressed form,
    /// `fingerprint`, is there) stay in NDJSON and JSON.
    static let leftOutOfCSV: Set<String> = ["result_json", "fingerprint_raw"]

    public func appendHeader(to table: inout DelimitedText) {
        table.append(ScanRecord.columns.filter { !Self.leftOutOfCSV.contains($0) })
    }

    public func appendRecord(_ record: ScanRecord, to table: inout DelimitedText) {
        table.append(
            zip(ScanRecord.columns, record.values).filter { !Self.leftOutOfCSV.contains($0.0) }.map { column, value in
                switch value {
                case .null: return ""
                case .integer(let number): return ScanRecord.booleanColumns.contains(column) ? (number != 0 ? "true" : "false") : String(number)
                case .real(let number): return UnitFormat.shortest(number)
                case .text(let text): return text
                case .blob: return ""
                }
            })
    }

    public var lineMembers: [JSONValue.Member] { [] }

    /// The columns, then `result`: the stored analyze record as it was stored (JSON that
    /// signalpath wrote), not parsed and written again.
    public func jsonObjects(_ record: ScanRecord) -> [[JSONValue.Member]] {
        var members: [JSONValue.Member] = []
        for (column, value) in zip(ScanRecord.columns, record.values) where column != "result_json" {
            let json: JSONValue
            switch value {
            case .null: json = .null
            case .integer(let number): json = ScanRecord.booleanColumns.contains(column) ? .bool(number != 0) : .integer(number)
            case .real(let number): json = .number(number)
            case .text(let text): json = .string(text)
            // fingerprint_raw: the sub-fingerprints, as analyze's `fingerprint.raw` lists them.
            case .blob(let bytes): json = .array(ScanRecord.raw(ofBytes: bytes).map { .integer(Int64($0)) })
            }
            members.append(.init(column, json))
        }
        members.append(.init("result", record.resultJSON.map(JSONValue.raw) ?? .null))
        return [members]
    }

    /// The rows are the document (`files`), written as they come.
    public var jsonDocumentList: String? { "files" }
    public func jsonMembers(objects: [JSONValue], summary: Void) -> [JSONValue.Member] { [.init("files", .array(objects))] }
    public var writesInBatches: Bool { true }
}
