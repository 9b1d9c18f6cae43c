/// `loudness`'s output as its pass makes it: a point every interval (a CSV row, an NDJSON line,
/// an element of JSON's `series`), then the file's summary (`LoudnessSummary`).
public struct LoudnessSeriesReport: StreamingReport {
    public let path: String
    public let stream: AudioStream?
    /// With several files, every row starts with the path.
    public let pathColumn: String?

    public init(path: String, stream: AudioStream?, pathColumn: String?) {
        self.path = path
        self.stream = stream
        self.pathColumn = pathColumn
    }

    public func appendHeader(to table: inout DelimitedText) {
        table.append((pathColumn == nil ? [] : ["path"]) + LoudnessSummary.csvHeader)
    }

    public func appendRecord(_ point: LoudnessSeries.Point, to table: inout DelimitedText) {
        table.append((pathColumn.map { [$0] } ?? []) + LoudnessSummary.csvFields(point))
    }

    public var lineMembers: [JSONValue.Member] { AudioStream.sourceMembers(path: path, stream: stream) }
    public func jsonObjects(_ point: LoudnessSeries.Point) -> [[JSONValue.Member]] { [LoudnessSummary.jsonPoint(point)] }
    public func jsonMembers(objects: [JSONValue], summary: LoudnessSummary) -> [JSONValue.Member] { summary.jsonMembers + [.init("series", .array(objects))] }
    public func closingLine(_ summary: LoudnessSummary) -> [JSONValue.Member]? { summary.jsonMembers }
    /// A point per 100 ms: one write each would be a system call per 100 ms of audio.
    public var writesInBatches: Bool { true }
}
