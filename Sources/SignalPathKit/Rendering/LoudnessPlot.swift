/// Loudness over time as a meter's history shows it: short-term loudness as a braille line on top,
/// momentary faint under it (per dot column the range of its values), both left out where values
/// are missing; the integrated level as a line across, with a target its tolerance band, a time
/// axis in m:ss and the summary under it.
///
/// A view: it draws into a canvas area and knows nothing of terminals.
public struct LoudnessPlot: Sendable {
    public var title: String
    public var points: [LoudnessSeries.Point]
    /// The time span of the axis, seconds from the start of the file.
    public var times: ClosedRange<Double>
    public var integrated: Double?
    /// The target level and its tolerance (± LU), drawn as a band.
    public var target: (level: Double, tolerance: Double)?
    /// Lines under the plot (`LoudnessSummary.summaryLines`).
    public var summary: [String] = []
    /// The LUFS axis; nil: from the loudest value rounded up to 5 LU, 40 LU down.
    public var floor: Double?
    public var ceiling: Double?
    /// Without colour, momentary is dotted and short-term solid.
    public var monochrome = false
    /// Momentary loudness drawn under short-term; false: short-term alone (`--no-momentary`).
    public var showsMomentary = true

    public init(title: String, points: [LoudnessSeries.Point], times: ClosedRange<Double>, integrated: Double?) {
        self.title = title
        self.points = points
        self.times = times
        self.integrated = integrated
    }

    /// The LUFS range of the axis.
    var levels: ClosedRange<Double> {
        let shown = showsMomentary
        var largest = points.lazy.flatMap { [shown ? $0.momentary : nil, $0.shortTerm] }.compactMap { $0 }.max() ?? -20
        if let target { largest = max(largest, target.level + target.tolerance) }
        let top = ceiling ?? (largest / 5).rounded(.up) * 5 + 5
        let bottom = floor ?? min(top - 40, (target.map { $0.level - $0.tolerance } ?? top) - 5)
        return bottom...max(top, bottom + 1)
    }

    public func draw(into canvas: inout Canvas, area: Area) {
        guard !area.isEmpty else { return }
        canvas.fill(area, with: .blank)
        canvas.write(title, x: area.x, y: area.y, style: .title, limit: area.width)
        let labelWidth = 5
        let summaryRows = min(summary.count, max(0, area.height - 8))
        let plot = Area(x: area.x + labelWidth + 1, y: area.y + 2, width: area.width - labelWidth - 1, height: area.height - 4 - summaryRows)
        for (row, line) in summary.prefix(summaryRows).enumerated() {
            canvas.write(line, x: area.x, y: area.y + area.height - summaryRows + row, style: .label, limit: area.width)
        }
        guard plot.width >= 4, plot.height >= 2 else { return }
        drawLegend(into: &canvas, area: Area(x: area.x, y: area.y + 1, width: area.width, height: 1))
        canvas.write("LUFS", x: area.x, y: area.y + 1, style: .label, limit: labelWidth)
        let levels = self.levels
        let span = levels.upperBound - levels.lowerBound
        func row(_ level: Double) -> Int { plot.y + Int(((levels.upperBound - level) / span * Double(plot.height - 1)).rounded()) }
        // Level grid every 5 LU (10 when rows are few).
        let step = span / 5 > Double(plot.height) / 2 ? 10.0 : 5.0
        var level = (levels.upperBound / step).rounded(.down) * step
        while level >= levels.lowerBound {
            for x in plot.columns { canvas.put(Cell("┈", .grid), x: x, y: row(level)) }
            let label = UnitFormat.fixed(level, 0)
            canvas.write(label, x: area.x + labelWidth - label.count, y: row(level), style: .label)
            level -= step
        }
        if let target {
            for edge in [target.level + target.tolerance, target.level - target.tolerance] where levels.contains(edge) {
                for x in plot.columns { canvas.put(Cell("╌", .clip), x: x, y: row(edge)) }
            }
        }
        if let integrated, levels.contains(integrated) {
            for x in plot.columns { canvas.put(Cell("─", .peak), x: x, y: row(integrated)) }
        }
        drawTimeAxis(into: &canvas, plot: plot)
        drawTraces(into: &canvas, plot: plot, levels: levels)
        for y in plot.rows { canvas.put(Cell("│", .axis), x: plot.x - 1, y: y) }
        canvas.put(Cell("└", .axis), x: plot.x - 1, y: plot.y + plot.height)
    }

    /// The style momentary loudness is drawn in: its trace's colour, dimmed.
    static let momentaryStyle = Style.envelope(1)

    /// `━ short-term  ⠤⠤ momentary  ─ integrated -23.0  ╌ target -23 ± 1`, as far as it fits.
    private func drawLegend(into canvas: inout Canvas, area: Area) {
        var entries: [(sample: String, style: Style, name: String)] = [(monochrome ? DotPattern.forChannel(0).sample(cells: 2) : "━", .trace(0), "short-term")]
        if showsMomentary { entries.append((monochrome ? DotPattern.forChannel(1).sample(cells: 2) : "━", Self.momentaryStyle, "momentary")) }
        if let integrated { entries.append(("─", .peak, "integrated " + UnitFormat.fixed(integrated, 1))) }
        if let target { entries.append(("╌", .clip, "target " + UnitFormat.shortest(target.level) + " ± " + UnitFormat.shortest(target.tolerance))) }
        var x = area.x + 6
        for entry in entries {
            guard x + entry.sample.count + 1 + entry.name.count <= area.x + area.width else { break }
            canvas.write(entry.sample, x: x, y: area.y, style: entry.style)
            canvas.write(entry.name, x: x + entry.sample.count + 1, y: area.y, style: .legend)
            x += entry.sample.count + entry.name.count + 3
        }
    }

    /// Ticks at a round step (seconds, then minutes, then hours) that leaves room for the labels.
    private func drawTimeAxis(into canvas: inout Canvas, plot: Area) {
        let duration = max(times.upperBound - times.lowerBound, 1e-9)
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400]
        let shape = UnitFormat.TimeShape(times.upperBound, decimals: 0)
        let labelWidth = UnitFormat.time(times.upperBound, decimals: 0, shape: shape).count + 3
        let step = steps.first { duration / $0 <= Double(max(1, plot.width / labelWidth)) } ?? duration
        let decimals = step < 1 ? 1 : 0
        for x in plot.columns { canvas.put(Cell("─", .axis), x: x, y: plot.y + plot.height) }
        var tick = (times.lowerBound / step).rounded(.up) * step
        var labelEnd = Int.min
        while tick <= times.upperBound + 1e-9 {
            let column = plot.x + Int(((tick - times.lowerBound) / duration * Double(plot.width - 1)).rounded())
            canvas.put(Cell("┴", .axis), x: column, y: plot.y + plot.height)
            let label = UnitFormat.time(tick, decimals: decimals, trimmed: true, shape: shape)
            let start = min(max(column - label.count / 2, plot.x), plot.x + plot.width - label.count)
            if start > labelEnd {
                canvas.write(label, x: start, y: plot.y + plot.height + 1, style: .label)
                labelEnd = start + label.count
            }
            tick += step
        }
    }

    /// Per dot column: momentary (faint, drawn first) as the range of its values there, joined to
    /// the next column's range; short-term as its loudest value, a line on top. A column without a
    /// value (no full window yet, or below the gate) is left empty and breaks the line.
    private func drawTraces(into canvas: inout Canvas, plot: Area, levels: ClosedRange<Double>) {
        var grid = BrailleGrid(columns: plot.width, rows: plot.height)
        let span = levels.upperBound - levels.lowerBound
        let duration = max(times.upperBound - times.lowerBound, 1e-9)
        func ranges(_ value: (LoudnessSeries.Point) -> Double?) -> [(low: Int, high: Int)?] {
            var ranges = [(low: Double, high: Double)?](repeating: nil, count: grid.dotWidth)
            for point in points {
                guard let value = value(point) else { continue }
                let x = Int(((point.time - times.lowerBound) / duration * Double(grid.dotWidth - 1)).rounded())
                guard ranges.indices.contains(x) else { continue }
                ranges[x] = (min(ranges[x]?.low ?? .infinity, value), max(ranges[x]?.high ?? -.infinity, value))
            }
            func y(_ value: Double) -> Int {
                let clamped = min(max(value, levels.lowerBound), levels.upperBound)
                return Int(((levels.upperBound - clamped) / span * Double(grid.dotHeight - 1)).rounded())
            }
            // Dot rows grow downwards: a range's low level is its larger row.
            return ranges.map { range in range.map { (low: y($0.low), high: y($0.high)) } }
        }
        if showsMomentary {
            let pattern = monochrome ? DotPattern.forChannel(1) : .solid
            var previous: (low: Int, high: Int)?
            var count = 0
            for (x, range) in ranges(\.momentary).enumerated() {
                guard let range else {
                    previous = nil
                    continue
                }
                // Reaching to the previous column's range, so that a jump stays one trace.
                let low = previous.map { max(range.low, $0.high) } ?? range.low
                let high = previous.map { min(range.high, $0.low) } ?? range.high
                grid.line(from: (x, high), to: (x, low), style: Self.momentaryStyle, pattern: pattern, count: &count)
                previous = range
            }
        }
        let pattern = monochrome ? DotPattern.forChannel(0) : .solid
        var previous: (x: Int, y: Int)?
        var count = 0
        for (x, range) in ranges(\.shortTerm).enumerated() {
            guard let range else {
                previous = nil
                continue
            }
            let point = (x: x, y: range.high)
            grid.line(from: previous ?? point, to: point, style: .trace(0), pattern: pattern, count: &count, fromEnd: previous != nil)
            previous = point
        }
        grid.draw(into: &canvas, at: plot)
    }
}
