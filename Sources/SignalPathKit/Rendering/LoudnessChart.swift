extension LoudnessPlot {
    /// Loudness over time as a chart, as a meter's history shows it: short-term as a line on top
    /// (per pixel column its loudest value), momentary under it in a faint thin line (per pixel
    /// column its first, lowest, highest and last values: the column's range), both broken where
    /// values are missing (before the first full window, at or below the absolute gate), so a
    /// long programme is not a mass of strokes and a gap is not bridged; the integrated level as a labelled rule across, the target's tolerance band behind
    /// them, a LUFS axis with a grid every 5 LU (10 when the range is wide) and a time axis in s
    /// or m:ss; the title's path as the title, the rest and the summary's first line as subtitle.
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
        if showsMomentary {
            for run in Self.runs(points, \.momentary) {
                marks.append(.line(points: ChartMark.thinned(run, axis: x, pixels: pixels), color: .faintTrace(1), width: 1))
            }
        }
        for run in Self.runs(points, \.shortTerm) {
            marks.append(.line(points: ChartMark.maxima(run, axis: x, pixels: pixels), color: .trace(0), width: 1.8))
        }
        if let integrated, integrated.isFinite {
            marks.append(.horizontalRule(y: integrated, color: .text, dash: .dotted, label: "integrated \(UnitFormat.fixed(integrated, 1)) LUFS"))
        }
        chart.panels[0].marks = marks
        chart.legend = [ChartLegendEntry("short-term", color: .trace(0))] + (showsMomentary ? [ChartLegendEntry("momentary", color: .faintTrace(1))] : [])
        return chart
    }

    /// The stretches of `points` where `value` has one, as (time, value) points: a missing value
    /// ends a stretch, so a line drawn through each leaves the gap a gap.
    static func runs(_ points: [LoudnessSeries.Point], _ value: KeyPath<LoudnessSeries.Point, Double?>) -> [[(x: Double, y: Double)]] {
        var runs: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        for point in points {
            if let level = point[keyPath: value] {
                current.append((point.time, level))
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }
}
