extension LoudnessPlot {
    /// Loudness over time as a chart: short-term (solid) and momentary (dashed, thinner) lines,
    /// the integrated level as a labelled rule across, the target's tolerance band behind them,
    /// a LUFS axis with a grid every 5 LU (10 when the range is wide) and a time axis in s or
    /// m:ss; the title's path as the title, the rest and the summary's first line as subtitle.
    public func chart(_ style: ChartStyle) -> Chart {
        let levels = self.levels
        let span = levels.upperBound - levels.lowerBound
        let ticks = ChartAxis.steps(levels, count: min(Int(span / 5), style.tickCounts.vertical)).map { ChartTick($0, UnitFormat.shortest($0)) }
        let y = ChartAxis(range: levels, label: "Loudness (LUFS)", ticks: ticks)
        let x = ChartAxis.time(range: times, count: style.tickCounts.horizontal)
        let titles = ChartStyle.split(title)
        let subtitle = ([titles.subtitle] + summary.prefix(1)).filter { !$0.isEmpty }.joined(separator: " · ")
        var chart = style.chart(title: titles.title, subtitle: subtitle, x: x, panels: [ChartPanel(y: y)])
        let pixels = chart.layout.plotPixels().width
        var marks: [ChartMark] = []
        if let target {
            let label = "target \(UnitFormat.shortest(target.level)) ± \(UnitFormat.shortest(target.tolerance)) LU"
            marks.append(.horizontalBand(target.level - target.tolerance...target.level + target.tolerance, color: .band, label: label))
        }
        let series: [(name: String, index: Int, dash: LineDash, width: Double)] = [("momentary", 1, .dashed, 1.1), ("short-term", 0, .solid, 1.8)]
        for trace in series {
            let value = Self.traces[trace.index].value
            let points = points.compactMap { point in value(point).map { (x: point.time, y: $0) } }
            marks.append(.line(points: ChartMark.thinned(points, axis: x, pixels: pixels), color: .trace(trace.index), dash: trace.dash, width: trace.width))
        }
        if let integrated, integrated.isFinite {
            marks.append(.horizontalRule(y: integrated, color: .text, dash: .dotted, label: "integrated \(UnitFormat.fixed(integrated, 1)) LUFS"))
        }
        chart.panels[0].marks = marks
        chart.legend = series.reversed().map { ChartLegendEntry($0.name, color: .trace($0.index), dash: $0.dash) }
        return chart
    }
}
