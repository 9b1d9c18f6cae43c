import ArgumentParser
import SignalPathKit

struct Export: ParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        _superCommandName: "signalpath",
        abstract: "The rows of a scan database as NDJSON, CSV or JSON: one record per file.",
        discussion: """
            NDJSON (the default; schema signalpath.export/1) has a line per file with the row's \
            columns — `path`, `status`, `size_bytes`, `mtime_ns`, `content_sha256`, `analyzed_at`, \
            `tool_version`, `settings_key`, `duration_s`, `integrated_lufs`, `true_peak_dbtp`, \
            `passed`, `truncated`, `frames_promised`, `frames_present`, with --md5 and \
            --fingerprint scans `audio_md5`, `embedded_md5`, `embedded_md5_status`, `fingerprint`, \
            `fingerprint_raw` (the sub-fingerprints) and `fingerprint_duration_s`, and for failures \
            `error_code`, `error_category`, `error_message` — and `result`, analyze's record for the \
            file (null for a failure). JSON is the same records in one document; CSV the columns \
            without `result` and `fingerprint_raw`. --where takes an SQL expression over the columns (the database is \
            opened read-only). The database may be exported while a scan writes it.

            DuckDB turns the NDJSON into Parquet in one statement (docs/SCAN.md):
              COPY (SELECT * FROM read_json_auto('all.ndjson')) TO 'all.parquet';

            Examples:
              signalpath export music.db > music.ndjson
              signalpath export music.db --format csv --where 'integrated_lufs > -16'
              signalpath export music.db --failed --format csv
              signalpath export qc.db --where 'passed = 0' --output failing.json
              signalpath export music.db --where 'truncated = 1' --format csv
            """
    )
    static let name = "export"
    static let formats: [OutputFormat] = [.ndjson, .csv, .json]
    static let view = TerminalView.records
    static let schema = "signalpath.export/1"

    @Argument(help: "The scan database.")
    var database: String

    @Flag(name: .long, help: "Only the files that failed (status 'error').")
    var failed = false

    @Option(name: .customLong("where"), help: ArgumentHelp("Only rows where this SQL expression over the columns holds.", valueName: "sql"))
    var condition: String?

    @OptionGroup var output: OutputOptions<Export>

    func run() throws {
        let sink: OutputSink
        do throws(SignalPathError) {
            sink = try output.open()
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
        let format = output.resolvedFormat
        let filter = [failed ? "status = 'error'" : nil, condition.map { "(\($0))" }].compactMap { $0 }.joined(separator: " AND ")
        var count = 0
        if format == .json { sink.write("{\"schema\": \"\(Self.schema)\", \"files\": [\n") }
        if format == .csv {
            var table = DelimitedText(.csv)
            table.append(ScanRecord.columns.filter { !Self.leftOutOfCSV.contains($0) })
            sink.write(table.text)
        }
        do throws(SignalPathError) {
            try ScanStore.openForReading(database).forEachRecord(where: filter.isEmpty ? nil : filter) { record in
                switch format {
                case .csv:
                    var table = DelimitedText(.csv)
                    table.append(Self.csvFields(record))
                    sink.write(table.text)
                case .json:
                    sink.write((count == 0 ? "" : ",\n") + Self.line(record, schema: false))
                default:
                    sink.writeLine(Self.line(record, schema: true))
                }
                count += 1
            }
        } catch {
            // Half an export must not look whole: an --output file is not put in place.
            sink.abandon()
            throw ExitCode(ExitStatus.report(error))
        }
        if format == .json { sink.write("\n]}\n") }
        do throws(SignalPathError) {
            try sink.finish()
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
    }

    /// One record as a JSON object on one line: the columns, then `result` (the stored analyze
    /// record, spliced in as stored: it is JSON that signalpath wrote).
    static func line(_ record: ScanRecord, schema: Bool) -> String {
        var members: [JSONValue.Member] = schema ? [.init("schema", .string(Self.schema))] : []
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
        let head = JSONValue.object(members).serialized()
        return head.dropLast() + ",\"result\":" + (record.resultJSON ?? "null") + "}"
    }

    /// CSV's cells are scalars: the record and the raw sub-fingerprints (whose compressed form,
    /// `fingerprint`, is there) stay in NDJSON and JSON.
    static let leftOutOfCSV: Set<String> = ["result_json", "fingerprint_raw"]

    static func csvFields(_ record: ScanRecord) -> [String] {
        zip(ScanRecord.columns, record.values).filter { !leftOutOfCSV.contains($0.0) }.map { column, value in
            switch value {
            case .null: return ""
            case .integer(let number): return ScanRecord.booleanColumns.contains(column) ? (number != 0 ? "true" : "false") : String(number)
            case .real(let number): return UnitFormat.shortest(number)
            case .text(let text): return text
            case .blob: return ""
            }
        }
    }
}
