import ArgumentParser
import SignalPathKit

struct Analyze: AsyncParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        _superCommandName: "signalpath",
        abstract: "Levels, loudness (EBU R128), true peak, tones, distortion and a spectral summary, in one pass.",
        discussion: """
            Each file is read once, in parallel chunks, with memory that does not grow with its \
            length. Every number states its conventions (the last line of the text report; \
            `conventions` in JSON): RMS is relative to a full-scale square wave unless \
            --rms-reference sine; loudness follows ITU-R BS.1770-4 and EBU R128 / Tech 3342; true \
            peak uses BS.1770's 4× interpolation filter, or with --true-peak accurate an 8× \
            interpolator that reads peaks near 0.45·fs within 0.1 dB. With --range, the filters \
            start from the audio before the range, not from silence.

            The report for people is what a terminal and a pipe get alike (`| grep LUFS` works); \
            programs ask for --format csv, tsv, json or ndjson, or name an --output file whose \
            extension picks the format. JSON (schema signalpath.analyze/1) has per file `format`, \
            `channels` (levels, tones, distortion and spectral summary per channel), `levels`, \
            `loudness`, `tones`, `distortion` and `spectral` for the mean of the channels, and \
            `conventions`; a file that cannot be analysed is an entry with `path`, `error`, \
            `error_category` and `exit_code`. Values that do not exist (the loudness of digital \
            silence) are null. CSV has one row per file and channel. See docs/ANALYZE.md.

            Examples:
              signalpath analyze take.wav
              signalpath analyze take.wav | grep LUFS
              signalpath analyze --format json *.flac > report.json
              signalpath analyze --range 1:00..2:00 --rms-reference sine take.wav
              signalpath analyze --true-peak accurate master.flac
              signalpath analyze --jobs 4 recordings/*.wav --output levels.csv
              signalpath analyze --md5 --format json archive/*.flac
            """
    )
    static let name = "analyze"
    static let formats: [OutputFormat] = [.text, .csv, .tsv, .json, .ndjson]
    static let view = TerminalView.report

    @OptionGroup var input: FileArguments
    @OptionGroup var streamOption: StreamOptions
    @OptionGroup var range: RangeOptions
    @OptionGroup var analysis: AnalysisOptions
    @OptionGroup var truePeak: TruePeakOptions
    @OptionGroup var identity: IdentityOptions
    @OptionGroup var output: OutputOptions<Analyze>
    @OptionGroup var jobs: JobOptions

    func run() async throws {
        let range = self.range, settings = settings, stream = streamOption.stream
        try await FileBatch(files: input.files, output: output, schema: SignalAnalysis.schema, jobs: jobs.workers).runSideBySide { item throws(SignalPathError) in
            try await Self.analyse(item.path, stream: stream, range: range, settings: settings, workers: item.workers)
        }
    }

    /// The analysis options with the true-peak mode.
    var settings: AnalysisSettings {
        var settings = analysis.settings
        settings.truePeakMode = truePeak.mode
        identity.apply(to: &settings)
        return settings
    }

    private static func analyse(
        _ path: String, stream: Int?, range: RangeOptions, settings: AnalysisSettings, workers: Int
    ) async throws(SignalPathError) -> SignalAnalysis {
        // The FFT's plan (once per process), made on an idle core while the file opens and the
        // analysis sets up. Not awaited: nothing but the shared plan cache depends on it, and a
        // file that fails to open need not wait for it. A child task (`async let`) started after
        // the open came too late (docs/DECISIONS.md#off-critical-path).
        Task.detached { SignalAnalyzer.prepare(settings) }
        let file = try await AudioFile.openNoting(path, stream: stream)
        let frames = try range.frames(in: file)
        let progress = ProgressLine(label: "analyze \(path)")
        defer { progress.finish() }
        return try await SignalAnalyzer(file: file, frames: frames, settings: settings)
            .run(workers: workers, progress: { progress.update($0) })
    }
}
