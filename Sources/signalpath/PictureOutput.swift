import SignalPathKit

/// A result's picture and what draws it: the view (built only when a picture is written), the
/// plot options that size and colour it, and the terminal plot's height when none is given.
struct PictureOutput {
    /// The view on a terminal (`--format plot`); nil for a command whose picture is a chart only.
    private let plot: (() -> any Picture)?
    private let chart: () -> any ChartPicture
    private let plotting: PlotOptions?
    private let plotHeight: Int

    /// A picture drawn on a terminal and as a chart file, in `plotting`'s size and colours.
    init(plotting: PlotOptions, plotHeight: Int, _ view: @escaping () -> any Picture) {
        plot = view
        chart = view
        self.plotting = plotting
        self.plotHeight = plotHeight
    }

    /// A picture that is a chart file only, in the default chart style (a command without `PlotOptions`).
    init(chart view: @escaping () -> any ChartPicture) {
        plot = nil
        chart = view
        plotting = nil
        plotHeight = 0
    }

    /// The picture as terminal text.
    func terminalText() -> String {
        guard let plot, let plotting else { preconditionFailure("validate() offers --format plot only for a picture drawn on a terminal") }
        let view = plot()
        return plotting.render(.plot, defaultHeight: plotHeight) { canvas, area in view.draw(into: &canvas, area: area) }
    }

    /// The picture as the bytes of a chart file.
    func chartFile(_ format: ChartFormat) throws(SignalPathError) -> [UInt8] {
        try ChartRenderer.render(chart().chart(plotting?.chartStyle ?? ChartStyle()), as: format)
    }
}
