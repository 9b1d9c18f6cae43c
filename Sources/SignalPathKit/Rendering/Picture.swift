/// A result's picture as a chart file (SVG, PNG, PDF). A command's writer draws it in the style
/// `--size`, `--theme` and `--dpi` give; the command never picks the format itself.
public protocol ChartPicture {
    func chart(_ style: ChartStyle) -> Chart
}

/// A picture drawn on a terminal (`--format plot`): braille traces, half blocks.
public protocol TerminalPicture {
    func draw(into canvas: inout Canvas, area: Area)
}

/// A picture drawn both on a terminal and as a chart file from the one view.
public protocol Picture: ChartPicture, TerminalPicture {}

extension SpectrumPlot: Picture {}
extension WaveformPlot: Picture {}
extension LoudnessPlot: Picture {}
extension SignalComparison: ChartPicture {}
extension SpectrogramPlot: TerminalPicture {}
