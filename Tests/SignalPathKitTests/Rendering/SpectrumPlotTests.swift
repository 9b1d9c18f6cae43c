import Testing

@testable import SignalPathKit

@Suite("spectrum plot: peak labels")
struct SpectrumPlotTests {
    /// Peaks placed on known columns of a linear axis (one bin per column): A's label fills the
    /// cells right of it, C's marker blocks the cells right of B, and B's label fits exactly left
    /// of B, touching A's: "10 A121 B1" unless labels keep a cell between them.
    @Test("two labels never touch: the one that would is placed elsewhere")
    func labelsKeepApart() {
        let width = 60, height = 16
        let plotWidth = width - 6
        let frequencies = (0..<plotWidth).map(Double.init)
        var values = [Double](repeating: -100, count: plotWidth)
        for bin in [10, 21, 23] { values[bin] = -20 }
        var plot = SpectrumPlot(title: "t", frequencies: frequencies, channels: [("left", values)])
        plot.logarithmic = false
        plot.peaks = [(10, "A1"), (21, "B1"), (23, "C2")].map { bin, note in
            SpectralPeak(channel: 0, bin: bin, frequency: Double(bin), level: -20, note: MusicalNote(name: note, cents: 0))
        }
        let canvas = PlotOutput.canvas(width: width, height: height) { plot.draw(into: &$0, area: $1) }
        var runs: [String] = []
        for y in 0..<height {
            var run = ""
            for x in 0...width {
                if x < width, let cell = canvas[x, y], cell.style == .peak, cell.character != "▼" {
                    run.append(cell.character)
                } else if !run.isEmpty {
                    runs.append(run)
                    run = ""
                }
            }
        }
        #expect(Set(runs) == ["10 A1", "21 B1", "23 C2"], "\(runs)")
    }
}
