/// One file's result (or one pair's) in every form a command writes it: the report for people,
/// the rows of a CSV or TSV table and the members of its JSON object. The command hands it to its
/// writer, which picks the form by the output format (`OutputOptions`); a command never switches
/// over formats itself. A result with a picture gives it to the writer beside the report
/// (`Picture`, `ChartPicture`), drawn in the command's options.
public protocol Report {
    /// The report for people, without the last line end; nil where the command writes no text
    /// (its terminal view is a picture).
    var reportText: String? { get }
    /// Appends the result's records: the header first when `header` (the first file of a table),
    /// and with `path` a first column that names the file (a table of several files).
    func appendRecords(to table: inout DelimitedText, header: Bool, path: String?)
    /// The members of the file's JSON object: an entry of `files`, or an NDJSON line.
    var jsonMembers: [JSONValue.Member] { get }
    /// What a table cannot hold (its conventions), for standard error when it is a terminal.
    var tableNote: String? { get }
}

extension Report {
    public var reportText: String? { nil }
    public var tableNote: String? { nil }
}

extension FileInfo: Report {
    public var reportText: String? { text }

    /// One row per file; its `path` column is there for one file as for several.
    public func appendRecords(to table: inout DelimitedText, header: Bool, path: String?) {
        if header { table.append(FileInfo.tableColumns) }
        table.append(tableFields)
    }
}

extension SignalAnalysis: Report {
    public var reportText: String? { text }

    /// One row per channel, each with its `path`.
    public func appendRecords(to table: inout DelimitedText, header: Bool, path: String?) {
        if header { table.append(SignalAnalysis.csvHeader(settings)) }
        appendRows(to: &table)
    }
}

extension SpectrumReport: Report {
    public var reportText: String? { text }
    public var tableNote: String? { "signalpath: " + conventionsLine }

    /// The rows (bins, smoothed bins or bands), or the peaks when they were asked for.
    public func appendRecords(to table: inout DelimitedText, header: Bool, path: String?) {
        if presentation.tableOfPeaks {
            appendPeaks(to: &table, header: header, path: path)
        } else {
            appendRows(to: &table, header: header, path: path)
        }
    }
}

extension WaveformEnvelope: Report {
    public func appendRecords(to table: inout DelimitedText, header: Bool, path: String?) {
        if header { table.append(WaveformEnvelope.csvHeader(path: path != nil)) }
        appendRows(to: &table, path: path)
    }
}

/// A result that passes or fails (a delivery check): a batch of them counts each and closes its
/// output with the counts (`VerdictTally`), and the command's exit status says whether any failed.
public protocol VerdictReport: Report {
    var passed: Bool { get }
}
