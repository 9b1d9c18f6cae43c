import ArgumentParser
import SignalPathKit

/// How results are written: for people or for programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case plot, text, csv, tsv, json, ndjson
}

struct MachineOutputOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Output format: plot (spectrum and spectrogram), text (for people), csv, tsv, json (one document) or ndjson (one line per file).",
            discussion: "Default: text when standard output is a terminal, csv otherwise."))
    var format: OutputFormat?

    /// The format to write: the one asked for, or text on a terminal and `fallback` otherwise.
    func resolved(fallback: OutputFormat) -> OutputFormat {
        format ?? (StandardOutput.isTerminal ? .text : fallback)
    }
}
