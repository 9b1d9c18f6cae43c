import SignalPathKit

/// A result's picture and what draws it: the view (built only when a picture is written), the
/// plot options that size and colour it, and the terminal plot's height when none is given.
struct PictureOutput {
    /// The view on a terminal (`--format plot`), for the plot's size; nil for a command whose
    /// picture is a chart only.
    private let plot: ((_ width: Int, _ height: Int) throws(SignalPathError) -> any TerminalPicture)?
    private let chart: (ChartStyle) throws(SignalPathError) -> Chart
    private let plotting: PlotOptions?
    private let plotHeight: Int
    private let theme: Theme

    /// A picture drawn on a terminal and as a chart file, in `plotting`'s size and colours.
    init(plotting: PlotOptions, plotHeight: Int, _ view: @escaping () -> any Picture) {
        plot = { _, _ in view() }
        chart = { style in view().chart(style) }
        self.plotting = plotting
        self.plotHeight = plotHeight
        theme = Theme()
    }

    /// A picture made by a pass of its own for each form, sized for where it goes: `plot` gets the
    /// terminal plot's width and height, `chart` the chart's style (a spectrogram's columns are
    /// the picture's). Either may fail part-way, reading the file.
    init(
        plotting: PlotOptions, plotHeight: Int, theme: Theme,
        plot: @escaping (_ width: Int, _ height: Int) throws(SignalPathError) -> any TerminalPicture,
        chart: @escaping (ChartStyle) throws(SignalPathError) -> Chart
    ) {
        self.plot = plot
        self.chart = chart
        self.plotting = plotting
        self.plotHeight = plotHeight
        self.theme = theme
    }

    /// A picture that is a chart file only, in the default chart style (a command without `PlotOptions`).
    init(chart view: @escaping () -> any ChartPicture) {
        plot = nil
        chart = { style in view().chart(style) }
        plotting = nil
        plotHeight = 0
        theme = Theme()
    }

    /// The picture as terminal text.
    func terminalText() throws(SignalPathError) -> String {
        guard let plot, let plotting else { preconditionFailure("validate() offers --format plot only for a picture drawn on a terminal") }
        let size = plotting.size(defaultHeight: plotHeight)
        let view = try plot(size.width, size.height)
        return plotting.render(.plot, defaultHeight: plotHeight, theme: theme) { canvas, area in view.draw(into: &canvas, area: area) }
    }

    /// The picture as the bytes of a chart file.
    func chartFile(_ format: ChartFormat) throws(SignalPathError) -> [UInt8] {
        try ChartRenderer.render(chart(plotting?.chartStyle ?? ChartStyle()), as: format)
    }
}
