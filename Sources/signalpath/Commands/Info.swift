import ArgumentParser
import SignalPathKit

struct Info: AsyncParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        _superCommandName: "signalpath",
        abstract: "Show the format of audio files: container, sample format, rate, channels, length, tags.",
        discussion: """
            A report for people, on a terminal and piped alike (so `| grep`, `| less` see what \
            you see); programs ask for --format csv, tsv, json or ndjson, or name an --output \
            file whose extension picks the format. In JSON and NDJSON a file that cannot be read \
            is an entry with `path`, `error`, `error_category` and `exit_code`.

            Files libsndfile does not read (MP4/M4A, Matroska, WebM, AC-3, WMA, a video's \
            soundtrack) are read through FFmpeg's libraries; their audio streams are listed, \
            and --stream N describes stream N.

            Examples:
              signalpath info take.wav
              signalpath info --format json *.flac
              signalpath info *.wav --output formats.csv
              signalpath info film.mkv --stream 1
              ffmpeg -i in.mp4 -f wav - | signalpath info -
            """
    )
    static let name = "info"
    static let formats: [OutputFormat] = [.text, .csv, .tsv, .json, .ndjson]
    static let view = TerminalView.report

    @OptionGroup var input: FileArguments
    @OptionGroup var streamOption: StreamOptions
    @OptionGroup var output: OutputOptions<Info>

    func run() async throws {
        let stream = streamOption.stream
        try await FileBatch(files: input.files, output: output, schema: FileInfo.schema, jobs: 1).run { item, writer throws(SignalPathError) in
            try writer.write(FileInfo(file: AudioFile.openNoting(item.path, use: nil, stream: stream)))
        }
    }
}
