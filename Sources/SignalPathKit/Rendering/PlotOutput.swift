/// Draws a view into a fresh canvas and turns it into terminal text (chart files: `Chart`).
public enum PlotOutput {
    /// The view drawn at `width` × `height`, as lines of text with escape codes for `depth`.
    public static func terminalText(
        width: Int, height: Int, depth: ColorDepth, theme: Theme = Theme(),
        draw: (inout Canvas, Area) -> Void
    ) -> String {
        ANSIRenderer(depth: depth, theme: theme).lines(canvas(width: width, height: height, draw: draw))
    }

    public static func canvas(width: Int, height: Int, draw: (inout Canvas, Area) -> Void) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        draw(&canvas, Area(x: 0, y: 0, width: width, height: height))
        return canvas
    }
}

extension SpectrumReport {
    /// The report as a plot: its rows (bins, smoothed bins or bands) per channel, its peaks, and a
    /// title that states file, range and parameters; `monochrome` when it is shown without colour.
    public func plot(style: SpectrumPlot.TraceStyle, logarithmic: Bool, floor: Double, ceiling: Double?, monochrome: Bool = false) -> SpectrumPlot {
        let parameters = spectrum.parameters
        let title =
            "\(AudioStream.heading(path: spectrum.path, stream: spectrum.stream)) · \(UnitFormat.times(spectrum.startSeconds, spectrum.endSeconds, separator: "–")) · "
            + "\(parameters.window.name) \(parameters.fftSize)-pt FFT, \(UnitFormat.fixed(spectrum.binWidth, 2)) Hz bins, "
            + "\(parameters.averaging.rawValue) of \(spectrum.segments), \(UnitFormat.fixed(parameters.overlap * 100, 0)) % overlap"
            + (presentation.weighting == .z ? "" : ", \(presentation.weighting.rawValue)-weighted")
        var plot = SpectrumPlot(
            title: title, frequencies: rows.map(\.frequency),
            channels: spectrum.channelNames.indices.map { channel in (spectrum.channelNames[channel], rows.map { $0.values[channel] }) })
        plot.peaks = peaksNamedOnce
        plot.unit = presentation.scale == .dbfs ? "dBFS" : presentation.scale == .linear ? "FS" : "dB"
        plot.logarithmic = logarithmic
        plot.floor = floor
        plot.ceiling = ceiling
        plot.traceStyle = presentation.bands != nil ? .bars : style
        plot.monochrome = monochrome
        plot.bands = rowBands
        if let range = presentation.frequencies {
            plot.frequencyRange = max(range.lowerBound, logarithmic ? 1 : 0)...min(range.upperBound, spectrum.binWidth * Double(spectrum.binCount - 1))
        }
        return plot
    }
}
