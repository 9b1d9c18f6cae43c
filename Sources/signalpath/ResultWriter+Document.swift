import SignalPathKit

extension ResultWriter {
    /// Writes a whole-database result in the chosen format: its report for people, or one JSON
    /// document (one line in NDJSON) with the writer's `schema` first; `finish` then adds none.
    mutating func write(document report: some DocumentReport) {
        switch format {
        case .text:
            write(report.documentText)
        case .json, .ndjson:
            let document = JSONValue.object([.init("schema", .string(schema))] + report.documentMembers)
            sink.writeLine(document.serialized(pretty: format == .json))
            wroteDocument = true
        case .csv, .tsv, .plot, .svg, .png, .pdf:
            preconditionFailure("\(schema) is a text report or a JSON document")
        }
        succeeded()
    }
}
