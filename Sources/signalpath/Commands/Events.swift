import ArgumentParser
import SignalPathKit

struct Events: AsyncParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        _superCommandName: "signalpath",
        abstract: "What happens where: silences, clipping, dropouts, DC offset and loudness jumps, with their times.",
        discussion: """
            Each file is read once, in parallel chunks, with memory that does not grow with its \
            length; events are written as they are decided, in the order they end. One row per \
            event: type, channel (its name, or `all`), start_s, end_s, duration_s, level_dbfs (the \
            level that characterises it), level_lufs (a loudness jump's loudness) and detail.

            silence: every channel below --silence-threshold for --min-silence (as ffmpeg \
            silencedetect). clipping: runs of --clip-run full-scale samples, runs under 10 ms \
            apart in one event. dropout: a gap inside sound of 1 ms or more, of any length short \
            of a silence: one value (digital zero, or a held value), or a fall of 40 dB or more \
            (dither at the last bits, noise far below the sound around it). dc_offset: the 1 s \
            mean above --max-dc. \
            loudness_jump: short-term loudness moving more than --max-jump LU within 1 s. \
            See docs/EVENTS.md for every rule.

            The table for people is what a terminal and a pipe get alike; programs ask for \
            --format csv, tsv, json (schema signalpath.events/2: file, conventions, summary, \
            events) or ndjson (one line per event, then one with the file's summary).

            Examples:
              signalpath events take.wav
              signalpath events --format csv *.wav > events.csv
              signalpath events --min-silence 2 --silence-threshold -50 podcast.flac
              signalpath events --format json --max-jump 6 show.wav
              signalpath events --jobs 4 --output 'events/{stem}.csv' *.wav
            """
    )
    static let name = "events"
    static let formats: [OutputFormat] = [.text, .csv, .tsv, .json, .ndjson]
    static let view = TerminalView.report

    @OptionGroup var input: FileArguments
    @OptionGroup var streamOption: StreamOptions
    @OptionGroup var range: RangeOptions
    @OptionGroup var rules: EventOptions
    @OptionGroup var output: OutputOptions<Events>
    @OptionGroup var jobs: JobOptions

    /// Events are a file's own list: a pattern (`--output 'events/{stem}.csv'`) writes one per input.
    static let writesFilePerInput = true

    func validate() throws {
        try output.check(inputs: input.files)
    }

    func run() async throws {
        let settings = rules.settings, command = self
        // Without a pattern, files one after another, each with every worker: events stream out
        // as they are decided. With one, --jobs inputs at once (FileBatch).
        try await FileBatch(files: input.files, output: output, schema: EventOutput.schema, jobs: jobs.workers).run { item, writer throws(SignalPathError) in
            try await command.scan(item, settings: settings, writer: &writer)
        }
    }

    /// Events are written as they are decided (`ResultWriter.stream`), in every format.
    private func scan(_ item: FileBatch<Events>.Item, settings: EventSettings, writer: inout ResultWriter) async throws(SignalPathError) {
        let path = item.path
        let file = try await AudioFile.openNoting(path, stream: streamOption.stream)
        let frames = try range.frames(in: file)
        let report = EventOutput(path: path, stream: file.namedStream, format: file.format, frames: frames, settings: settings)
        let progress = ProgressLine(label: "events \(path)", enabled: StandardError.isTerminal && output.pattern == nil)
        defer { progress.finish() }
        try await writer.stream(report) { events throws(SignalPathError) in
            try await EventDetector(file: file, frames: frames, settings: settings).run(workers: item.workers, progress: { progress.update($0) }) { events.add($0) }
        }
    }
}
