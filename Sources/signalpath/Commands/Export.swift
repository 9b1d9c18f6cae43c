import ArgumentParser
import SignalPathKit

struct Export: AsyncParsableCommand, DataCommand {
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
    static let schema = ScanExport.schema

    @Argument(help: "The scan database.")
    var database: String

    @Flag(name: .long, help: "Only the files that failed (status 'error').")
    var failed = false

    @Option(name: .customLong("where"), help: ArgumentHelp("Only rows where this SQL expression over the columns holds.", valueName: "sql"))
    var condition: String?

    @OptionGroup var output: OutputOptions<Export>

    /// The rows go out as they are read (`ResultWriter.stream`). The database is one source: an
    /// error in it discards the whole output (half an export must not look whole) rather than
    /// being one file's entry.
    func run() async throws {
        var writer = try ResultWriter(output: output, schema: Self.schema)
        let filter = [failed ? "status = 'error'" : nil, condition.map { "(\($0))" }].compactMap { $0 }.joined(separator: " AND ")
        let database = database
        do throws(SignalPathError) {
            try await writer.stream(ScanExport()) { rows throws(SignalPathError) in
                try ScanStore.openForReading(database).forEachRecord(where: filter.isEmpty ? nil : filter) { rows.add($0) }
            }
        } catch {
            throw writer.abandon(error)
        }
        try writer.finish()
    }
}
