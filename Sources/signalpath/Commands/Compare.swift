import ArgumentParser
import SignalPathKit

struct Compare: AsyncParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        _superCommandName: "signalpath",
        abstract: "Null test: are two recordings the same, and if not, how and where do they differ?",
        discussion: """
            Decodes A and B (any two files signalpath reads: other containers, formats, bit depths, \
            sample rates, lengths) and says first whether their samples are identical, bit for bit \
            (then nothing else runs). Otherwise B is aligned to A: its delay (to 0.01 sample, from \
            the cross-correlation of band-limited excerpts refined by the phase of their \
            cross-spectrum), gain (to 0.01 dB), polarity and clock drift (ppm, from excerpts \
            spread over the range); B is resampled to A's rate and corrected for drift by libsoxr, \
            shifted by the remaining fraction of a sample (windowed sinc), scaled by 1/gain and \
            subtracted from A. The residual: RMS and peak (dBFS), null depth (dB below A), the \
            correlation of A and aligned B, third-octave spectra of A, B and the residual, and the \
            seconds where the residual is largest. Both files are read in pieces, never whole. \
            Schema and conventions: docs/COMPARE.md.

            The report is what a terminal and a pipe get alike; programs ask for --format json \
            (schema signalpath.compare/1), ndjson (a line per pair) or csv (a row per pair). \
            --output diff.png (or .svg, .pdf) draws the difference: the third-octave spectra of A, \
            B aligned and the residual, and the residual's RMS per second. \
            --pairs FILE compares many pairs: one line per pair, A and B separated by a tab.

            Exit status: 0; with --max-residual, 1 when any pair's aligned residual RMS is above \
            it; a file that cannot be read gets its own code (64-74), which wins over 1.

            Examples:
              signalpath compare master.wav render.flac
              signalpath compare before.wav after.mp3 --channel left --range 10s..40s
              signalpath compare take-a.wav take-b.wav --max-residual -50 || echo differ
              signalpath compare master.wav transfer.wav --output diff.png
              signalpath compare --pairs renders.tsv --format ndjson > report.ndjson
            """
    )
    static let name = "compare"
    static let formats: [OutputFormat] = [.text, .csv, .tsv, .json, .ndjson, .png, .svg, .pdf]
    static let view = TerminalView.report

    @Argument(help: ArgumentHelp("The two files: A (the reference) and B (compared with it).", valueName: "file"))
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Compare the pairs listed in FILE, one per line: A, a tab, B.", valueName: "file"))
    var pairs: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The channels compared: all (default; both files need as many), a number from 1, left, right, a position (FL, LFE) or mix.", valueName: "channel"),
        transform: OptionValue.channelOrAll)
    var channel: ChannelSelection = .all

    // Levels are negative: `.unconditional` takes `-50` as the value, not as an option.
    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Exit with status 1 when the aligned residual's RMS is above this level (dBFS, e.g. -50).", valueName: "dbfs"),
        transform: OptionValue.residualLevel)
    var maxResidual: Double?

    @Option(name: .long, help: ArgumentHelp("The largest delay searched, either way (default 1s).", valueName: "time"), transform: OptionValue.duration)
    var maxDelay: Double = 1

    @OptionGroup var range: RangeOptions
    @OptionGroup var output: OutputOptions<Compare>

    func validate() throws {
        if pairs == nil && files.count != 2 { throw ValidationError("Name two files, A and B (or a list of pairs with --pairs).") }
        if pairs != nil && !files.isEmpty { throw ValidationError("Give two files or --pairs FILE, not both.") }
        if files.contains("-") { throw ValidationError("compare reads its files more than once: name files, not standard input.") }
        if pairs != nil && output.resolvedFormat.isPicture {
            throw ValidationError("--pairs: a picture shows one pair; compare two files for it, or write the list's results as json, ndjson or csv.")
        }
    }

    func run() async throws {
        var writer = try ResultWriter(output: output, schema: SignalComparison.schema)
        let list: [(String, String)]
        if let pairs {
            do throws(SignalPathError) {
                list = try Self.readPairs(pairs)
            } catch {
                throw ExitCode(ExitStatus.report(error))
            }
        } else {
            list = [(files[0], files[1])]
        }
        var failed = 0, passed = 0, unreadable = 0
        // Its own loop, not FileBatch's: an input is a pair of files, and a pair a row of one table.
        for (pathA, pathB) in list {
            do throws(SignalPathError) {
                let comparison = try compare(pathA, pathB)
                // The text report says it in place; other formats carry only the correlation.
                if comparison.barelyCorrelates && writer.format != .text {
                    let correlation = UnitFormat.fixed(comparison.residual?.correlation ?? 0, 3)
                    StandardError.writeLine(
                        "signalpath: \(TerminalText.sanitized(pathA)) and \(TerminalText.sanitized(pathB)): they barely correlate after alignment (\(correlation)): \(SignalComparison.unrelatedNote)"
                    )
                }
                if let maxResidual, !comparison.passes(maximumResidual: maxResidual) { failed += 1 } else { passed += 1 }
                try writer.write(
                    ComparisonReport(comparison: comparison, maximumResidual: maxResidual), picture: PictureOutput(chart: { comparison }))
            } catch {
                unreadable += 1
                writer.failed(error)
            }
        }
        let summary = JSONValue.object([
            .init("pairs", .number(Double(list.count))), .init("passed", .number(Double(passed))), .init("failed", .number(Double(failed))),
            .init("unreadable", .number(Double(unreadable))),
        ])
        try writer.finish(summary: list.count > 1 ? summary : nil)
        if failed > 0 { throw ExitCode(ExitStatus.residualAboveLimit) }
    }

    private func compare(_ pathA: String, _ pathB: String) throws(SignalPathError) -> SignalComparison {
        let a = try AudioFile.openNoting(pathA, use: "comparing those")
        let b = try AudioFile.openNoting(pathB, use: "comparing those")
        let frames = try range.frames(in: a)
        let progress = ProgressLine(label: "compare \(pathA)")
        defer { progress.finish() }
        return try SignalComparator(maximumDelaySeconds: maxDelay).compare(a, frames: frames, with: b, channels: channel) { progress.update($0) }
    }

    /// The pairs of a --pairs file: a line per pair, A and B separated by a tab; blank lines and
    /// lines starting with # are skipped.
    static func readPairs(_ path: String) throws(SignalPathError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for (number, text) in try PathList.lines(path, separator: UInt8(ascii: "\n")).enumerated() {
            if text.isEmpty || text.hasPrefix("#") { continue }
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                throw .invalidRequest(path: path, reason: "line \(number + 1): a pair is two paths separated by a tab")
            }
            pairs.append((String(fields[0]), String(fields[1])))
        }
        guard !pairs.isEmpty else { throw .invalidRequest(path: path, reason: "lists no pairs") }
        return pairs
    }
}
