import ArgumentParser
import SignalPathKit

struct Duplicates: ParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicates",
        _superCommandName: "signalpath",
        abstract: "Groups of files in a scan database that hold the same audio: exact copies and near copies (transcodes, cuts).",
        discussion: """
            Reads the columns `scan --md5 --fingerprint` stores; reads no audio. Exact copies share \
            an audio MD5 (the decoded samples: any container, any tags). Near copies have matching \
            Chromaprint fingerprints (an MP3 or AAC of a FLAC, a copy cut at the start): each \
            member's offset in seconds says where it starts in the group's first member, and its \
            similarity (0 to 1) how closely it matches it. Files that match nothing are not listed. \
            Rule, figures and memory: docs/DUPLICATES.md.

            Exit status: 0 when the database was read (whether or not it holds duplicates), 65 when \
            it is not a scan database or is damaged, 66 when it cannot be opened, 74 on a read error.

            Examples:
              signalpath duplicates music.db
              signalpath duplicates music.db --output duplicates.json
              signalpath duplicates music.db --format json | jq '.near[].files[].path'
            """
    )
    static let name = "duplicates"
    static let formats: [OutputFormat] = [.text, .json]
    static let view = TerminalView.report

    @Argument(help: "The scan database.")
    var database: String

    @OptionGroup var output: OutputOptions<Duplicates>

    func run() throws {
        var writer = try ResultWriter(output: output, schema: AudioDuplicatesReport.schema)
        let found: AudioDuplicates
        do throws(SignalPathError) {
            found = try AudioDuplicates.find(in: ScanStore.openForReading(database))
        } catch {
            throw writer.abandon(error)
        }
        if found.hashedFiles == 0 && found.fingerprintedFiles == 0 {
            StandardError.writeLine(
                "signalpath: \(TerminalText.sanitized(database)): no row has an audio MD5 or a fingerprint: scan with --md5 --fingerprint (--rescan for files already scanned)"
            )
        }
        writer.write(document: AudioDuplicatesReport(found, database: database))
        try writer.finish()
    }
}
