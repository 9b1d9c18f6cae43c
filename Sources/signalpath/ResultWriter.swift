import ArgumentParser
import SignalPathKit

/// A command's results over its files, in the order given: each success in the chosen format
/// (the command writes it), each failure as one line on standard error and, in JSON and NDJSON,
/// as an entry with `path` and `error` — so a JSON consumer sees every file it asked for.
struct ResultWriter {
    let sink: OutputSink
    let format: OutputFormat
    /// The `schema` of the JSON document and of every NDJSON line.
    let schema: String
    private var documents: [JSONValue] = []
    private var failures = FailureTally()
    /// Files written so far (successes): the first gets the CSV header, the others a blank line
    /// before their text report.
    private(set) var successes = 0
    /// For a result streamed as its pass makes it (`stream`): the table's header went out, once
    /// per destination, before the first row, even when that file then fails.
    var wroteHeader = false
    /// A JSON document the records were written into as they came (`stream`): `finish` writes none.
    var wroteDocument = false

    /// Opens the command's destination; a file that cannot be made ends the command (exit 73).
    init<Command>(output: OutputOptions<Command>, schema: String) throws {
        do throws(SignalPathError) {
            sink = try output.open()
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
        format = output.resolvedFormat
        self.schema = schema
    }

    /// One input's writer in a batch (`FileBatch`): its own file, opened now; its failures are
    /// kept for the batch to report in the order of the inputs (`finishInBatch()`).
    init(file: String, format: OutputFormat, schema: String, overwrite: Bool) throws(SignalPathError) {
        sink = try OutputSink(path: file, overwrite: overwrite)
        self.format = format
        self.schema = schema
        failures.reports = false
    }

    /// Writes `text` as it is.
    func write(_ text: String) {
        sink.write(text)
    }

    /// Writes `bytes` as they are (a chart file).
    func write(bytes: [UInt8]) {
        sink.write(bytes: bytes)
    }

    /// Writes a text report for people: reports of several files are separated by a blank line.
    func writeReport(_ text: String) {
        sink.write((successes == 0 ? "" : "\n") + text + "\n")
    }

    /// Records a success. In JSON its members become an entry of `files`; in NDJSON a line.
    mutating func succeeded(json members: @autoclosure () -> [JSONValue.Member]) {
        switch format {
        case .json: documents.append(.object(members()))
        case .ndjson: sink.writeLine(JSONValue.object([.init("schema", .string(schema))] + members()).serialized())
        default: break
        }
        successes += 1
    }

    /// Records a success the caller has written itself.
    mutating func succeeded() {
        successes += 1
    }

    /// Reports a failed file; in JSON and NDJSON it also becomes an entry.
    mutating func failed(_ error: SignalPathError) {
        failures.record(error)
        switch format {
        case .json: documents.append(.object(ExitStatus.jsonMembers(error)))
        case .ndjson: sink.writeLine(JSONValue.object([.init("schema", .string(schema))] + ExitStatus.jsonMembers(error)).serialized())
        default: break
        }
    }

    /// Writes the JSON document, puts an --output file in place, and exits with the first
    /// failure's code (or the output's own, when writing it failed). A `summary` over the files
    /// follows `files` in JSON and is NDJSON's last line; its `closingLine` ends a text report.
    func finish(summary: JSONValue? = nil, closingLine: String? = nil) throws {
        if format == .text, let closingLine {
            writeReport(closingLine)
        } else if format == .json && !wroteDocument {
            var members: [JSONValue.Member] = [.init("schema", .string(schema)), .init("files", .array(documents))]
            if let summary { members.append(.init("summary", summary)) }
            sink.writeLine(JSONValue.object(members).serialized(pretty: true))
        } else if format == .ndjson, let summary {
            sink.writeLine(JSONValue.object([.init("schema", .string(schema)), .init("summary", summary)]).serialized())
        }
        do throws(SignalPathError) {
            try sink.finish()
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
        try failures.finish()
    }

    /// Gives up on the whole output after `error` (a source that fails part-way through): an
    /// --output file is discarded rather than put in place looking whole; exits with its code.
    func abandon(_ error: SignalPathError) -> ExitCode {
        sink.abandon()
        return ExitCode(ExitStatus.report(error))
    }

    /// `finish()` for one input of a batch: returns its failures (a failed input, then a failed
    /// write of its file) instead of reporting them.
    func finishInBatch() -> [SignalPathError] {
        if format == .json {
            sink.writeLine(JSONValue.object(["schema": .string(schema), "files": .array(documents)]).serialized(pretty: true))
        }
        do throws(SignalPathError) {
            try sink.finish()
        } catch {
            return failures.kept + [error]
        }
        return failures.kept
    }
}
