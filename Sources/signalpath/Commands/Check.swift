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
        let range = self.range, settings = rules.settings(truePeak: truePeak.mode), deliveryRules = rules.rules, stream = streamOption.stream
        let charset = TerminalCharset.detect(environment: ProcessEnvironment.current)
        // Files run side by side (up to --jobs at once); verdicts come out in the order given, then
        // the counts. Errors (64–74) are thrown by then and win over a failed check.
        let batch = FileBatch(files: input.files, output: output, schema: DeliveryVerdict.schema, jobs: jobs.workers)
        let tally = try await batch.runSideBySide(tallying: { item throws(SignalPathError) in
            let verdict = try await Self.verdict(item.path, stream: stream, range: range, settings: settings, rules: deliveryRules, workers: item.workers)
            return DeliveryReport(verdict, charset: charset)
        })
        if tally.failed > 0 { throw ExitCode(ExitStatus.checkFailed) }
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
