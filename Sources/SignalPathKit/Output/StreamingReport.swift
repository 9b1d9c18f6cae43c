/// A result written as its pass makes it, in every form a command writes it: its records (an
/// event, a loudness point, a spectrogram frame) go out one by one, so memory stays flat however
/// long the file, and a closing part follows once the pass is done (a summary). The streaming
/// companion of `Report`: the command's writer drives it for every format (`RecordStream`), so a
/// command never switches over formats itself.
public protocol StreamingReport {
    associatedtype Record
    associatedtype Summary

    /// The text report's heading, written before the first record (or before the closing text of
    /// a file without records); nil where the command writes no text (its terminal view is a picture).
    var textHeading: String? { get }
    /// One record's lines for people, without the last line end.
    func textLines(_ record: Record) -> String
    /// The text after the records, without the last line end.
    func closingText(_ summary: Summary) -> String

    /// The table's header, once per destination, before the first record.
    func appendHeader(to table: inout DelimitedText)
    /// One record's rows.
    func appendRecord(_ record: Record, to table: inout DelimitedText)

    /// What opens every NDJSON line of the file (`path`, and `stream` when one is named).
    var lineMembers: [JSONValue.Member] { get }
    /// One record's JSON objects: each an NDJSON line (after `lineMembers`), or an element of the
    /// JSON document's list.
    func jsonObjects(_ record: Record) -> [[JSONValue.Member]]
    /// The file's entry in the JSON document, around the list of the records' objects.
    func jsonMembers(objects: [JSONValue], summary: Summary) -> [JSONValue.Member]
    /// NDJSON's last line for the file (so a file without records is still seen); nil for none.
    func closingLine(_ summary: Summary) -> [JSONValue.Member]?
    /// The key of the list the records' objects make when they are the whole JSON document (an
    /// export: one source, rows past memory): the document is then written as it goes, one object
    /// per line, instead of held for `jsonMembers`. Nil for a file's entry in the document.
    var jsonDocumentList: String? { get }

    /// Records are small and many (a point per 100 ms): written in batches, not one write each.
    var writesInBatches: Bool { get }
}

extension StreamingReport {
    public var textHeading: String? { nil }
    public func textLines(_ record: Record) -> String { preconditionFailure("\(Self.self) has no text report") }
    public func closingText(_ summary: Summary) -> String { preconditionFailure("\(Self.self) has no text report") }
    public func closingLine(_ summary: Summary) -> [JSONValue.Member]? { nil }
    public var jsonDocumentList: String? { nil }
    public var writesInBatches: Bool { false }
}

extension EventOutput: StreamingReport {
    public func appendHeader(to table: inout DelimitedText) { table.append(EventOutput.csvHeader) }
    public func appendRecord(_ event: AudioEvent, to table: inout DelimitedText) { table.append(csvRow(event)) }
    public var lineMembers: [JSONValue.Member] { sourceMembers }
    public func jsonObjects(_ event: AudioEvent) -> [[JSONValue.Member]] { [jsonMembers(event)] }
    public func closingLine(_ summary: EventSummary) -> [JSONValue.Member]? { sourceMembers + [.init("summary", summaryJSON(summary))] }
}
