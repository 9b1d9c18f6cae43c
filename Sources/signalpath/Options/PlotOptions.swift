import ArgumentParser
import SignalPathKit

/// How plots are drawn: size, colour, levels and frequency axis. They apply to the pictures
/// (`--format plot` on a terminal, `svg`); given with a data or text format they are refused.
struct PlotOptions: ParsableArguments {
    static let defaultFloor = -120.0

    @Option(name: .long, help: ArgumentHelp("Plot width in columns (default: the terminal's, or COLUMNS, or 80).", valueName: "n"))
    var width: Int?

    @Option(name: .long, help: ArgumentHelp("Plot height in rows (default: fits the terminal).", valueName: "n"))
    var height: Int?

    @Option(name: .long, help: "Colour: auto (when standard output is a terminal and NO_COLOR is not set), always or never (default: auto).")
    var color: ColorDepth.Choice?

    // Levels are negative: `.unconditional` takes `-90` as the value, not as an option.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Lowest level shown, dB (default: \(Int(defaultFloor))); on a loudness chart, 40 LU below its top.", valueName: "db"))
    var floor: Double?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Highest level shown, dB (default: the maximum, rounded up; for a spectrogram 0, or with --scale psd its maximum rounded up).", valueName: "db"))
    var ceiling: Double?

    @Flag(name: .long, help: "Linear frequency axis (default: logarithmic).")
    var linear = false

    func validate() throws {
        if let width, !(8...1000).contains(width) { throw ValidationError("--width takes 8 to 1000 columns.") }
        if let height, !(4...500).contains(height) { throw ValidationError("--height takes 4 to 500 rows.") }
        if let floor, !(floor.isFinite && (-400...200).contains(floor)) { throw ValidationError("--floor takes -400 to 200 dB.") }
        if let ceiling {
            guard ceiling.isFinite, ceiling > floorLevel else { throw ValidationError("--ceiling must be above --floor (\(UnitFormat.shortest(floorLevel)) dB).") }
        }
    }

    /// Refuses the options that would change nothing in `format`.
    func refuseInapplicable(format: OutputFormat) throws {
        let given = [
            ("--width", width != nil), ("--height", height != nil), ("--color", color != nil), ("--floor", floor != nil),
            ("--ceiling", ceiling != nil), ("--linear", linear),
        ].filter(\.1).map(\.0)
        if let first = given.first, !format.isPicture {
            throw ValidationError("\(first) applies to a plot (--format plot or svg), not to \(format.rawValue).")
        }
        if color != nil && format == .svg { throw ValidationError("--color applies to a plot on a terminal; SVG is always in colour.") }
    }

    var floorLevel: Double { floor ?? Self.defaultFloor }

    /// The plot size: given, or the terminal's (leaving a line for the prompt), within limits.
    func size(defaultHeight: Int) -> (width: Int, height: Int) {
        let terminal = TerminalSize.current(environment: ProcessEnvironment.current)
        return (width ?? terminal?.columns ?? 80, height ?? min(defaultHeight, max(8, (terminal?.rows ?? 25) - 1)))
    }

    var depth: ColorDepth {
        ColorDepth.detect(choice: color ?? .auto, isTerminal: StandardOutput.isTerminal, environment: ProcessEnvironment.current)
    }

    /// True when `format` draws without colour (a plot on a terminal with none, `--color never`,
    /// NO_COLOR): channels are then told apart by pattern, heat maps by shades. SVG is in colour.
    func isMonochrome(_ format: OutputFormat) -> Bool { format == .plot && depth == .none }

    /// The view as terminal text (`plot`) or a standalone SVG document (`svg`).
    func render(_ format: OutputFormat, defaultHeight: Int, theme: Theme = Theme(), draw: (inout Canvas, Area) -> Void) -> String {
        precondition(format.isPicture)
        let size = size(defaultHeight: defaultHeight)
        if format == .svg { return PlotOutput.svg(width: size.width, height: size.height, theme: theme, draw: draw) }
        return PlotOutput.terminalText(width: size.width, height: size.height, depth: depth, theme: theme, draw: draw)
    }
}
