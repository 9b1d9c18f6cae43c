import ArgumentParser
import SignalPathKit

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the format of audio files: container, sample format, rate, channels, length, tags.",
        discussion: """
            Examples:
              signalpath info take.wav
              signalpath info --format json *.flac
              ffmpeg -i in.mp4 -f wav - | signalpath info -
            """
    )

    @OptionGroup var input: FileArguments

    @OptionGroup var output: MachineOutputOptions

    func run() throws {
        var failures = FailureTally()
        var reports: [FileInfo] = []
        let format = output.resolved(fallback: .text)
        for path in input.files {
            do throws(SignalPathError) {
                let info = try FileInfo(file: AudioFile.openNoting(path, use: nil))
                switch format {
                case .text, .plot: print((reports.isEmpty ? "" : "\n") + info.text)
                case .ndjson: print(JSONValue.object([.init("schema", .string(FileInfo.schema))] + info.jsonMembers).serialized())
                case .csv, .tsv:
                    var table = DelimitedText(format == .csv ? .csv : .tsv)
                    if reports.isEmpty { table.append(FileInfo.tableColumns) }
                    table.append(info.tableFields)
                    print(table.text, terminator: "")
                case .json: break
                }
                reports.append(info)
            } catch {
                failures.record(error)
            }
        }
        if format == .json {
            let document = JSONValue.object([
                "schema": .string(FileInfo.schema),
                "files": .array(reports.map(\.json)),
            ])
            print(document.serialized(pretty: true))
        }
        try failures.finish()
    }
}
