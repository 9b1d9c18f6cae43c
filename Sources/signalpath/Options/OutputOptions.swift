import ArgumentParser
import SignalPathKit

/// A format a command can write.
enum OutputFormat: String, CaseIterable {
    /// The picture on a terminal (braille traces, half-block heat maps).
    case plot
    /// The report for people.
    case text
    case csv, tsv
    /// One document for the whole call.
    case json
    /// One line per file (spectrogram: per frame and channel).
    case ndjson
    /// The picture as a chart file, drawn by Cairo: SVG (vectors, text as glyph outlines, heat
    /// maps as embedded images), PNG (pixels) or PDF (vectors, for print).
    case svg, png, pdf

    var isPicture: Bool { self == .plot || chart != nil }

    /// The chart format of a chart file; nil for the terminal plot and for data and text.
    var chart: ChartFormat? { ChartFormat(rawValue: rawValue) }

    /// The extension of an `--output` file in this format; nil for plot, which is for terminals.
    var fileExtension: String? {
        switch self {
        case .plot: return nil
        case .text: return "txt"
        default: return rawValue
        }
    }

    /// The format an `--output` file's extension picks; `.jsonl` is NDJSON's other name.
    init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "txt": self = .text
        case "jsonl": self = .ndjson
        case "plot": return nil
        default: self.init(rawValue: fileExtension.lowercased())
        }
    }

    /// `a, b or c`.
    static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}

/// What a command shows on a terminal; it decides what a pipe gets.
enum TerminalView {
    /// A report for people (info, analyze): piped, the same report, without colour.
    case report
    /// A picture (spectrum plot, spectrogram): piped, its data as CSV.
    case picture
    /// Records for programs (export): NDJSON, on a terminal and piped alike.
    case records

    /// The format written when neither --format nor --output names one.
    func defaultFormat(onTerminal: Bool) -> OutputFormat {
        switch self {
        case .report: return .text
        case .picture: return onTerminal ? .plot : .csv
        case .records: return .ndjson
        }
    }
}

/// A command that writes data: its name, the formats it writes and its terminal view.
protocol DataCommand: SendableMetatype {
    static var name: String { get }
    static var formats: [OutputFormat] { get }
    static var view: TerminalView { get }
    /// True for a command that can write a file per input (`--output 'DIR/{stem}.png'`): it runs
    /// its files through `FileBatch`.
    static var writesFilePerInput: Bool { get }
}

extension DataCommand {
    static var writesFilePerInput: Bool { false }

    /// An `--output` pattern as this command would be given one: its picture, or its data.
    static var patternExample: String { formats.contains(.png) ? "pictures/{stem}.png" : "\(name)/{stem}.csv" }

    /// The extensions `--output` takes for this command.
    static var extensions: [String] { formats.compactMap(\.fileExtension).map { "." + $0 } }

    /// Parses `--format`: one of the formats this command writes.
    static func format(_ text: String) throws -> OutputFormat {
        guard let format = OutputFormat(rawValue: text.lowercased()), formats.contains(format) else {
            throw ValidationError("\(name) writes \(OutputFormat.list(formats.map(\.rawValue)))")
        }
        return format
    }

    static var formatHelp: String {
        let descriptions: [OutputFormat: String] = [
            .plot: "plot (the picture, for a terminal)", .text: "text (the report for people)", .csv: "csv", .tsv: "tsv",
            .json: "json (one document)",
            .ndjson: "ndjson (one line per \(name == "spectrogram" ? "frame and channel" : name == "loudness" ? "point, then one per file" : "file"))",
            .svg: "svg", .png: "png", .pdf: "pdf (the picture as a chart file)",
        ]
        let defaults =
            switch view {
            case .report: "text, on a terminal and piped alike"
            case .picture: "plot on a terminal, csv when piped"
            case .records: "ndjson"
            }
        return "Output format: " + OutputFormat.list(formats.map { descriptions[$0]! }) + " (default: \(defaults); with --output, its extension)."
    }
}

/// Where and in which format a command writes: `--format`, `--output FILE` (whose extension picks
/// the format) and `--force`. One rule for every command: the extension decides, a --format that
/// disagrees with it is a usage error, and so is an extension that names no format; with neither,
/// a report stays a report when piped and a picture becomes CSV.
struct OutputOptions<Command: DataCommand>: ParsableArguments {
    @Option(
        name: [.customShort("f"), .long], help: ArgumentHelp(Command.formatHelp, valueName: "format"), completion: .list(Command.formats.map(\.rawValue)),
        transform: { try Command.format($0) })
    var format: OutputFormat?

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp(
            "Write to FILE instead of standard output, whole or not at all (missing directories are created); its extension picks the format: \(OutputFormat.list(Command.extensions))."
                + (Command.writesFilePerInput
                    ? " A pattern with {stem}, {name} or {dir} writes a file per input ('\(Command.patternExample)'), each as if it were the only one."
                    : ""),
            valueName: "file"))
    var output: String?

    @Flag(name: .long, help: Command.writesFilePerInput ? "Replace the --output file (or, with a pattern, the files) if it exists." : "Replace the --output file if it exists.")
    var force = false

    func validate() throws {
        let format = try resolved()
        if force && output == nil { throw ValidationError("--force replaces an --output file; there is none.") }
        if format == .png || format == .pdf, output == nil, StandardOutput.isTerminal {
            throw ValidationError("\(format.rawValue.uppercased()) is binary: name a file with --output, or pipe it.")
        }
        if let output, try OutputPattern(output) != nil, !Command.writesFilePerInput {
            throw ValidationError("--output \(output): \(Command.name) writes one result for all its files; name one file, without {placeholders}.")
        }
    }

    /// True when standard output picked the format (neither --format nor --output names one): a
    /// picture on a terminal, data when piped.
    var formatFollowsStandardOutput: Bool { format == nil && output == nil }

    /// The refusal of `option`, which shapes only the picture (`what` it does), in the data or
    /// text being written: `refusal` when --format or --output asked for that format. When
    /// standard output chose it (a pipe gets CSV), the message says so and how to keep the
    /// picture — the same command line draws at a terminal, and must say why it fails in a pipe.
    /// `keep` names the ways to the picture the option shapes (a terminal's plot, a chart file).
    func pictureOnly(_ option: String, _ what: String, keep: String = "--format plot (or --output FILE.png)", else refusal: String) -> ValidationError {
        guard formatFollowsStandardOutput && Command.view == .picture && !StandardOutput.isTerminal else { return ValidationError(refusal) }
        return ValidationError(
            "\(option) \(what), and standard output is not a terminal, so \(Command.name) writes CSV: "
                + "add \(keep) to keep the picture, or leave \(option) out.")
    }

    /// The refusal of `option`, which applies only to data (`what` it does), in a picture:
    /// `refusal` when --format or --output asked for the picture; when a terminal as standard
    /// output chose it, the message says so and how to get the data.
    func dataOnly(_ option: String, _ what: String, else refusal: String) -> ValidationError {
        guard formatFollowsStandardOutput && Command.view == .picture && StandardOutput.isTerminal else { return ValidationError(refusal) }
        return ValidationError(
            "\(option) \(what), and standard output is a terminal, so \(Command.name) draws the picture: "
                + "add --format csv (or pipe the output) for the data, or leave \(option) out.")
    }

    /// The --output pattern, when it names a file per input (after `validate()`).
    var pattern: OutputPattern? { output.flatMap { try? OutputPattern($0) } }

    /// Checks the output against the inputs (a command's `validate()` calls it): a file that holds
    /// one picture cannot take several inputs without a pattern, and a pattern must give each
    /// input its own file. Data formats (CSV, JSON, …) hold several files in one document.
    func check(inputs: [String]) throws {
        guard let output else {
            // Chart files one after another on standard output would be one broken file.
            if inputs.count > 1, let chart = resolvedFormat.chart {
                let suggestion = Command.writesFilePerInput ? " or a pattern such as --output '{stem}.\(chart.rawValue)'" : ""
                throw ValidationError("Standard output holds one chart, and \(inputs.count) files are named; name one file\(suggestion).")
            }
            return
        }
        guard let pattern else {
            if inputs.count > 1 && resolvedFormat.isPicture {
                let suggestion = Command.writesFilePerInput ? "; for a file per input, name a pattern such as '{stem}.\(resolvedFormat.rawValue)'" : ""
                throw ValidationError("--output \(output) holds one chart, and \(inputs.count) files are named\(suggestion).")
            }
            return
        }
        var seen: [String: String] = [:]
        for input in inputs {
            let target = pattern.path(for: input)
            if let other = seen[target] {
                throw ValidationError("--output \(output): \(other) and \(input) would both write \(target); use {dir} or {name} to tell them apart.")
            }
            seen[target] = input
        }
    }

    /// The format to write (after `validate()`, which has refused every conflict).
    var resolvedFormat: OutputFormat {
        do {
            return try resolved()
        } catch {
            preconditionFailure("validate() refuses this: \(error)")
        }
    }

    private func resolved() throws -> OutputFormat {
        guard let output else { return format ?? Command.view.defaultFormat(onTerminal: StandardOutput.isTerminal) }
        let name = output.split(separator: "/").last.map(String.init) ?? output
        let fileExtension = name.contains(".") ? String(name[name.index(after: name.lastIndex(of: ".")!)...]) : ""
        let written = "\(Command.name) writes \(OutputFormat.list(Command.extensions))"
        guard let picked = OutputFormat(fileExtension: fileExtension) else {
            throw ValidationError("--output \(output): the extension picks the format, and \(fileExtension.isEmpty ? "there is none" : "'.\(fileExtension)' is none"); \(written).")
        }
        guard Command.formats.contains(picked) else { throw ValidationError("--output \(output): \(written), not \(picked.rawValue).") }
        if let format, format != picked {
            throw ValidationError("--format \(format.rawValue) disagrees with --output \(output), which is \(picked.rawValue); give one of them.")
        }
        return picked
    }

    /// Opens the destination: standard output, or the --output file (made now, so that a
    /// directory that cannot take it fails before any work: exit 73).
    func open() throws(SignalPathError) -> OutputSink {
        try OutputSink(path: output, overwrite: force)
    }
}
