import SignalPathKit

extension ResultWriter {
    /// Writes one result in the chosen format and records its success: the report for people,
    /// its records (the table's header before the first file's), its JSON, or its `picture`.
    /// With `path`, a table's records start with the file's path (a table of several files).
    /// A picture that cannot be rendered throws, and the file counts as failed.
    mutating func write(_ report: some Report, path: String? = nil, picture: PictureOutput? = nil) throws(SignalPathError) {
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
            guard let picture else { preconditionFailure("\(schema) has no picture") }
            try draw(picture)
        case .json, .ndjson:
            break
        }
        succeeded(json: report.jsonMembers)
    }

    /// Writes a result that is a picture only in the chosen picture format and records its
    /// success: a spectrogram's, whose data takes a pass of its own.
    mutating func write(picture: PictureOutput) throws(SignalPathError) {
        try draw(picture)
        succeeded()
    }

    /// The picture on a terminal or as a chart file, as the format asks.
    func draw(_ picture: PictureOutput) throws(SignalPathError) {
        if let chart = format.chart {
            write(bytes: try picture.chartFile(chart))
        } else {
            write(try picture.terminalText())
        }
    }
}
