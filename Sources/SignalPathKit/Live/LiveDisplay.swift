/// A `LiveScreen` on a `Terminal`, frame after frame: each frame is drawn at the terminal's size
/// of the moment and only the cells that changed are written (a resize redraws it all). The one
/// frame sequence of replay and record.
public struct LiveDisplay {
    public let terminal: any Terminal
    public let renderer: ANSIRenderer
    private var previous: Canvas?

    public init(terminal: any Terminal, depth: ColorDepth) {
        self.terminal = terminal
        renderer = ANSIRenderer(depth: depth)
    }

    /// Spectrogram columns that fit the terminal now (the plot's width beside its level labels).
    public var historyLimit: Int { max(1, terminal.size.columns - SpectrogramPlot.labelWidth - 1) }

    /// Draws `screen`; false when the terminal's output has gone.
    public mutating func show(_ screen: LiveScreen) -> Bool {
        let size = terminal.size
        let canvas = PlotOutput.canvas(width: size.columns, height: size.rows) { screen.draw(into: &$0, area: $1) }
        defer { previous = canvas }
        return terminal.write(renderer.frame(canvas, previous: previous))
    }
}
