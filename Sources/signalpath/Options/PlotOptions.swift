import ArgumentParser
import SignalPathKit

/// How pictures are drawn: the terminal plot's size and colour, the chart file's size, theme and
/// resolution. They apply to the pictures (`--format plot` on a terminal; the chart files `svg`,
/// `png`, `pdf`); given with a data or text format they are refused. The terminal's options
/// (--width and --height in cells, --color) and the charts' (--size in points, --theme; --dpi for
/// PNG) are refused in the other kind. What a picture's axes show is the command's own
/// (`LevelAxisOptions`, `--linear`, waveform's `--scale`).
struct PlotOptions: ParsableArguments {
    /// CSS's reference resolution: at 96 dpi a PNG has one pixel per point of --size.
    static let referenceDPI = 96.0

    @Option(name: .long, help: ArgumentHelp("Plot width in columns (default: the terminal's, or COLUMNS, or 80).", valueName: "n"))
    var width: Int?

    @Option(name: .long, help: ArgumentHelp("Plot height in rows (default: fits the terminal).", valueName: "n"))
    var height: Int?

    @Option(name: .long, help: "Colour: auto (when standard output is a terminal and NO_COLOR is not set), always or never (default: auto).")
    var color: ColorDepth.Choice?

    @Option(
        name: .long, help: ArgumentHelp("Chart size, WIDTHxHEIGHT: pixels of a PNG at 96 dpi, points of SVG and PDF (default: 1200x675).", valueName: "wxh"),
        transform: OptionValue.chartSize)
    var size: ChartSize?

    @Option(name: .long, help: "Chart colours: light or dark (default: light).")
    var theme: ChartTheme?

    @Option(
        name: .long, help: ArgumentHelp("PNG resolution: pixels per inch, with --size read at 96 (default: 96; 192 doubles the pixels).", valueName: "dpi"),
        transform: OptionValue.dpi)
    var dpi: Double?

    func validate() throws {
        if let width, !(8...1000).contains(width) { throw ValidationError("--width takes 8 to 1000 columns.") }
        if let height, !(4...500).contains(height) { throw ValidationError("--height takes 4 to 500 rows.") }
    }

    /// Refuses the options that would change nothing in the format `output` writes: these, and the
    /// command's own that only a picture shows (`pictureOnly`: name and whether it was given).
    func refuseInapplicable<Command>(_ output: OutputOptions<Command>, pictureOnly: [(String, Bool)] = []) throws {
        let format = output.resolvedFormat
        let given =
            ([("--width", width != nil), ("--height", height != nil), ("--color", color != nil)] + pictureOnly + [
                ("--size", size != nil), ("--theme", theme != nil), ("--dpi", dpi != nil),
            ]).filter(\.1).map(\.0)
        if let first = given.first, !format.isPicture {
            // The terminal's options keep a plot, the charts' a chart file.
            let keep =
                ["--width", "--height", "--color"].contains(first)
                ? "--format plot" : ["--size", "--theme", "--dpi"].contains(first) ? "--output FILE.png" : "--format plot (or --output FILE.png)"
            throw output.pictureOnly(
                first, "applies to a picture", keep: keep,
                else: "\(first) applies to a picture (--format plot, svg, png or pdf), not to \(format.rawValue).")
        }
        if let chart = format.chart {
            let name = chart.rawValue.uppercased()
            if width != nil || height != nil {
                throw ValidationError("--\(width != nil ? "width" : "height") counts terminal cells; a chart file is sized with --size WIDTHxHEIGHT.")
            }
            if color != nil { throw ValidationError("--color applies to a plot on a terminal; \(name) is always in colour (--theme light or dark).") }
            if dpi != nil && chart != .png { throw ValidationError("--dpi sets the pixels of a PNG; \(name) is drawn in points, without pixels.") }
        } else if let option = size != nil ? "--size" : theme != nil ? "--theme" : dpi != nil ? "--dpi" : nil {
            throw ValidationError("\(option) applies to a chart file (svg, png or pdf), not to a plot on a terminal (its size: --width, --height).")
        }
    }

    /// Size, resolution and theme of a chart file.
    var chartStyle: ChartStyle {
        let size = size ?? ChartSize(width: Int(Chart.defaultSize.width), height: Int(Chart.defaultSize.height))
        return ChartStyle(width: Double(size.width), height: Double(size.height), pixelScale: (dpi ?? Self.referenceDPI) / Self.referenceDPI, theme: theme ?? .light)
    }

    /// The plot size: given, or the terminal's (leaving a line for the prompt), within limits.
    func size(defaultHeight: Int) -> (width: Int, height: Int) {
        let terminal = TerminalSize.current(environment: ProcessEnvironment.current)
        return (width ?? terminal?.columns ?? 80, height ?? min(defaultHeight, max(8, (terminal?.rows ?? 25) - 1)))
    }

    var depth: ColorDepth {
        ColorDepth.detect(choice: color ?? .auto, isTerminal: StandardOutput.isTerminal, environment: ProcessEnvironment.current)
    }

    /// True when `format` draws without colour (a plot on a terminal with none, `--color never`,
    /// NO_COLOR): channels are then told apart by pattern, heat maps by shades. Charts are in colour.
    func isMonochrome(_ format: OutputFormat) -> Bool { format == .plot && depth == .none }

    /// The view as terminal text (`plot`).
    func render(_ format: OutputFormat, defaultHeight: Int, theme: Theme = Theme(), draw: (inout Canvas, Area) -> Void) -> String {
        precondition(format == .plot)
        let size = size(defaultHeight: defaultHeight)
        return PlotOutput.terminalText(width: size.width, height: size.height, depth: depth, theme: theme, draw: draw)
    }
}
