import ArgumentParser
import SignalPathKit

struct Check: AsyncParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        _superCommandName: "signalpath",
        abstract: "Delivery verdicts: does each file meet a loudness profile (EBU R128, ATSC A/85, podcast, streaming)?",
        discussion: """
            Each file is analysed once (as analyze does) and checked against the rules of a \
            --profile, overridden or extended by --target-lufs, --tolerance, --max-true-peak, \
            --max-lra, --max-clipped and --max-dc. Per file: each rule with its measured value, \
            limit and verdict, and the gain that would bring the integrated loudness to the target, \
            with the true peak that gain would give and the limiting it would need; the clipped \
            samples and clipping events of every file (runs of --clip-run full-scale samples; runs \
            under 10 ms apart are one event, as analyze and events count them), and, when there \
            are any, that gain does not undo them. Rules and the documents' words: docs/CHECK.md.

            Profiles (values compared unrounded; outputs show 0.01, a Tech 3341 meter 0.1 LU):
            \(profileList)
            No profile has a clipping rule of its own (none of the documents states one), but a \
            file clipped at full scale reads at least -0.0003 dBTP and fails every profile's \
            true-peak rule; --max-clipped makes clipping a rule.

            The report (a line per rule, ✓ or ✗ where the locale is UTF-8, pass or FAIL) is what a \
            terminal and a pipe get alike; programs ask for --format json (schema \
            signalpath.check/1: per file `passed`, `target_lufs`, `gain_db`, `limiting_db`, \
            `clipped_samples`, `clip_events`, `rules` with `measured`, `min`, `max`, `passed`; \
            `summary` with the counts), ndjson (a line per file, then the summary), or csv (one \
            row per file and rule). The report of several files ends with a line "N of M passed, \
            F failed, K unreadable".

            Exit status: 0 when every file passes, 1 when any file fails a rule; a file that \
            cannot be read gets its own code (64-74), which wins over 1. The other files are \
            still checked.

            Examples:
              signalpath check --profile ebu-r128 episode.wav
              signalpath check --profile podcast --max-lra 8 *.flac
              signalpath check --target-lufs -18 --tolerance 1 take.wav
              signalpath check --profile streaming --format csv *.wav > qc.csv
              signalpath check --profile atsc-a85 --max-clipped 0 spot.wav || echo fix
            """
    )
    static let name = "check"
    /// Each profile for --help: its limits, and under them the document it implements.
    static var profileList: String {
        let width = DeliveryProfile.all.map(\.name.count).max() ?? 0
        return DeliveryProfile.all.map { profile in
            var lines = ["  " + profile.name + String(repeating: " ", count: width + 2 - profile.name.count) + profile.limits]
            // ArgumentParser wraps long lines without indenting them: wrap the document here.
            for word in profile.document.split(separator: " ") {
                if lines.count == 1 || lines[lines.count - 1].count + word.count >= 78 {
                    lines.append("      " + word)
                } else {
                    lines[lines.count - 1] += " " + word
                }
            }
            return lines.joined(separator: "\n")
        }
        .joined(separator: "\n")
    }
    static let formats: [OutputFormat] = [.text, .csv, .tsv, .json, .ndjson]
    static let view = TerminalView.report

    @OptionGroup var input: FileArguments
    @OptionGroup var streamOption: StreamOptions
    @OptionGroup var rules: CheckOptions
    @OptionGroup var range: RangeOptions
    @OptionGroup var output: OutputOptions<Check>
    @OptionGroup var jobs: JobOptions
    @OptionGroup var truePeak: TruePeakOptions

    func run() async throws {
        var writer = try ResultWriter(output: output, schema: DeliveryVerdict.schema)
        let range = self.range, settings = rules.settings(truePeak: truePeak.mode), deliveryRules = rules.rules, workers = jobs.workers, files = input.files
        let stream = streamOption.stream
        let charset = TerminalCharset.detect(environment: ProcessEnvironment.current)
        var passedCount = 0, failedCount = 0, unreadableCount = 0
        // Files run side by side (up to --jobs at once); verdicts come out in the order given.
        await forEachFileInOrder(files, workers: workers) { path throws(SignalPathError) in
            try await Self.verdict(path, stream: stream, range: range, settings: settings, rules: deliveryRules, workers: workers)
        } deliver: { result in
            switch result {
            case .success(let verdict):
                if verdict.passed { passedCount += 1 } else { failedCount += 1 }
                write(verdict, to: &writer, charset: charset)
            case .failure(let error):
                unreadableCount += 1
                writer.failed(error)
            }
        }
        // The closing line belongs to the report (standard output), after the files' blocks; one
        // file's block says it all already.
        if writer.format == .text && files.count > 1 {
            let line = "\(passedCount) of \(files.count) passed, \(failedCount) failed, \(unreadableCount) unreadable"
            writer.write((writer.successes == 0 ? "" : "\n") + line + "\n")
        }
        let summary = JSONValue.object([
            .init("files", .number(Double(files.count))), .init("passed", .number(Double(passedCount))),
            .init("failed", .number(Double(failedCount))), .init("unreadable", .number(Double(unreadableCount))),
        ])
        // Errors (64–74) are thrown here and win over a failed check.
        try writer.finish(summary: summary)
        if failedCount > 0 { throw ExitCode(ExitStatus.checkFailed) }
    }

    private func write(_ verdict: DeliveryVerdict, to writer: inout ResultWriter, charset: TerminalCharset) {
        switch writer.format {
        case .text:
            writer.writeReport(verdict.text(charset: charset))
        case .csv, .tsv:
            var table = DelimitedText(writer.format == .tsv ? .tsv : .csv)
            if writer.successes == 0 { table.append(DeliveryVerdict.csvHeader) }
            verdict.appendRows(to: &table)
            writer.write(table.text)
        default: break
        }
        writer.succeeded(json: verdict.jsonMembers)
    }

    /// One file's delivery check (`DeliveryCheck`: the analyze pass, and the events pass when a
    /// rule needs it), with its progress line.
    private static func verdict(
        _ path: String, stream: Int?, range: RangeOptions, settings: AnalysisSettings, rules: DeliveryRules, workers: Int
    ) async throws(SignalPathError) -> DeliveryVerdict {
        let file = try await AudioFile.openNoting(path, stream: stream)
        let frames = try range.frames(in: file)
        let progress = ProgressLine(label: "check \(path)")
        defer { progress.finish() }
        let check = try await DeliveryCheck.run(file: file, frames: frames, settings: settings, rules: rules, workers: workers, progress: { progress.update($0) })
        // Given rules, the check has a verdict.
        return check.verdict!
    }
}
