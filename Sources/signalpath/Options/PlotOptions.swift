import ArgumentParser
import SignalPathKit

/// How plots are drawn: size, colour, axes, and an SVG file instead of the terminal.
struct PlotOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Plot width in columns (default: the terminal's, or COLUMNS, or 80).", valueName: "n"))
    var width: Int?

    @Option(name: .long, help: ArgumentHelp("Plot height in rows (default: fits the terminal).", valueName: "n"))
    var height: Int?

    @Option(name: .long, help: "Colour: auto (when standard output is a terminal and NO_COLOR is not set), always or never.")
    var color: ColorDepth.Choice = .auto

    @Option(name: .long, help: ArgumentHelp("Lowest level shown, dB.", valueName: "db"))
    var floor = -120.0

    @Option(name: .long, help: ArgumentHelp("Highest level shown, dB (default: the spectrum's maximum, rounded up; 0 for a spectrogram).", valueName: "db"))
    var ceiling: Double?

    @Flag(name: .long, help: "Linear frequency axis (default: logarithmic).")
    var linear = false

    @Option(name: .long, help: ArgumentHelp("Write the plot as a standalone SVG file instead.", valueName: "file.svg"))
    var output: String?

    @Flag(name: .long, help: "Replace the --output file if it exists.")
    var force = false

    func validate() throws {
        if let width, !(8...1000).contains(width) { throw ValidationError("--width takes 8 to 1000 columns.") }
        if let height, !(4...500).contains(height) { throw ValidationError("--height takes 4 to 500 rows.") }
        guard floor.isFinite, (-400...200).contains(floor) else { throw ValidationError("--floor takes -400 to 200 dB.") }
        if let ceiling {
            guard ceiling.isFinite, ceiling > floor else { throw ValidationError("--ceiling must be above --floor.") }
        }
    }

    /// The plot size: given, or the terminal's (leaving a line for the prompt), within limits.
    func size(defaultHeight: Int) -> (width: Int, height: Int) {
        let terminal = TerminalSize.current(environment: ProcessEnvironment.current)
        return (width ?? terminal?.columns ?? 80, height ?? min(defaultHeight, max(8, (terminal?.rows ?? 25) - 1)))
    }

    var depth: ColorDepth {
        ColorDepth.detect(choice: color, isTerminal: StandardOutput.isTerminal, environment: ProcessEnvironment.current)
    }

    /// Prints the view, or writes it to the --output SVG file.
    func emit(defaultHeight: Int, theme: Theme = Theme(), draw: (inout Canvas, Area) -> Void) throws(SignalPathError) {
        let size = size(defaultHeight: defaultHeight)
        if let output {
            try AtomicFile.write(PlotOutput.svg(width: size.width, height: size.height, theme: theme, draw: draw), to: output, overwrite: force)
        } else {
            print(PlotOutput.terminalText(width: size.width, height: size.height, depth: depth, theme: theme, draw: draw), terminator: "")
        }
    }
}

extension ColorDepth.Choice: ExpressibleByArgument {}
extension ColorMap: ExpressibleByArgument {}
extension SpectrumPlot.TraceStyle: ExpressibleByArgument {}
