/// A spectrum as a plot: braille line traces (or eighth-block bars) per channel over a log or
/// linear frequency axis, a dB axis with grid, peak markers, a legend and a title line.
///
/// A view: it draws into a canvas area and knows nothing of terminals.
public struct SpectrumPlot: Sendable {
    public enum TraceStyle: String, Sendable, CaseIterable {
        case lines, bars
    }

    public var title: String
    /// Bin frequencies, Hz.
    public var frequencies: [Double]
    /// Per channel: name and one value (dB) per bin.
    public var channels: [(name: String, values: [Double])]
    /// Peaks to mark (their `channel` picks the trace they sit on).
    public var peaks: [SpectralPeak] = []
    /// The unit of the values, shown over the dB axis.
    public var unit = "dBFS"
    public var logarithmic = true
    public var floor = -120.0
    /// The top of the dB axis; nil: 5 dB over the largest value, rounded up to 10 dB.
    public var ceiling: Double?
    public var traceStyle = TraceStyle.lines
    /// Frequencies shown; nil: 20 Hz (log) or 0 (linear) to the last bin.
    public var frequencyRange: ClosedRange<Double>?
    /// The bands the values are (IEC 61260), drawn as bars of their widths on a chart.
    public var bands: [OctaveBand]?
    /// Channels told apart without colour (`--color never`, NO_COLOR): line traces solid, dotted,
    /// dashed, dash-dotted; with bars, the first channel as bars and the others as patterned
    /// lines over them; the legend shows each pattern.
    public var monochrome = false

    public init(title: String, frequencies: [Double], channels: [(name: String, values: [Double])]) {
        self.title = title
        self.frequencies = frequencies
        self.channels = channels
    }

    /// The dB range of the axis.
    var levels: ClosedRange<Double> {
        let largest = channels.flatMap(\.values).filter(\.isFinite).max() ?? floor + 10
        // At least 5 dB of headroom over the largest value, so peak markers fit above it.
        let top = ceiling ?? max(floor + 10, ((largest + 5) / 10).rounded(.up) * 10)
        return floor...max(top, floor + 1)
    }

    var axis: FrequencyAxis {
        let last = frequencies.last ?? 1
        return FrequencyAxis(range: frequencyRange ?? ((logarithmic ? min(20, last / 2) : 0)...max(last, 1e-9)), logarithmic: logarithmic)
    }

    public func draw(into canvas: inout Canvas, area: Area) {
        guard !area.isEmpty else { return }
        canvas.fill(area, with: .blank)  // a view owns its whole area: nothing of a previous frame shows through
        canvas.write(title, x: area.x, y: area.y, style: .title, limit: area.width)
        let labelWidth = 5
        let plot = Area(x: area.x + labelWidth + 1, y: area.y + 2, width: area.width - labelWidth - 1, height: area.height - 4)
        guard plot.width >= 4, plot.height >= 2 else { return }
        drawLegend(into: &canvas, area: Area(x: area.x, y: area.y + 1, width: area.width, height: 1))
        let levels = self.levels, axis = self.axis
        // dB grid and labels, every 10 dB (20 when the axis is tall in dB and short in rows).
        let span = levels.upperBound - levels.lowerBound
        let step = span / 10 > Double(plot.height) / 2 ? 20.0 : 10.0
        var level = (levels.upperBound / step).rounded(.down) * step
        while level >= levels.lowerBound {
            let row = plot.y + Int(((levels.upperBound - level) / span * Double(plot.height - 1)).rounded())
            for x in plot.columns { canvas.put(Cell("┈", .grid), x: x, y: row) }
            let label = UnitFormat.fixed(level, 0)
            canvas.write(label, x: area.x + labelWidth - label.count, y: row, style: .label)
            level -= step
        }
        canvas.write(unit, x: area.x, y: area.y + 1, style: .label, limit: labelWidth)
        // Frequency ticks: a vertical grid line, a mark on the axis, a label under it.
        let ticks = axis.ticks(count: max(2, plot.width / 8), dense: plot.width >= 60)
        var labelEnd = Int.min
        for tick in ticks {
            let column = plot.x + Int((axis.fraction(tick.frequency) * Double(plot.width - 1)).rounded())
            guard plot.columns.contains(column) else { continue }
            for y in plot.rows where canvas[column, y]?.character != "┈" { canvas.put(Cell("┊", .grid), x: column, y: y) }
            canvas.put(Cell("┴", .axis), x: column, y: plot.y + plot.height)
            let start = min(max(column - tick.label.count / 2, plot.x), area.x + area.width - tick.label.count)
            if start > labelEnd {
                canvas.write(tick.label, x: start, y: plot.y + plot.height + 1, style: .label)
                labelEnd = start + tick.label.count
            }
        }
        switch traceStyle {
        case .lines: drawLines(into: &canvas, plot: plot, levels: levels, axis: axis, channels: channels.indices)
        case .bars where monochrome && channels.count > 1:
            // Bars of several channels hide each other without colour: the others become lines.
            drawBars(into: &canvas, plot: plot, levels: levels, axis: axis, channels: 0..<1)
            drawLines(into: &canvas, plot: plot, levels: levels, axis: axis, channels: 1..<channels.count)
        case .bars: drawBars(into: &canvas, plot: plot, levels: levels, axis: axis, channels: channels.indices)
        }
        // Axes last, over everything.
        for y in plot.rows { canvas.put(Cell("│", .axis), x: plot.x - 1, y: y) }
        canvas.put(Cell("└", .axis), x: plot.x - 1, y: plot.y + plot.height)
        for x in plot.columns where canvas[x, plot.y + plot.height]?.character != "┴" {
            canvas.put(Cell("─", .axis), x: x, y: plot.y + plot.height)
        }
        drawPeaks(into: &canvas, plot: plot, levels: levels, axis: axis)
    }

    /// `━ left  ━ right` in the traces' styles, after the unit; without colour, each trace's
    /// pattern (`⠒⠒⠒ left  ⠂⠂⠂ right`, or `█` for bars).
    private func drawLegend(into canvas: inout Canvas, area: Area) {
        guard channels.count > 1 else { return }
        var x = area.x + 6
        for (index, channel) in channels.enumerated() {
            let name = TerminalText.sanitized(channel.name)
            let sample = !monochrome ? "━" : traceStyle == .bars && index == 0 ? "█" : DotPattern.forChannel(index).sample(cells: 3)
            guard x + sample.count + 1 + name.count <= area.x + area.width else { break }
            canvas.write(sample, x: x, y: area.y, style: .trace(index))
            canvas.write(name, x: x + sample.count + 1, y: area.y, style: .legend)
            x += sample.count + name.count + 3
        }
    }

    /// For each of `count` positions along the axis, the largest value of the bins that fall there
    /// (nil where none does).
    private func columnMaxima(_ values: [Double], count: Int, axis: FrequencyAxis) -> [Double?] {
        var maxima = [Double?](repeating: nil, count: count)
        for (bin, frequency) in frequencies.enumerated() where axis.range.contains(frequency) {
            let position = Int((axis.fraction(frequency) * Double(count - 1)).rounded())
            guard position >= 0, position < count else { continue }
            let value = values[bin].isFinite ? values[bin] : -Double.infinity
            maxima[position] = max(maxima[position] ?? -.infinity, value)
        }
        return maxima
    }

    private func drawLines(into canvas: inout Canvas, plot: Area, levels: ClosedRange<Double>, axis: FrequencyAxis, channels indices: Range<Int>) {
        var grid = BrailleGrid(columns: plot.width, rows: plot.height)
        let span = levels.upperBound - levels.lowerBound
        // The first channel last, so that it is on top.
        for index in indices.reversed() {
            let maxima = columnMaxima(channels[index].values, count: grid.dotWidth, axis: axis)
            let pattern = monochrome ? DotPattern.forChannel(index) : .solid
            var previous: (x: Int, y: Int)?
            var count = 0
            for (x, value) in maxima.enumerated() {
                guard let value else { continue }
                let clamped = min(max(value, levels.lowerBound), levels.upperBound)
                let point = (x: x, y: Int(((levels.upperBound - clamped) / span * Double(grid.dotHeight - 1)).rounded()))
                grid.line(from: previous ?? point, to: point, style: .trace(index), pattern: pattern, count: &count, fromEnd: previous != nil)
                previous = point
            }
        }
        grid.draw(into: &canvas, at: plot)
    }

    private func drawBars(into canvas: inout Canvas, plot: Area, levels: ClosedRange<Double>, axis: FrequencyAxis, channels indices: Range<Int>) {
        let eighths = Array(" ▁▂▃▄▅▆▇█")
        let span = levels.upperBound - levels.lowerBound
        for index in indices.reversed() {
            let channel = channels[index]
            let maxima = columnMaxima(channel.values, count: plot.width, axis: axis)
            for (column, value) in maxima.enumerated() {
                guard let value, value > levels.lowerBound else { continue }
                let height = Int(((min(value, levels.upperBound) - levels.lowerBound) / span * Double(plot.height * 8)).rounded())
                for row in 0..<plot.height {
                    let filled = min(8, height - row * 8)
                    guard filled > 0 else { break }
                    canvas.put(Cell(eighths[filled], .trace(index)), x: plot.x + column, y: plot.y + plot.height - 1 - row)
                }
            }
        }
    }

    /// `▼` over each peak, then labels with frequency and note where there is room (markers
    /// first, so that no label hides another peak's marker).
    private func drawPeaks(into canvas: inout Canvas, plot: Area, levels: ClosedRange<Double>, axis: FrequencyAxis) {
        let span = levels.upperBound - levels.lowerBound
        var placed: [(column: Int, row: Int, peak: SpectralPeak)] = []
        for peak in peaks where axis.range.contains(peak.frequency) && channels.indices.contains(peak.channel) {
            let column = plot.x + Int((axis.fraction(peak.frequency) * Double(plot.width - 1)).rounded())
            // The plotted value nearest the peak's frequency (rows may be smoothed or banded).
            let nearest = frequencies.indices.min { abs(frequencies[$0] - peak.frequency) < abs(frequencies[$1] - peak.frequency) } ?? 0
            let plotted = channels[peak.channel].values[nearest]
            let value = min(max(plotted.isFinite ? plotted : levels.lowerBound, levels.lowerBound), levels.upperBound)
            let row = max(plot.y, plot.y + Int(((levels.upperBound - value) / span * Double(plot.height - 1)).rounded()) - 1)
            guard plot.columns.contains(column) else { continue }
            canvas.put(Cell("▼", .peak), x: column, y: row)
            placed.append((column, row, peak))
        }
        // Labels written so far, so that two are never run together ("91 F#2131 C3").
        var labels: [(row: Int, columns: Range<Int>)] = []
        for (column, row, peak) in placed {
            let frequency = peak.frequency >= 1000 ? UnitFormat.fixed(peak.frequency / 1000, 2) + "k" : UnitFormat.fixed(peak.frequency, 0)
            let label = frequency + (peak.note.map { " " + $0.name } ?? "")
            func isFree(_ start: Int, _ row: Int) -> Bool {
                start >= plot.x && row >= plot.y && row < plot.y + plot.height
                    && (start..<start + label.count).allSatisfy { x in
                        x < plot.x + plot.width && [" ", "┈", "┊"].contains(canvas[x, row]?.character ?? "x")
                    }
                    && !labels.contains { $0.row == row && $0.columns.overlaps(start - 1..<start + label.count + 1) }
            }
            // Right of the marker, else right of it on the row above, else left of the marker, else
            // beside its trace on the row below (where peaks crowd the top row).
            let spots = [
                (column + 1, row), (column, row - 1), (column - label.count, row), (column + 1, row + 1), (column - label.count, row + 1),
            ]
            if let spot = spots.first(where: { isFree($0.0, $0.1) }) {
                canvas.write(label, x: spot.0, y: spot.1, style: .peak)
                labels.append((spot.1, spot.0..<spot.0 + label.count))
            }
        }
    }
}
