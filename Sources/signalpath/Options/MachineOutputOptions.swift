import ArgumentParser

/// How results are written: for people or for programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, ndjson
}

struct MachineOutputOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: text (aligned, for people), json (one document) or ndjson (one line per file).")
    var format: OutputFormat = .text
}
