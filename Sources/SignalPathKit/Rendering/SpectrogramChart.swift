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
        // Frequencies rise bin by bin: each row's bins by binary search (a linear scan per row
        // was 3.5 % of a batch of short spectrograms).
        func firstBin(atOrAbove value: Double) -> Int {
            var low = 0, high = frequencies.count
            while low < high {
                let middle = (low + high) / 2
                if frequencies[middle] >= value { high = middle } else { low = middle + 1 }
            }
            return low
        }
        rowBins = (0..<rows).map { row in
            let top = y.value(at: 1 - Double(row) / Double(rows))
            let bottom = y.value(at: 1 - Double(row + 1) / Double(rows))
            let lowerFound = firstBin(atOrAbove: bottom)
            let lower = lowerFound < frequencies.count ? lowerFound : frequencies.count - 1
            let upper = max(firstBin(atOrAbove: top) - 1, 0)  // the last below top, or 0
            if upper >= lower { return lower..<upper + 1 }
            // A row narrower than a bin: the bin nearest its middle (the first of two as near).
            let middle = y.value(at: 1 - (Double(row) + 0.5) / Double(rows))
            let above = firstBin(atOrAbove: middle)
            guard above > 0 else { return 0..<1 }
            guard above < frequencies.count else { return frequencies.count - 1..<frequencies.count }
            let nearest = abs(frequencies[above - 1] - middle) <= abs(frequencies[above] - middle) ? above - 1 : above
            return nearest..<nearest + 1
        }
        levels = [Float](repeating: -.infinity, count: columns * rows)
    }

    /// How many frames to ask the analyser for over `frameCount` frames of `windowSize`-frame
    /// segments: one per pixel column, or fewer when pixel columns would start less than an eighth
    /// of a segment apart (a short file in a wide chart), where each frame then fills the pixel
    /// columns it covers (`set(frame:of:powers:)`). A step finer than that shows nothing the
    /// window has not already smeared over eight steps, and cost a transform and a column of
    /// conversions per pixel (docs/DECISIONS.md#charts-cairo).
    public func analysisColumns(frameCount: Int64, windowSize: Int) -> Int {
        let step = Int64(max(1, windowSize / 8))
        return Int(max(1, min(Int64(columns), frameCount / step)))
    }

    /// Sets the pixel columns of analyser frame `index` of `count` (`analysisColumns`) from its
    /// powers: pixel column p shows frame ⌊p·count/columns⌋, levels computed once per frame.
    public mutating func set(frame index: Int, of count: Int, powers frame: [Double]) {
        guard count < columns else { return set(column: index, powers: frame) }
        // The first pixel column p with ⌊p·count/columns⌋ ≥ index is ⌈index·columns/count⌉.
        let first = (index * columns + count - 1) / count, end = min(columns, ((index + 1) * columns + count - 1) / count)
        guard first < end else { return }
        set(column: first, powers: frame)
        let source = first * rows
        for column in first + 1..<end {
            for row in 0..<rows { levels[column * rows + row] = levels[source + row] }
        }
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
        let columns = self.columns, rows = self.rows, floor = self.floor, scale = 255 / span
        // In tiles of 16 columns: each row of a tile is read from 16 columns of levels (cache lines
        // reused down the tile) and written as 64 contiguous bytes, where column by column the
        // writes lay a raster row apart (docs/DECISIONS.md#charts-cairo). Every pixel is written
        // once, no fill first. The heat is rounded half up inside 0…255; −∞ (silence) and NaN are
        // the cold end.
        let pixels = [UInt32](unsafeUninitializedCapacity: columns * rows) { out, count in
            levels.withUnsafeBufferPointer { levels in
                palette.withUnsafeBufferPointer { palette in
                    for tile in stride(from: 0, to: columns, by: 16) {
                        let end = min(tile + 16, columns)
                        for row in 0..<rows {
                            let target = row * columns
                            for column in tile..<end {
                                let heat = (Double(levels[column * rows + row]) - floor) * scale
                                let index = heat > 0 ? (heat < 255 ? Int(heat + 0.5) : heat.isFinite ? 255 : 0) : 0
                                out[target + column] = palette[index]
                            }
                        }
                    }
                }
            }
            count = columns * rows
        }
        let raster = ChartRaster(width: columns, height: rows, pixels: pixels)
        var chart = self.chart
        chart.panels[0].marks = [.raster(raster)]
        chart.colorBar?.range = floor...ceiling
        if let bar = chart.colorBar { chart.colorBar = ChartColorBar(colorMap: bar.colorMap, range: floor...ceiling, label: bar.label) }
        return chart
    }
}
