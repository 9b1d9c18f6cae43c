/// Time × frequency as a heat map: two pixel rows per cell with half blocks (`▀`, upper pixel in
/// the character's colour, lower in the background), a log or linear frequency axis, a time axis
/// and a colour legend. Without colour, a shade ramp (` ░▒▓█`) carries the level instead.
public struct SpectrogramPlot: Sendable {
    public var title: String
    /// Bin frequencies, Hz.
    public var frequencies: [Double]
    /// One column per time frame: a value (dB) per bin.
    public var frames: [[Double]]
    /// Start and end of the frames, seconds.
    public var times: ClosedRange<Double>
    public var logarithmic = true
    public var floor = -120.0
    public var ceiling = 0.0
    /// Shades instead of colours (for output without colour).
    public var shades = false
    public var frequencyRange: ClosedRange<Double>?

    public init(title: String, frequencies: [Double], frames: [[Double]], times: ClosedRange<Double>) {
        self.title = title
        self.frequencies = frequencies
        self.frames = frames
        self.times = times
    }

    static let shadeRamp = Array(" ░▒▓█")
    static let labelWidth = 5

    /// The plot area for a canvas area: what a caller sizes its frames to.
    public static func plotArea(in area: Area) -> Area {
        Area(x: area.x + labelWidth + 1, y: area.y + 1, width: area.width - labelWidth - 1, height: area.height - 4)
    }

    public func draw(into canvas: inout Canvas, area: Area) {
        guard !area.isEmpty else { return }
        canvas.fill(area, with: .blank)  // a view owns its whole area: nothing of a previous frame shows through
        canvas.write(title, x: area.x, y: area.y, style: .title, limit: area.width)
        let plot = Self.plotArea(in: area)
        guard plot.width >= 2, plot.height >= 1, !frames.isEmpty, !frequencies.isEmpty else { return }
        let last = frequencies.last!
        let axis = FrequencyAxis(range: frequencyRange ?? ((logarithmic ? min(20, last / 2) : 0)...max(last, 1e-9)), logarithmic: logarithmic)
        let pixelRows = plot.height * 2
        // Per pixel row (0 = top), the bins it covers: from its lower to its upper edge frequency.
        let rowBins: [Range<Int>] = (0..<pixelRows).map { row in
            let top = axis.frequency(at: 1 - Double(row) / Double(pixelRows))
            let bottom = axis.frequency(at: 1 - Double(row + 1) / Double(pixelRows))
            let lower = frequencies.firstIndex { $0 >= bottom } ?? frequencies.count - 1
            let upper = frequencies.lastIndex { $0 < top } ?? 0
            // A pixel narrower than a bin shows the nearest bin.
            return upper >= lower ? lower..<upper + 1 : lower..<lower + 1
        }
        let span = max(ceiling - floor, 1e-9)
        func heat(_ value: Double) -> UInt8 {
            guard value.isFinite else { return 0 }
            return UInt8(max(0, min(255, ((value - floor) / span * 255).rounded())))
        }
        for column in 0..<plot.width {
            let frame = frames[min(frames.count - 1, column * frames.count / plot.width)]
            for row in 0..<plot.height {
                let upper = heat(rowBins[2 * row].map { frame[$0] }.max() ?? -.infinity)
                let lower = heat(rowBins[2 * row + 1].map { frame[$0] }.max() ?? -.infinity)
                let cell =
                    shades
                    ? Cell(Self.shadeRamp[min(4, (Int(upper) + Int(lower)) * 5 / 512)], .plain)
                    : Cell("▀", .heat(upper), background: .heat(lower))
                canvas.put(cell, x: plot.x + column, y: plot.y + row)
            }
        }
        // Frequency labels on the left, at their rows.
        var usedRows: Set<Int> = []
        for tick in axis.ticks(count: plot.height / 2, dense: plot.height >= 24) {
            let row = plot.y + Int(((1 - axis.fraction(tick.frequency)) * Double(plot.height - 1)).rounded())
            // Labels need a free row above and below, so that neighbours stay readable.
            guard plot.rows.contains(row), !usedRows.contains(row), !usedRows.contains(row - 1), !usedRows.contains(row + 1) else { continue }
            canvas.write(tick.label, x: plot.x - 2 - tick.label.count, y: row, style: .label)
            canvas.put(Cell("┤", .axis), x: plot.x - 1, y: row)
            usedRows.insert(row)
        }
        for y in plot.rows where canvas[plot.x - 1, y]?.character != "┤" { canvas.put(Cell("│", .axis), x: plot.x - 1, y: y) }
        // Time axis: start, middle and end.
        let timeRow = plot.y + plot.height
        canvas.put(Cell("└", .axis), x: plot.x - 1, y: timeRow)
        for x in plot.columns { canvas.put(Cell("─", .axis), x: x, y: timeRow) }
        let labels = UnitFormat.axisTimes([times.lowerBound, (times.lowerBound + times.upperBound) / 2, times.upperBound])
        let positions = [plot.x, plot.x + plot.width / 2 - labels[1].count / 2, plot.x + plot.width - labels[2].count]
        var end = Int.min
        for (label, x) in zip(labels, positions) where x > end {
            canvas.write(label, x: x, y: timeRow + 1, style: .label)
            end = x + label.count
        }
        drawLegend(into: &canvas, row: timeRow + 2, area: area)
    }

    /// `-120 ████████████ 0 dB` at the right of its own row.
    private func drawLegend(into canvas: inout Canvas, row: Int, area: Area) {
        let low = UnitFormat.fixed(floor, 0), high = UnitFormat.fixed(ceiling, 0) + " dB"
        let steps = 12
        let width = low.count + 1 + steps + 1 + high.count
        let x = area.x + area.width - width
        guard x >= area.x, row < area.y + area.height else { return }
        canvas.write(low, x: x, y: row, style: .legend)
        for step in 0..<steps {
            let level = UInt8(step * 255 / (steps - 1))
            let cell = shades ? Cell(Self.shadeRamp[min(4, Int(level) * 5 / 256)], .plain) : Cell("█", .heat(level))
            canvas.put(cell, x: x + low.count + 1 + step, y: row)
        }
        canvas.write(high, x: x + low.count + 2 + steps, y: row, style: .legend)
    }
}
