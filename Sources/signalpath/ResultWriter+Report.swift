import SignalPathKit

extension ResultWriter {
    /// Writes one result in the chosen format and records its success: the report for people,
    /// its records (the table's header before the first file's) or its JSON. With `path`, a
    /// table's records start with the file's path (a table of several files).
    mutating func write(_ report: some Report, path: String? = nil) throws(SignalPathError) {
        switch format {
        case .text:
            guard let text = report.reportText else { preconditionFailure("\(schema) has no text report") }
            writeReport(text)
        case .csv, .tsv:
            var table = DelimitedText(format == .tsv ? .tsv : .csv)
            report.appendRecords(to: &table, header: successes == 0, path: path)
            write(table.text)
            if let note = report.tableNote, StandardError.isTerminal { StandardError.writeLine(note) }
        case .plot, .svg, .png, .pdf:
            preconditionFailure("\(schema) has no picture")
        case .json, .ndjson:
            break
        }
        succeeded(json: report.jsonMembers)
    }
}
