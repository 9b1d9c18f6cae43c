import SignalPathKit

extension ResultWriter {
    /// Writes one result as its pass makes it and records its success: `pass` hands each record
    /// to the stream, which writes it in the chosen format at once (memory stays flat), and returns
    /// the summary the closing part is made of. JSON keeps the records' objects for its document,
    /// a picture keeps the records for `picture`. The table's header goes out once per
    /// destination, before the first record, even when that file then fails.
    mutating func stream<Result: StreamingReport>(
        _ report: Result, picture: ((Result.Summary, [Result.Record]) -> PictureOutput)? = nil,
        pass: (RecordStream<Result>) async throws(SignalPathError) -> Result.Summary
    ) async throws(SignalPathError) {
        let stream = RecordStream(report, sink: sink, format: format, schema: schema, headerDue: !wroteHeader, separated: successes > 0)
        defer {
            stream.flush()
            if stream.wroteTableHeader { wroteHeader = true }
        }
        let summary = try await pass(stream)
        stream.closeText(summary)
        stream.closeTable()
        stream.flush()
        switch format {
        case .plot, .svg, .png, .pdf:
            guard let picture else { preconditionFailure("\(schema) has no picture") }
            try draw(picture(summary, stream.kept))
            succeeded()
        case .json where report.jsonDocumentList != nil:
            stream.closeDocument()
            stream.flush()
            wroteDocument = true
            succeeded()
        case .json:
            succeeded(json: report.jsonMembers(objects: stream.objects, summary: summary))
        case .ndjson:
            if let line = report.closingLine(summary) { succeeded(json: line) } else { succeeded() }
        case .text, .csv, .tsv:
            succeeded()
        }
    }
}

/// One file's records on their way out (`ResultWriter.stream`): each written in the chosen
/// format as it comes (into a JSON document as it goes, where they are all of it), or kept where
/// the format needs them all (a file's entry in the JSON document, a picture).
final class RecordStream<Result: StreamingReport> {
    private let report: Result
    private let sink: OutputSink
    private let format: OutputFormat
    private let schema: String
    /// The table's header (or the text's heading) is still to be written.
    private var headerDue: Bool
    var wroteTableHeader: Bool { (format == .csv || format == .tsv) && !headerDue }
    /// Text reports of several files are separated by a blank line.
    private let separated: Bool
    private var pending = ""
    private(set) var objects: [JSONValue] = []
    /// A document written as it goes (`StreamingReport.jsonDocumentList`): its opening went out,
    /// and an object, which the next one is separated from by a comma.
    private var documentOpened = false
    private var documentHasObjects = false
    private(set) var kept: [Result.Record] = []

    init(_ report: Result, sink: OutputSink, format: OutputFormat, schema: String, headerDue: Bool, separated: Bool) {
        self.report = report
        self.sink = sink
        self.format = format
        self.schema = schema
        // A text heading is every file's own; a table has one header per destination.
        self.headerDue = format == .text || headerDue
        self.separated = separated
    }

    /// Writes (or keeps) one record.
    func add(_ record: Result.Record) {
        switch format {
        case .text:
            writeHeading()
            pending += report.textLines(record) + "\n"
        case .csv, .tsv:
            var table = DelimitedText(format == .tsv ? .tsv : .csv)
            if headerDue { report.appendHeader(to: &table) }
            headerDue = false
            report.appendRecord(record, to: &table)
            pending += table.text
        case .ndjson:
            let opening = [JSONValue.Member("schema", .string(schema))] + report.lineMembers
            for object in report.jsonObjects(record) { pending += JSONValue.object(opening + object).serialized() + "\n" }
        case .json:
            guard report.jsonDocumentList != nil else {
                objects += report.jsonObjects(record).map(JSONValue.object)
                break
            }
            begin()
            for object in report.jsonObjects(record) {
                pending += (documentHasObjects ? ",\n" : "") + JSONValue.object(object).serialized()
                documentHasObjects = true
            }
        case .plot, .svg, .png, .pdf:
            kept.append(record)
        }
        if !report.writesInBatches || pending.utf8.count >= 1 << 16 { flush() }
    }

    /// Writes what comes before the first record (the table's header, the document's opening).
    func begin() {
        switch format {
        case .csv, .tsv:
            closeTable()
        case .json:
            guard let list = report.jsonDocumentList, !documentOpened else { return }
            pending += "{\"schema\": " + JSONValue.string(schema).serialized() + ", " + JSONValue.string(list).serialized() + ": [\n"
            documentOpened = true
        default:
            return
        }
        flush()
    }

    /// Writes what is pending.
    func flush() {
        guard !pending.isEmpty else { return }
        sink.write(pending)
        pending = ""
    }

    private func writeHeading() {
        guard headerDue, let heading = report.textHeading else { return }
        pending += (separated ? "\n" : "") + heading + "\n"
        headerDue = false
    }

    /// The text's heading when no record wrote it, and the closing text.
    fileprivate func closeText(_ summary: Result.Summary) {
        guard format == .text else { return }
        writeHeading()
        pending += report.closingText(summary) + "\n"
    }

    /// The document's opening when no record wrote it, and its closing.
    fileprivate func closeDocument() {
        begin()
        pending += "\n]}\n"
    }

    /// The table's header when no record wrote it: a table without rows still says its columns.
    fileprivate func closeTable() {
        guard (format == .csv || format == .tsv) && headerDue else { return }
        var table = DelimitedText(format == .tsv ? .tsv : .csv)
        report.appendHeader(to: &table)
        pending += table.text
        headerDue = false
    }
}
