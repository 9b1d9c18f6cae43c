import ArgumentParser
import SignalPathKit

struct Analyze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Levels, loudness (EBU R128), true peak, tones, distortion and a spectral summary, in one pass.",
        discussion: """
            Each file is read once, in parallel chunks, with memory that does not grow with its \
            length. Every number states its conventions (the last line of the text report; \
            `conventions` in JSON): RMS is relative to a full-scale square wave unless \
            --rms-reference sine; loudness follows ITU-R BS.1770-4 and EBU R128 / Tech 3342; true \
            peak uses BS.1770's 4× interpolation filter.

            JSON (schema signalpath.analyze/1) has per file `format`, `channels` (levels, tones, \
            distortion and spectral summary per channel), `levels`, `loudness`, `tones`, \
            `distortion` and `spectral` for the mean of the channels, and `conventions`. Values that \
            do not exist (the loudness of digital silence) are null. CSV has one row per file and \
            channel. See docs/ANALYZE.md.

            Examples:
              signalpath analyze take.wav
              signalpath analyze --format json *.flac > report.json
              signalpath analyze --range 1:00..2:00 --rms-reference sine take.wav
              signalpath analyze --jobs 4 --format csv recordings/*.wav
            """
    )

    @OptionGroup var input: FileArguments
    @OptionGroup var range: RangeOptions
    @OptionGroup var analysis: AnalysisOptions
    @OptionGroup var output: MachineOutputOptions
    @OptionGroup var jobs: JobOptions

    func run() async throws {
        let format = output.resolved(fallback: .csv)
        let timeRange = try range.timeRange()
        let settings = analysis.settings
        let workers = jobs.workers
        let files = input.files
        var failures = FailureTally()
        var documents: [JSONValue] = []
        var printed = 0
        // Files run side by side (up to --jobs at once); reports come out in the order given.
        await withTaskGroup(of: (Int, Result<SignalAnalysis, SignalPathError>).self) { group in
            var next = 0
            var finished: [Int: Result<SignalAnalysis, SignalPathError>] = [:]
            func start() {
                let index = next
                next += 1
                group.addTask {
                    do throws(SignalPathError) {
                        return (index, .success(try await Self.analyse(files[index], timeRange: timeRange, settings: settings, workers: workers)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            while next < min(files.count, workers) { start() }
            while let (index, result) = await group.next() {
                finished[index] = result
                while let ready = finished.removeValue(forKey: printed) {
                    switch ready {
                    case .success(let report): write(report, format: format, first: printed == 0, documents: &documents)
                    case .failure(let error): failures.record(error)
                    }
                    printed += 1
                }
                if next < files.count { start() }
            }
        }
        if format == .json {
            print(JSONValue.object(["schema": .string(SignalAnalysis.schema), "files": .array(documents)]).serialized(pretty: true))
        }
        try failures.finish()
    }

    private func write(_ report: SignalAnalysis, format: OutputFormat, first: Bool, documents: inout [JSONValue]) {
        switch format {
        case .text, .plot:
            print((first ? "" : "\n") + report.text)
        case .csv, .tsv:
            var table = DelimitedText(format == .tsv ? .tsv : .csv)
            if first { table.append(SignalAnalysis.csvHeader) }
            report.appendRows(to: &table)
            print(table.text, terminator: "")
        case .ndjson:
            print(JSONValue.object([.init("schema", .string(SignalAnalysis.schema))] + report.jsonMembers).serialized())
        case .json:
            documents.append(.object(report.jsonMembers))
        }
    }

    private static func analyse(
        _ path: String, timeRange: TimeRange, settings: AnalysisSettings,
        workers: Int
    ) async throws(SignalPathError) -> SignalAnalysis {
        let file = try AudioFile.openNoting(path)
        let frames = try timeRange.frames(in: path, sampleRate: file.format.sampleRate, frames: file.format.frames)
        let progress = ProgressLine(label: "analyze \(path)")
        defer { progress.finish() }
        return try await SignalAnalyzer(file: file, frames: frames, settings: settings)
            .run(workers: workers, progress: { progress.update($0) })
    }
}
