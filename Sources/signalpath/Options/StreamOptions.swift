import ArgumentParser

/// Which audio stream of a file with several (an MP4 or Matroska file with two languages, say).
struct StreamOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The audio stream to read, counted from 0 among the file's audio streams, as `info` lists them and as ffmpeg's `-map 0:a:N` counts (default: 0).",
            valueName: "n"),
        transform: OptionValue.streamNumber)
    var stream: Int?
}
