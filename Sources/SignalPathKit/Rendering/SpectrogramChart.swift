/// A spectrogram as a chart: the heat map is a raster of the plot's device pixels, filled column
/// by column as the analyser hands over its frames (one per pixel column, combining that
/// column's segments), so memory is the picture's, not the file's: 4 bytes per plot pixel.
///
/// Each pixel row shows the strongest bin whose frequency lies within the row's span (on a log
/// axis the low rows are narrower than a bin: they show the nearest bin), as the terminal view does.
public struct SpectrogramChart: Sendable {
    public private(set) var chart: Chart
    public let colorMap: ColorMap
    public let floor: Double
    /// Pixel columns and rows of the plot: the number of frames to ask the analyser for.
    public let columns: Int
    public let rows: Int
    /// Per pixel row (0 = top), the bins it takes the largest of.
    private let rowBins: [Range<Int>]
    /// Levels (dB) per pixel, column-major, until `finished` colours them.
    private var levels: [Float]
    /// The largest finite level seen, for a ceiling chosen from the data.
    public private(set) var highest = -Double.infinity

    /// - Parameters:
    ///   - title: the terminal view's title line (`path · range · parameters · unit`).
    ///   - frequencyRange: the frequencies shown; the axis is log or linear.
    public init(
        _ style: ChartStyle, title: String, unit: String, frequencies: [Double], frequencyRange: ClosedRange<Double>, logarithmic: Bool,
        times: ClosedRange<Double>, floor: Double, colorMap: ColorMap
    ) {
        let titles = ChartStyle.split(title)
        let y = ChartAxis.frequency(range: frequencyRange, logarithmic: logarithmic, count: style.tickCounts.vertical)
        var yAxis = y
        yAxis.grid = false
        var x = ChartAxis.time(range: times, count: style.tickCounts.horizontal)
        x.grid = false
        var chart = style.chart(title: titles.title, subtitle: titles.subtitle, x: x, panels: [ChartPanel(y: yAxis)])
        chart.colorBar = ChartColorBar(colorMap: colorMap, range: floor...(floor + 1), label: "Level (\(unit))")
        (columns, rows) = chart.layout.plotPixels()
        self.chart = chart
        self.colorMap = colorMap
        self.floor = floor
        let rows = self.rows
        rowBins = (0..<rows).map { row in
            let top = y.value(at: 1 - Double(row) / Double(rows))
            let bottom = y.value(at: 1 - Double(row + 1) / Double(rows))
            let lower = frequencies.firstIndex { $0 >= bottom } ?? frequencies.count - 1
            let upper = frequencies.lastIndex { $0 < top } ?? 0
            if upper >= lower { return lower..<upper + 1 }
            // A row narrower than a bin: the bin nearest its middle.
            let middle = y.value(at: 1 - (Double(row) + 0.5) / Double(rows))
            let nearest = frequencies.indices.min { abs(frequencies[$0] - middle) < abs(frequencies[$1] - middle) } ?? 0
            return nearest..<nearest + 1
        }
        levels = [Float](repeating: -.infinity, count: columns * rows)
    }

    /// Sets pixel column `column` from one frame's levels (dB per bin).
    public mutating func set(column: Int, levels frame: [Double]) {
        set(column: column, frame) { $0 }
    }

    /// Sets pixel column `column` from one frame's powers (`PowerSpectrum.powers(in:)`): each
    /// pixel is 10·log10 of the largest power of its bins, so one logarithm per pixel, not per bin.
    public mutating func set(column: Int, powers frame: [Double]) {
        set(column: column, frame) { 10 * log10($0) }
    }

    private mutating func set(column: Int, _ frame: [Double], level: (Double) -> Double) {
        guard column >= 0, column < columns else { return }
        let base = column * rows
        for row in 0..<rows {
            var largest = -Double.infinity
            for bin in rowBins[row] where frame[bin] > largest { largest = frame[bin] }
            let value = level(largest)
            levels[base + row] = Float(value)
            if value.isFinite && value > highest { highest = value }
        }
    }

    /// The chart with its heat map in colour from `floor` (coldest) to `ceiling` (hottest).
    public func finished(ceiling: Double) -> Chart {
        let span = max(ceiling - floor, 1e-9)
        let palette = (0...255).map { ChartRaster.pixel(colorMap.color(UInt8($0))) }
        var raster = ChartRaster(width: columns, height: rows)
        for column in 0..<columns {
            for row in 0..<rows {
                let level = Double(levels[column * rows + row])
                let heat = level.isFinite ? max(0, min(255, Int(((level - floor) / span * 255).rounded()))) : 0
                raster[column, row] = palette[heat]
            }
        }
        var chart = self.chart
        chart.panels[0].marks = [.raster(raster)]
        chart.colorBar?.range = floor...ceiling
        if let bar = chart.colorBar { chart.colorBar = ChartColorBar(colorMap: bar.colorMap, range: floor...ceiling, label: bar.label) }
        return chart
    }
}
