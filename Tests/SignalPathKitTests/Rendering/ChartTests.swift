import Foundation
import SignalPathTestSupport
import Testing

@testable import SignalPathKit

/// Compares the PNG `bytes` with the golden image `name` pixel by pixel: a pixel counts as
/// different when a channel differs by more than 48, and at most 0.5 % of pixels may (font
/// rasterisation differs slightly between FreeType versions; a moved line or label changes far
/// more). With UPDATE_GOLDEN=1 it writes the file and fails, as `expectGolden` does for text.
func expectGoldenImage(_ bytes: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = repositoryRoot + "/Tests/SignalPathKitTests/Golden/" + name
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        Issue.record(Comment(rawValue: "\(name) recorded (UPDATE_GOLDEN=1): look at it, then run again without it"), sourceLocation: sourceLocation)
        return
    }
    let expected = try ChartRenderer.decodePNG([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    let actual = try ChartRenderer.decodePNG(bytes)
    try #require(
        expected.width == actual.width && expected.height == actual.height, "\(name): \(actual.width)×\(actual.height), golden \(expected.width)×\(expected.height)",
        sourceLocation: sourceLocation)
    var different = 0
    for (a, b) in zip(expected.pixels, actual.pixels) where a != b {
        var largest = 0
        for shift: UInt32 in [16, 8, 0] {
            let first = Int((a >> shift) & 0xFF), second = Int((b >> shift) & 0xFF)
            largest = max(largest, abs(first - second))
        }
        if largest > 48 { different += 1 }
    }
    let fraction = Double(different) / Double(actual.pixels.count)
    #expect(fraction <= 0.005, "\(name): \(different) pixels differ (\(fraction * 100) %)", sourceLocation: sourceLocation)
}

@Suite("Rendering: charts")
struct ChartTests {
    static let small = ChartStyle(width: 320, height: 180)

    @Test("axes: log and linear fractions, 1-2-5 steps, decade ticks, seconds and m:ss")
    func axes() {
        let log = ChartAxis(range: 20...2000, scale: .logarithmic, label: "", ticks: [])
        #expect(abs(log.fraction(200) - 0.5) < 1e-12 && abs(log.value(at: 0.5) - 200) < 1e-9)
        let linear = ChartAxis(range: -120...0, label: "", ticks: [])
        #expect(linear.fraction(-60) == 0.5 && linear.value(at: 0.25) == -90)
        #expect(ChartAxis.steps(-120...0, count: 12) == stride(from: -120.0, through: 0, by: 10).map { $0 })
        #expect(ChartAxis.steps(0...1, count: 5) == [0, 0.2, 0.4, 0.6, 0.8, 1])
        let frequency = ChartAxis.frequency(range: 20...20_000, logarithmic: true)
        #expect(frequency.ticks.filter(\.major).map(\.label) == ["20", "50", "100", "200", "500", "1k", "2k", "5k", "10k", "20k"])
        #expect(frequency.ticks.contains { !$0.major && $0.value == 300 })
        #expect(ChartAxis.time(range: 0...3).ticks.map(\.label) == ["0 s", "0.5 s", "1 s", "1.5 s", "2 s", "2.5 s", "3 s"])
        let hour = ChartAxis.time(range: 0...3600)
        #expect(hour.label == "Time (h:mm:ss)" && hour.ticks.map(\.label) == ["0:00:00", "0:10:00", "0:20:00", "0:30:00", "0:40:00", "0:50:00", "1:00:00"])
        let minutes = ChartAxis.time(range: 0...90)
        #expect(minutes.label == "Time (m:ss)" && minutes.ticks.map(\.label) == ["0:00", "0:15", "0:30", "0:45", "1:00", "1:15", "1:30"])
    }

    @Test("thinning keeps, per pixel column, the first, lowest, highest and last points (a naive model over seeded random series)")
    func thinning() {
        var random = SeededGenerator(seed: 7)
        let axis = ChartAxis(range: 0...1000, label: "", ticks: [])
        for pixels in [50, 100, 333] {
            let count = Int.random(in: 2000...20_000, using: &random)
            let points = (0..<count).map { (x: Double($0) * 1000 / Double(count), y: Double.random(in: -1...1, using: &random)) }
            let thinned = ChartMark.thinned(points, axis: axis, pixels: pixels)
            #expect(thinned.count <= 4 * (pixels + 1))
            #expect(zip(thinned, thinned.dropFirst()).allSatisfy { $0.x <= $1.x }, "in x order")
            func column(_ x: Double) -> Int { Int((x / 1000 * Double(pixels)).rounded(.down)) }
            for index in 0...pixels {
                let original = points.filter { column($0.x) == index }.map(\.y)
                let kept = thinned.filter { column($0.x) == index }.map(\.y)
                guard !original.isEmpty else { continue }
                #expect(original.min() == kept.min() && original.max() == kept.max() && original.first == kept.first && original.last == kept.last)
            }
        }
        let short = [(x: 1.0, y: 2.0), (x: 2, y: 3)]
        #expect(ChartMark.thinned(short, axis: axis, pixels: 10).map(\.y) == [2, 3], "few points stay as they are")
    }

    @Test("maxima keep, per pixel column, the highest point and nothing else (a naive model over seeded random series)")
    func maxima() {
        var random = SeededGenerator(seed: 39)
        let axis = ChartAxis(range: 0...1000, label: "", ticks: [])
        for pixels in [50, 333, 5000] {
            let count = Int.random(in: 2000...20_000, using: &random)
            let points = (0..<count).map { (x: Double($0) * 1000 / Double(count), y: Double.random(in: -1...1, using: &random)) }
            let kept = ChartMark.maxima(points, axis: axis, pixels: pixels)
            func column(_ x: Double) -> Int { Int((x / 1000 * Double(pixels)).rounded(.down)) }
            let columns = Dictionary(grouping: points, by: { column($0.x) })
            #expect(kept.count == columns.count, "one point per column with points")
            for point in kept {
                let highest = columns[column(point.x)]!.max { $0.y < $1.y }!
                #expect(point.x == highest.x && point.y == highest.y)
            }
        }
    }

    @Test("layout: plot areas on whole device pixels inside the chart, panels stacked without overlap, raster sizes at the pixel scale")
    func layout() {
        for scale in [1.0, 2, 0.5] {
            var chart = Chart(
                width: 640, height: 360, pixelScale: scale, title: "t", subtitle: "s", x: .time(range: 0...10),
                panels: [ChartPanel(y: .linear(range: -1...1, label: "L", count: 4)), ChartPanel(y: .linear(range: -1...1, label: "R", count: 4))])
            chart.colorBar = ChartColorBar(colorMap: .viridis, range: -120...0, label: "dB")
            let layout = chart.layout
            for rect in layout.panels + [layout.colorBar!] {
                #expect(rect.x > 0 && rect.y > 0 && rect.maxX < 640 && rect.maxY < 360)
                for value in [rect.x, rect.y, rect.width, rect.height] { #expect((value * scale).rounded() == value * scale, "\(value) at \(scale)") }
            }
            #expect(layout.panels[0].maxY < layout.panels[1].y && layout.panels[0].maxX < layout.colorBar!.x)
            let pixels = layout.plotPixels(1)
            #expect(pixels.width == Int(layout.panels[1].width * scale) && pixels.height == Int(layout.panels[1].height * scale))
        }
    }

    @Test("spectrogram raster: a tone's bin lights the pixel row of its frequency on a linear axis; the floor is the colour map's cold end")
    func spectrogramRaster() {
        let frequencies = (0...512).map { Double($0) * 46.875 }  // 1024-point FFT at 48 kHz
        var view = SpectrogramChart(
            Self.small, title: "t.wav · x", unit: "dBFS", frequencies: frequencies, frequencyRange: 0...24_000, logarithmic: false, times: 0...1,
            floor: -120, colorMap: .viridis)
        for column in 0..<view.columns {
            view.set(column: column, levels: frequencies.map { abs($0 - 6000) < 1 ? -6 : -200 })
        }
        #expect(view.highest == -6)
        let chart = view.finished(ceiling: 0)
        guard case .raster(let raster) = chart.panels[0].marks[0] else {
            Issue.record("a raster mark")
            return
        }
        #expect(raster.width == view.columns && raster.height == view.rows)
        // 6 kHz is a quarter of the way up: the row whose span [bottom, top) holds it.
        let expected = Int(((1 - 6000.0 / 24_000) * Double(raster.height)).rounded(.up)) - 1
        let hot = ChartRaster.pixel(ColorMap.viridis.color(UInt8((114.0 / 120 * 255).rounded())))
        let cold = ChartRaster.pixel(ColorMap.viridis.color(0))
        for column in [0, raster.width / 2, raster.width - 1] {
            let lit = (0..<raster.height).filter { raster[column, $0] != cold }
            #expect(lit == [expected] && raster[column, expected] == hot, "column \(column): rows \(lit), 6 kHz in row \(expected)")
        }
    }

    @Test("short files: fewer analyser frames than pixel columns, each pixel column showing frame ⌊p·count/columns⌋ (a naive model)")
    func spectrogramFramesAcrossColumns() {
        let frequencies = (0...512).map { Double($0) * 46.875 }
        var view = SpectrogramChart(
            Self.small, title: "t.wav · x", unit: "dBFS", frequencies: frequencies, frequencyRange: 0...24_000, logarithmic: false, times: 0...1,
            floor: -120, colorMap: .viridis)
        // 1 s at 48 kHz with a 4096-frame window: a frame per 512 frames at most (93), fewer than
        // the plot's columns; a long range keeps a frame per column.
        let count = view.analysisColumns(frameCount: 48_000, windowSize: 4096)
        #expect(count == min(view.columns, 93) && count < view.columns)
        #expect(view.analysisColumns(frameCount: 48_000 * 3600, windowSize: 4096) == view.columns)
        // Frame i holds one tone, in bin 8 + 4·(i mod 100): its pixel columns light that bin's row.
        let bin = { (frame: Int) in 8 + 4 * (frame % 100) }
        for frame in 0..<count {
            view.set(frame: frame, of: count, powers: frequencies.indices.map { $0 == bin(frame) ? 1 : 1e-20 })
        }
        let chart = view.finished(ceiling: 0)
        guard case .raster(let raster) = chart.panels[0].marks[0] else {
            Issue.record("a raster mark")
            return
        }
        let cold = ChartRaster.pixel(ColorMap.viridis.color(0))
        var wrong: [Int] = []
        for column in 0..<raster.width {
            let frame = column * count / view.columns
            let row = Int(((1 - frequencies[bin(frame)] / 24_000) * Double(raster.height)).rounded(.up)) - 1
            let lit = (0..<raster.height).filter { raster[column, $0] != cold }
            if lit != [row] { wrong.append(column) }
        }
        #expect(wrong.isEmpty, "columns not showing their frame's tone: \(wrong.prefix(10))")
    }

    @Test("golden images: spectrum, spectrogram and loudness at 320×180, light and dark")
    func goldenImages() throws {
        var spectrum = syntheticPlot()
        spectrum.floor = -110
        try expectGoldenImage(try ChartRenderer.render(spectrum.chart(Self.small), as: .png), "chart-spectrum.png")

        let frequencies = (0...256).map { Double($0) * 93.75 }
        var heat = SpectrogramChart(
            ChartStyle(width: 320, height: 180, theme: .dark), title: "sweep.wav · 0.00–2.00 s", unit: "dBFS", frequencies: frequencies,
            frequencyRange: 20...24_000, logarithmic: true, times: 0...2, floor: -120, colorMap: .magma)
        for column in 0..<heat.columns {
            // A rising tone over a falling floor.
            let tone = 100 * pow(200, Double(column) / Double(heat.columns))
            heat.set(column: column, levels: frequencies.map { abs($0 - tone) < 94 ? -10 : -100 + 40 * Double(column) / Double(heat.columns) - $0 / 1000 })
        }
        try expectGoldenImage(try ChartRenderer.render(heat.finished(ceiling: 0), as: .png), "chart-spectrogram.png")

        let points = (1...200).map { index -> LoudnessSeries.Point in
            let time = Double(index) / 10
            return LoudnessSeries.Point(time: time, momentary: time < 0.4 ? nil : (8...12).contains(time) ? -30 : -20, shortTerm: time < 3 ? nil : -21)
        }
        var loudness = LoudnessPlot(title: "test.wav · loudness", points: points, times: 0...20, integrated: -21.5)
        loudness.target = (-23, 1)
        try expectGoldenImage(try ChartRenderer.render(loudness.chart(Self.small), as: .png), "chart-loudness.png")
    }

    @Test("the same chart as PNG, SVG and PDF: each format's signature, and a PNG at twice the pixels with pixelScale 2")
    func formats() throws {
        let chart = syntheticPlot().chart(Self.small)
        let png = try ChartRenderer.render(chart, as: .png)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let svg = String(decoding: try ChartRenderer.render(chart, as: .svg), as: UTF8.self)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg") && svg.contains("width=\"320pt\""))
        let pdf = try ChartRenderer.render(chart, as: .pdf)
        #expect(Array(pdf.prefix(5)) == Array("%PDF-".utf8))
        var double = chart
        double.pixelScale = 2
        let decoded = try ChartRenderer.decodePNG(try ChartRenderer.render(double, as: .png))
        #expect(decoded.width == 640 && decoded.height == 360)
    }
}
