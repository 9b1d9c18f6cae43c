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
        let sink = try openOutput()
        if duplicates { return try listDuplicates(into: sink) }
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
        write(summary, to: sink)
        do throws(SignalPathError) {
            try sink.finish()
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
        if let signal = summary.interruptedBy { throw ExitCode(128 + signal) }
        if summary.failed + summary.failedBefore + summary.unreachable > 0 { throw ExitCode(ExitStatus.badData) }
    }

    private func openOutput() throws -> OutputSink {
        do throws(SignalPathError) {
            return try output.open()
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
    }

    /// `120/500 files  3.2 MB/s  8.1 files/s  2 failed`.
    private static func status(_ state: ScanProgress) -> String {
        let seconds = max(state.seconds, 1e-3)
        let failures = state.failed > 0 ? "  \(state.failed) failed" : ""
        return "\(state.done)/\(state.total) files  \(UnitFormat.fixed(Double(state.bytesDone) / seconds / 1e6, 1)) MB/s  "
            + "\(UnitFormat.fixed(Double(state.done) / seconds, 1)) files/s\(failures)"
    }

    private func write(_ summary: ScanSummary, to sink: OutputSink) {
        if output.resolvedFormat == .json {
            sink.writeLine(Self.json(summary, database: db, profile: extras.profile?.name).serialized(pretty: true))
            return
        }
        let rescanned = summary.rescanned > 0 ? "; \(summary.rescanned) of them again with this scan's settings (--rescan)" : ""
        var lines = [
            "Scanned into \(TerminalText.sanitized(db)) in \(UnitFormat.time(summary.seconds, decimals: 2))",
            "  analysed    \(summary.analysed) (\(UnitFormat.fixed(Double(summary.bytesRead) / 1e6, 1)) MB read\(rescanned))",
            "  unchanged   \(summary.unchanged) (stored rows still hold: not read)",
        ]
        if summary.keptOtherSettings > 0 {
            lines.append("  kept        \(summary.keptOtherSettings) (rows made with other settings, kept as they are: --rescan analyses them)")
        }
        if summary.recognised > 0 { lines.append("  recognised  \(summary.recognised) (same content as a stored file: not analysed)") }
        lines.append("  failed      \(summary.failed)" + (summary.failedBefore > 0 ? " now, \(summary.failedBefore) before (not read again)" : ""))
        lines.append(
            "  truncated   \(summary.truncated)" + (summary.truncatedBefore > 0 ? " now, \(summary.truncatedBefore) before" : "")
                + (summary.truncated + summary.truncatedBefore > 0 ? " (shorter than their headers promise: see the messages above)" : ""))
        if let profile = extras.profile {
            lines.append(
                "  check       \(profile.name): \(summary.passed) passed, \(summary.notPassed) did not pass"
                    + (summary.withoutVerdict > 0 ? ", \(summary.withoutVerdict) without its verdict (rows kept with other settings)" : ""))
        }
        if summary.unreachable > 0 { lines.append("  unreachable \(summary.unreachable) (not walked: see the messages above)") }
        if summary.vanished > 0 { lines.append("  vanished    \(summary.vanished) (deleted before their turn)") }
        if let signal = summary.interruptedBy {
            lines.append("  stopped by signal \(signal): the files in flight were finished and committed; run again to go on")
        }
        sink.write(lines.joined(separator: "\n") + "\n")
    }

    /// The summary as `signalpath.scan/1`; `check` is null without a profile.
    static func json(_ summary: ScanSummary, database: String, profile: String?) -> JSONValue {
        func count(_ value: Int) -> JSONValue { .integer(Int64(value)) }
        let check: JSONValue =
            profile.map { name in
                .object([
                    "profile": .string(name), "passed": count(summary.passed), "failed": count(summary.notPassed),
                    "without_verdict": count(summary.withoutVerdict),
                ])
            } ?? .null
        return .object([
            "schema": "signalpath.scan/1", "database": .string(database),
            "analysed": count(summary.analysed), "rescanned": count(summary.rescanned), "unchanged": count(summary.unchanged),
            "kept_other_settings": count(summary.keptOtherSettings), "recognised": count(summary.recognised), "failed": count(summary.failed),
            "failed_before": count(summary.failedBefore), "truncated": count(summary.truncated), "truncated_before": count(summary.truncatedBefore),
            "check": check, "unreachable": count(summary.unreachable), "vanished": count(summary.vanished), "bytes_read": .integer(summary.bytesRead),
            "commits": count(summary.commits), "rows_written": count(summary.rowsWritten),
            "seconds": .number((summary.seconds * 1000).rounded() / 1000),
            "interrupted_by_signal": summary.interruptedBy.map { .integer(Int64($0)) } ?? .null,
        ])
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
        }
    }

    /// `--duplicates`: groups of equal content, a blank line between groups (text), or JSON.
    private func listDuplicates(into sink: OutputSink) throws {
        let groups: [(sha256: String, sizeBytes: Int64, paths: [String])]
        do throws(SignalPathError) {
            groups = try ScanStore.openForReading(db).duplicates()
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
        if output.resolvedFormat == .json {
            let objects: [JSONValue] = groups.map { group in
                .object([
                    "content_sha256": .string(group.sha256), "size_bytes": .integer(group.sizeBytes), "paths": .array(group.paths.map { .string($0) }),
                ])
            }
            sink.writeLine(JSONValue.object(["schema": "signalpath.scan-duplicates/1", "groups": .array(objects)]).serialized(pretty: true))
        } else {
            let text = groups.map { group in
                group.paths.map { "\(group.sha256.prefix(16))  \(group.sizeBytes)  \(StandardOutput.isTerminal ? TerminalText.sanitized($0) : $0)" }
                    .joined(separator: "\n")
            }.joined(separator: "\n\n")
            if !text.isEmpty { sink.write(text + "\n") }
        }
        do throws(SignalPathError) {
            try sink.finish()
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
    }
}
