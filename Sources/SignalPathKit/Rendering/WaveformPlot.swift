/// A waveform as a terminal picture, the audiowaveform-style overview: per channel a lane of
/// braille dots, each dot column one column of the `WaveformEnvelope` (so the analysis is asked for
/// `plotArea(in:).width × 2` columns), its min–max envelope dimmed (`envelope`) around the RMS
/// band (`trace`); columns with clipped samples marked `×` on the time axis and their clipped
/// extremes in `clip`. Linear (±1 full scale) or dBFS (|x| in dB from `floor` at the centre line
/// to 0 dB at the lane's edges, sign kept, as Audacity's dB view).
///
/// A view: it draws into a canvas area and knows nothing of terminals.
public struct WaveformPlot: Sendable {
    public enum Scale: String, Sendable, CaseIterable {
        case linear, dbfs
    }

    public var title: String
    public var waveform: WaveformEnvelope
    public var scale = Scale.linear
    /// The level at the centre line of a dBFS lane.
    public var floor = -60.0
    /// Without colour the envelope beyond the RMS band is stippled (every other dot row), so that
    /// the two still differ.
    public var monochrome = false

    static let labelWidth = 5

    public init(title: String, waveform: WaveformEnvelope) {
        self.title = title
        self.waveform = waveform
    }

    /// The cells the lanes take within `area`: below the title, left of the level labels, above
    /// the time axis and its labels. A waveform for it has `width × 2` columns.
    public static func plotArea(in area: Area) -> Area {
        Area(x: area.x + labelWidth + 1, y: area.y + 1, width: area.width - labelWidth - 1, height: area.height - 3)
    }

    /// Where `value` (full scale ±1) sits from −1 (bottom edge) to +1 (top edge) of a lane.
    func position(_ value: Double) -> Double {
        switch scale {
        case .linear:
            return min(1, max(-1, value))
        case .dbfs:
            guard value != 0 else { return 0 }
            let level = 20 * log10(abs(value))
            let magnitude = min(1, max(0, 1 - level / floor))
            return value < 0 ? -magnitude : magnitude
        }
    }

    public func draw(into canvas: inout Canvas, area: Area) {
        guard !area.isEmpty else { return }
        canvas.fill(area, with: .blank)
        canvas.write(title, x: area.x, y: area.y, style: .title, limit: area.width)
        let plot = Self.plotArea(in: area)
        let channels = waveform.channelCount
        guard plot.width >= 2, plot.height >= channels, channels > 0 else { return }
        let laneRows = plot.height / channels
        var grid = BrailleGrid(columns: plot.width, rows: plot.height)
        for channel in 0..<channels {
            let top = plot.y + channel * laneRows
            drawLabels(into: &canvas, plot: plot, top: top, rows: laneRows, name: waveform.channelNames[channel])
            drawLane(into: &grid, channel: channel, firstDotRow: (top - plot.y) * 4, dotRows: laneRows * 4)
        }
        grid.draw(into: &canvas, at: plot)
        for y in plot.rows { canvas.put(Cell("│", .axis), x: plot.x - 1, y: y) }
        drawTimeAxis(into: &canvas, plot: plot, area: area)
    }

    /// Level labels at the lane's top, centre and bottom, a dotted grid line at the centre (0, or
    /// the floor in dBFS), and with several channels the channel's name on the row above the
    /// bottom one (never the centre's: from four rows on, the two differ).
    private func drawLabels(into canvas: inout Canvas, plot: Area, top: Int, rows: Int, name: String) {
        let middle = top + (rows - 1) / 2
        var labels: [(row: Int, text: String)] = [(middle, scale == .linear ? "0" : UnitFormat.fixed(floor, 0))]
        if rows >= 3 { labels += [(top, scale == .linear ? "+1" : "0"), (top + rows - 1, scale == .linear ? "-1" : "0")] }
        for (row, text) in labels {
            let text = String(text.prefix(Self.labelWidth))
            canvas.write(text, x: plot.x - 1 - text.count, y: row, style: .label)
        }
        for x in plot.columns { canvas.put(Cell("┈", .grid), x: x, y: middle) }
        if waveform.channelCount > 1, rows >= 4 {
            canvas.write(String(TerminalText.sanitized(name).prefix(Self.labelWidth)), x: plot.x - 1 - Self.labelWidth, y: top + rows - 2, style: .legend)
        }
    }

    private func drawLane(into grid: inout BrailleGrid, channel: Int, firstDotRow: Int, dotRows: Int) {
        func row(_ value: Double) -> Int { firstDotRow + Int(((1 - position(value)) / 2 * Double(dotRows - 1)).rounded()) }
        let fullScale = Double(waveform.fullScale)
        for x in 0..<min(waveform.columns, grid.dotWidth) {
            let high = row(Double(waveform.maximum(x, channel))), low = row(Double(waveform.minimum(x, channel)))
            let rms = waveform.rms(x, channel)
            let rmsTop = max(high, row(rms)), rmsBottom = min(low, row(-rms))
            for y in high...max(high, low) where y < rmsTop || y > rmsBottom {
                if !monochrome || (y - firstDotRow) % 2 == 0 { grid.set(x: x, y: y, style: .envelope(channel)) }
            }
            if rmsTop <= rmsBottom { for y in rmsTop...rmsBottom { grid.set(x: x, y: y, style: .trace(channel)) } }
            if waveform.clipped(x, channel) > 0 {
                if Double(waveform.maximum(x, channel)) >= fullScale { grid.set(x: x, y: high, style: .clip) }
                if Double(waveform.minimum(x, channel)) <= -fullScale { grid.set(x: x, y: low, style: .clip) }
            }
        }
    }

    /// The axis under the lanes with `×` under columns that clipped, and the start, middle and end
    /// times under it.
    private func drawTimeAxis(into canvas: inout Canvas, plot: Area, area: Area) {
        let row = plot.y + plot.height
        canvas.put(Cell("└", .axis), x: plot.x - 1, y: row)
        for x in plot.columns { canvas.put(Cell("─", .axis), x: x, y: row) }
        for column in 0..<waveform.columns where (0..<waveform.channelCount).contains(where: { waveform.clipped(column, $0) > 0 }) {
            canvas.put(Cell("×", .clip), x: plot.x + column / 2, y: row)
        }
        let times = waveform.seconds
        let labels = UnitFormat.axisTimes([times.lowerBound, (times.lowerBound + times.upperBound) / 2, times.upperBound])
        let positions = [plot.x, plot.x + plot.width / 2 - labels[1].count / 2, plot.x + plot.width - labels[2].count]
        var end = Int.min
        for (label, x) in zip(labels, positions) where x > end {
            canvas.write(label, x: x, y: row + 1, style: .label)
            end = x + label.count
        }
    }
}
