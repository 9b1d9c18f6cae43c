import ArgumentParser
import SignalPathKit

struct Scan: AsyncParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        _superCommandName: "signalpath",
        abstract: "Analyse whole archives into an SQLite database: resumable, skipping what is done, shardable over machines.",
        discussion: """
            Each file gets analyze's record (and with --profile a check verdict, with --events the \
            events summary) as a row of the database's `files` table. A file whose path, size, \
            modification time and settings match its row is not read again, so a second run only \
            does what changed, and a run stopped by Ctrl-C (files in flight are finished and \
            committed; a second Ctrl-C stops at once, the database keeping what was committed) or \
            killed picks up where it stopped. Files that fail become rows with status \
            `error`; unreadable directories, link loops and vanished files are reported and skipped. \
            A file shorter than its header promises is analysed as far as it goes, said on standard \
            error and marked in the row's `truncated` column.

            A row made with other settings is kept when it holds all this scan asks for (a scan \
            without --profile keeps the verdicts of one with it, one without --md5 or --fingerprint \
            their columns); otherwise it is kept as it is and said before any file is read, and \
            --rescan analyses the file again. --md5 and --fingerprint fill the columns \
            `signalpath duplicates` groups by.

            Results: signalpath export DB (NDJSON, CSV or JSON); across machines, --shard K/N per \
            machine and signalpath merge. Schema, recipes for Slurm and GNU parallel: docs/SCAN.md.

            The summary (counts, bytes, time) is the report; --format json writes it as \
            signalpath.scan/1. Exit status: 0 when every file has an `ok` row (now or from before), \
            65 when some file failed or could not be reached, 73/74 when the database cannot be \
            created or written, 130/143 when stopped by SIGINT/SIGTERM.

            Examples:
              signalpath scan ~/Music --db music.db
              signalpath scan /archive --db qc.db --profile ebu-r128 --events
              signalpath scan ~/Music --db music.db --profile streaming --rescan
              find /data -name '*.wav' -print0 \\
                | signalpath scan --files-from - --null --db w.db
              signalpath scan /archive --db part3.db --shard 3/8
              signalpath scan /archive --db music.db --content-hash
              signalpath scan --db music.db --duplicates
              signalpath scan ~/Music --db music.db --md5 --fingerprint
            """
    )
    static let name = "scan"
    static let formats: [OutputFormat] = [.text, .json]
    static let view = TerminalView.report

    @OptionGroup var input: ScanInputOptions

    @Option(name: .long, help: ArgumentHelp("The results database (SQLite), created when missing.", valueName: "file"))
    var db: String

    @Flag(name: .long, help: "List the files of the database with equal content (needs rows made with --content-hash); reads no audio.")
    var duplicates = false

    @Flag(
        name: .long,
        help: "Analyse again the unchanged files whose rows were made with other settings (without it their rows are kept as they are).")
    var rescan = false

    @OptionGroup var extras: ScanAnalysisOptions
    @OptionGroup var identity: IdentityOptions
    @OptionGroup var analysis: AnalysisOptions
    @OptionGroup var truePeak: TruePeakOptions
    @OptionGroup var output: OutputOptions<Scan>
    @OptionGroup var jobs: JobOptions

    func validate() throws {
        if duplicates {
            guard input.paths.isEmpty, input.filesFrom == nil else { throw ValidationError("--duplicates lists the database's duplicates; it scans no paths.") }
            guard !rescan else { throw ValidationError("--rescan analyses files again; --duplicates reads no audio.") }
        } else if input.paths.isEmpty && input.filesFrom == nil {
            throw ValidationError("Name files or directories to scan, or a --files-from list.")
        }
    }

    func run() async throws {
        var writer = try ResultWriter(output: output, schema: duplicates ? ContentDuplicatesReport.schema : ScanSummaryReport.schema)
        if duplicates { return try listDuplicates(into: &writer) }
        StopSignals.install(secondSignalEnds: true)
        var unreachable = 0
        let files: [String]
        do throws(SignalPathError) {
            files = try input.files { problem in
                unreachable += 1
                ExitStatus.report(problem)
            }
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
        if extras.contentHash {
            do throws(SignalPathError) { try ContentHash.checkAvailable() } catch { throw ExitCode(ExitStatus.report(error)) }
        }
        var settings = analysis.settings
        settings.truePeakMode = truePeak.mode
        identity.apply(to: &settings)
        // An archive's many short files would each pay the search's fixed cost (AnalysisSettings).
        settings.searchesFrameGrid = false
        let scanner = Scanner(
            database: db,
            settings: ScanSettings(
                analysis: settings, rules: extras.profile.map { DeliveryRules(profile: $0) }, findsEvents: extras.events,
                hashesContent: extras.contentHash, jobs: jobs.workers, rescansOtherSettings: rescan),
            describe: { (ExitStatus.code(for: $0), ExitStatus.name(of: $0.category)) })
        let progress = ProgressLine(label: "scan")
        var summary: ScanSummary
        do throws(SignalPathError) {
            summary = try await scanner.run(files) { problem in
                progress.finish()
                ExitStatus.report(problem)
            } notice: { notice in
                progress.finish()
                StandardError.writeLine(Self.line(notice, database: db))
            } progress: { state in
                guard state.total > 0 else { return }
                let fraction = state.bytesTotal > 0 ? Double(state.bytesDone) / Double(state.bytesTotal) : Double(state.done) / Double(state.total)
                progress.update(fraction, status: Self.status(state))
            } stopping: { signal, inFlight in
                guard inFlight > 0 else { return }
                let again = signal == SIGINT ? "Ctrl-C again" : "a second signal"
                StandardError.writeLine("signalpath: finishing \(inFlight) file\(inFlight == 1 ? "" : "s") in flight (\(again) to stop now)")
            }
        } catch {
            progress.finish()
            throw ExitCode(ExitStatus.report(error))
        }
        progress.finish()
        summary.unreachable = unreachable
        writer.write(document: ScanSummaryReport(summary, database: db, profile: extras.profile?.name))
        try writer.finish()
        if let signal = summary.interruptedBy { throw ExitCode(128 + signal) }
        if summary.failed + summary.failedBefore + summary.unreachable > 0 { throw ExitCode(ExitStatus.badData) }
    }

    /// `120/500 files  3.2 MB/s  8.1 files/s  2 failed`.
    private static func status(_ state: ScanProgress) -> String {
        let seconds = max(state.seconds, 1e-3)
        let failures = state.failed > 0 ? "  \(state.failed) failed" : ""
        return "\(state.done)/\(state.total) files  \(UnitFormat.fixed(Double(state.bytesDone) / seconds / 1e6, 1)) MB/s  "
            + "\(UnitFormat.fixed(Double(state.done) / seconds, 1)) files/s\(failures)"
    }

    /// What the parts of a settings key a scan does not ask for keep in a row: "verdicts", "events".
    private static func extras(_ parts: [String]) -> String {
        let verdicts = parts.contains { $0.hasPrefix("check=") || $0.hasPrefix("target=") || $0.hasPrefix("max-true-peak=") }
        return [
            verdicts ? "verdicts" : nil, parts.contains { $0 == "events" || $0.hasPrefix("events/") } ? "events" : nil,
            parts.contains("md5") ? "audio MD5s" : nil, parts.contains { $0.hasPrefix("fingerprint=") } ? "fingerprints" : nil,
        ].compactMap { $0 }.joined(separator: " and ")
    }

    /// A notice's line on standard error.
    static func line(_ notice: ScanNotice, database: String) -> String {
        switch notice {
        case .truncated(let path, let promised, let present, let origin):
            let how =
                switch origin {
                case .analysed: "; analysing those"
                case .stored: " (stored by an earlier scan; the file is unchanged, not read again)"
                case .recognised: " (the same content as a stored file: not analysed again)"
                }
            return "signalpath: \(TerminalText.sanitized(path)): \(AudioFormat.truncationNote(framesPromised: promised, framesPresent: present))\(how)"
        case .otherSettings(let files, let storedKey, let currentKey, let outcome):
            let (rowsOnly, scanOnly) = ScanSettings.differences(stored: storedKey, current: currentKey)
            let difference =
                switch (rowsOnly.isEmpty, scanOnly.isEmpty) {
                case (false, true): "the rows also have \(rowsOnly.joined(separator: ", "))"
                case (true, false): "this scan adds \(scanOnly.joined(separator: ", "))"
                default: "rows: \(rowsOnly.joined(separator: ", ")); this scan: \(scanOnly.joined(separator: ", "))"
                }
            let subject = files == 1 ? "1 unchanged file keeps its row" : "\(files) unchanged files keep their rows"
            let what =
                switch outcome {
                case .keptCovering:
                    "\(subject), made with settings that include this scan's (\(difference)): their \(Self.extras(rowsOnly)) stay; new and changed files get this scan's"
                case .kept:
                    "\(subject), made with other settings (\(difference)): not analysed again; --rescan analyses them with this scan's"
                case .rescanned:
                    "\(files) unchanged file\(files == 1 ? " has its row" : "s have rows") made with other settings (\(difference)): --rescan analyses them again with this scan's, replacing those rows"
                }
            return "signalpath: \(TerminalText.sanitized(database)): \(what)"
        case .migrated(let version):
            return
                "signalpath: \(TerminalText.sanitized(database)): its schema was upgraded from version \(version) to \(ScanStore.schemaVersion) (docs/SCAN.md); older signalpath versions refuse it from now on"
        }
    }

    /// `--duplicates`: the database's groups of equal content; reads no audio.
    private func listDuplicates(into writer: inout ResultWriter) throws {
        let groups: [(sha256: String, sizeBytes: Int64, paths: [String])]
        do throws(SignalPathError) {
            groups = try ScanStore.openForReading(db).duplicates()
        } catch {
            throw writer.abandon(error)
        }
        writer.write(document: ContentDuplicatesReport(groups, sanitizesPaths: StandardOutput.isTerminal))
        try writer.finish()
    }
}
