/// How a chart file is drawn: its size in points, pixels per point for PNG, and theme.
public struct ChartStyle: Sendable {
    public var width: Double
    public var height: Double
    public var pixelScale: Double
    public var theme: ChartTheme

    public init(width: Double = Chart.defaultSize.width, height: Double = Chart.defaultSize.height, pixelScale: Double = 1, theme: ChartTheme = .light) {
        self.width = width
        self.height = height
        self.pixelScale = pixelScale
        self.theme = theme
    }

    /// About how many labelled ticks fit up a plot of this chart (one per 2.6 lines of labels)
    /// and across it (one per 9 label widths), so that a small chart is not crowded.
    public var tickCounts: (vertical: Int, horizontal: Int) {
        let font = 12 * min(2, max(0.6, min(width / Chart.defaultSize.width, height / Chart.defaultSize.height)))
        return (max(3, Int((height - 9 * font) / (2.6 * font))), max(3, Int(width / (9 * font))))
    }

    /// An empty chart in this style.
    public func chart(title: String, subtitle: String, x: ChartAxis, panels: [ChartPanel]) -> Chart {
        Chart(width: width, height: height, pixelScale: pixelScale, theme: theme, title: title, subtitle: subtitle, x: x, panels: panels)
    }

    /// `path · the rest` split into a title (the path) and a subtitle (the rest), as the
    /// terminal views' one-line titles are written.
    static func split(_ line: String) -> (title: String, subtitle: String) {
        var index = line.startIndex
        while index < line.endIndex {
            if line[index...].hasPrefix(" · ") { return (String(line[..<index]), String(line[line.index(index, offsetBy: 3)...])) }
            index = line.index(after: index)
        }
        return (line, "")
    }
}

extension SpectrumPlot {
    /// The spectrum as a chart: one anti-aliased trace per channel (colour and dash), bars for
    /// bands or `--style bars` (the first channel; the others as lines over them), peaks marked
    /// with frequency and note, the dB grid, the legend; the terminal plot's title split into a
    /// title and a subtitle stating range, window, FFT, bins, averaging and scale.
    public func chart(_ style: ChartStyle) -> Chart {
        let levels = self.levels
        let axis = self.axis
        let x = ChartAxis.frequency(range: axis.range, logarithmic: axis.logarithmic, count: style.tickCounts.horizontal)
        let span = levels.upperBound - levels.lowerBound
        // Every 10 dB where there is room, else 20, 50, …
        let levelTicks = ChartAxis.steps(levels, count: min(Int(span / 10), style.tickCounts.vertical)).map { ChartTick($0, UnitFormat.shortest($0)) }
        let y = ChartAxis(range: levels, label: "Level (\(unit))", ticks: levelTicks)
        let titles = ChartStyle.split(title)
        var chart = style.chart(title: titles.title, subtitle: titles.subtitle + " · \(unit)", x: x, panels: [ChartPanel(y: y)])
        let pixels = chart.layout.plotPixels().width
        var marks: [ChartMark] = []
        let barChannels = traceStyle == .bars ? 0..<min(1, channels.count) : 0..<0
        for index in barChannels {
            marks.append(.bars(bars(channels[index].values, bands: bands, axis: axis), color: .trace(index), opacity: 0.85))
        }
        // The first channel drawn last, on top.
        for index in channels.indices.reversed() where !barChannels.contains(index) {
            let points = decimated(channels[index].values, axis: x, pixels: pixels)
            marks.append(.line(points: points, color: .trace(index), dash: LineDash.forSeries(index), width: 1.6))
        }
        let labelled = peaks.filter { axis.range.contains($0.frequency) && channels.indices.contains($0.channel) }
        if !labelled.isEmpty {
            marks.append(
                .markers(
                    labelled.map { peak in
                        let nearest = frequencies.indices.min { abs(frequencies[$0] - peak.frequency) < abs(frequencies[$1] - peak.frequency) } ?? 0
                        let frequency = peak.frequency >= 1000 ? UnitFormat.fixed(peak.frequency / 1000, 2) + " kHz" : UnitFormat.fixed(peak.frequency, 0) + " Hz"
                        return (peak.frequency, channels[peak.channel].values[nearest], frequency + (peak.note.map { " " + $0.name } ?? ""))
                    }, color: .peak))
        }
        chart.panels[0].marks = marks
        if channels.count > 1 {
            chart.legend = channels.indices.map { index in
                barChannels.contains(index)
                    ? ChartLegendEntry(channels[index].name, color: .trace(index), kind: .bar)
                    : ChartLegendEntry(channels[index].name, color: .trace(index), dash: LineDash.forSeries(index))
            }
        }
        return chart
    }

    /// The points of a trace: every bin where bins are wider than a pixel; where several bins
    /// fall in one device pixel column, the largest of them at its own frequency (a tone's peak
    /// stays where it is, and an SVG of an 8192-point FFT keeps a path of a few thousand points).
    func decimated(_ values: [Double], axis: ChartAxis, pixels: Int) -> [(x: Double, y: Double)] {
        var points: [(x: Double, y: Double)] = []
        points.reserveCapacity(min(values.count, 2 * pixels))
        var column = Int.min
        for (bin, frequency) in frequencies.enumerated() {
            let fraction = axis.fraction(frequency)
            guard fraction >= -0.01, fraction <= 1.01 else { continue }
            let value = values[bin].isFinite ? values[bin] : -1e300
            let here = Int((fraction * Double(pixels)).rounded(.down))
            if here == column, let last = points.last {
                if value > last.y { points[points.count - 1] = (frequency, value) }
            } else {
                points.append((frequency, value))
                column = here
            }
        }
        return points
    }

    /// Bars of the rows: a band's edges when rows are bands, else halfway to the neighbouring rows.
    private func bars(_ values: [Double], bands: [OctaveBand]?, axis: FrequencyAxis) -> [(x: ClosedRange<Double>, value: Double)] {
        frequencies.indices.compactMap { index in
            let value = values[index].isFinite ? values[index] : -1e300
            if let bands, bands.count == frequencies.count { return (bands[index].lower...bands[index].upper, value) }
            let here = frequencies[index]
            let previous = index > 0 ? frequencies[index - 1] : here - (frequencies.count > 1 ? frequencies[1] - here : 1)
            let next = index + 1 < frequencies.count ? frequencies[index + 1] : here + (here - previous)
            let lower = axis.logarithmic ? (here * max(previous, 1e-9)).squareRoot() : (here + previous) / 2
            let upper = axis.logarithmic ? (here * next).squareRoot() : (here + next) / 2
            return (min(lower, upper)...max(lower, upper), value)
        }
    }
}

extension SpectrumReport {
    /// The bands behind the rows, when the report shows bands.
    public var rowBands: [OctaveBand]? {
        let bands = rows.compactMap(\.band)
        return bands.count == rows.count && !bands.isEmpty ? bands : nil
    }
}
