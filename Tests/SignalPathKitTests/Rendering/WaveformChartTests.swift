import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Rendering: waveform chart")
struct WaveformChartTests {
    let scratch = ScratchDirectory("waveform-chart")

    static func rgb(_ pixel: UInt32) -> (r: Int, g: Int, b: Int) { (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF)) }

    /// The rows of column `x` within `rows` whose pixel is the first trace's blue (0072B2) drawn
    /// at least at `opacity` over white: blue exceeds red by `opacity × 178`.
    static func traceRows(_ raster: ChartRaster, x: Int, rows: Range<Int>, opacity: Double) -> [Int] {
        rows.filter { y in
            let (r, _, b) = rgb(raster[x, y])
            return Double(b - r) >= opacity * 178 - 12
        }
    }

    @Test("a half-scale sine's envelope spans the pixel rows of ±0.5, its RMS band those of ±0.354 (±1 px), in a PNG of the exact size")
    func halfScaleSine() async throws {
        let path = floatWAV(scratch, "half.wav", sine(441, dbfs: -6.0206, seconds: 1))
        let file = try AudioFile.open(path)
        let style = ChartStyle(width: 480, height: 270)
        let columns = WaveformPlot.chartColumns(style, channels: ["mono"], scale: .linear, floor: -60, times: 0...1)
        let waveform = try await WaveformAnalyzer(file: file, frames: 0..<48_000, channels: .all, columns: columns).run()
        let chart = WaveformPlot(title: "half.wav · 0.00–1.00 s", waveform: waveform).chart(style)
        let png = try ChartRenderer.render(chart, as: .png)
        let raster = try ChartRenderer.decodePNG(png)
        #expect(raster.width == 480 && raster.height == 270)
        let panel = chart.layout.panels[0]
        #expect(columns == Int(panel.width.rounded()), "one column per pixel")
        func row(_ value: Double) -> Double { panel.y + (1 - (value + 1) / 2) * panel.height }
        let rows = Int(panel.y.rounded(.up))..<Int(panel.maxY.rounded(.down))
        for fraction in [0.1, 0.37, 0.5, 0.8, 0.95] {
            let x = Int(panel.x + fraction * panel.width)
            let envelope = Self.traceRows(raster, x: x, rows: rows, opacity: 0.45)
            let band = Self.traceRows(raster, x: x, rows: rows, opacity: 0.95)
            let top = try #require(envelope.first), bottom = try #require(envelope.last)
            #expect(abs(Double(top) - row(0.5)) <= 1 && abs(Double(bottom + 1) - row(-0.5)) <= 1, "x \(x): envelope \(top)…\(bottom), ±0.5 at \(row(0.5))…\(row(-0.5))")
            let bandTop = try #require(band.first), bandBottom = try #require(band.last)
            let rms = 0.5 / 2.squareRoot()
            #expect(abs(Double(bandTop) - row(rms)) <= 1 && abs(Double(bandBottom + 1) - row(-rms)) <= 1, "x \(x): RMS band \(bandTop)…\(bandBottom)")
            #expect(envelope.count == bottom - top + 1, "x \(x): the envelope is one run")
        }
    }

    @Test("clipped columns are ticked in red along the top edge of their channel's panel, and only those")
    func clipTicks() throws {
        let waveform = WaveformPlotTests.synthetic()  // the left channel clips in columns 50–53 of 68
        let chart = WaveformPlot(title: "test.wav", waveform: waveform).chart(ChartStyle(width: 400, height: 240))
        let raster = try ChartRenderer.decodePNG(try ChartRenderer.render(chart, as: .png))
        let left = chart.layout.panels[0], right = chart.layout.panels[1]
        func red(_ x: Int, _ y: Int) -> Bool {
            let (r, g, b) = Self.rgb(raster[x, y])
            return r > 180 && g < 90 && b < 90
        }
        let y = Int(left.y.rounded()) + 2
        let ticked = (Int(left.x)..<Int(left.maxX)).filter { red($0, y) }
        let first = left.x + 50.5 / 68 * left.width, last = left.x + 53.5 / 68 * left.width
        #expect(!ticked.isEmpty && ticked.allSatisfy { Double($0) >= first - 2 && Double($0) <= last + 2 }, "\(ticked) in \(first)…\(last)")
        #expect(!(Int(right.x)..<Int(right.maxX)).contains { red($0, Int(right.y.rounded()) + 2) })
    }

    @Test("golden image: two channels at 320×180, linear and dBFS, light and dark (per-pixel tolerance)")
    func golden() throws {
        for (scale, theme, name) in [(WaveformPlot.Scale.linear, ChartTheme.light, "waveform-chart-linear.png"), (.dbfs, .dark, "waveform-chart-dbfs-dark.png")] {
            var plot = WaveformPlot(title: "test.wav · 0.00–0.14 s · 48000 Hz", waveform: WaveformPlotTests.synthetic())
            plot.scale = scale
            plot.floor = -40
            try expectGoldenImage(try ChartRenderer.render(plot.chart(ChartStyle(width: 320, height: 180, theme: theme)), as: .png), name)
        }
    }

    /// Compares a PNG with the golden one: same size, and no more than 0.5 % of pixels differing by
    /// more than 40 in a channel (text anti-aliasing may differ between FreeType builds; a moved
    /// trace or axis changes thousands). With UPDATE_GOLDEN=1 it records the file and fails.
    func expectGoldenImage(_ png: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = repositoryRoot + "/Tests/SignalPathKitTests/Golden/" + name
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try Data(png).write(to: URL(fileURLWithPath: path))
            Issue.record(Comment(rawValue: "\(name) recorded (UPDATE_GOLDEN=1): look at it, then run again without it"), sourceLocation: sourceLocation)
            return
        }
        let golden = try ChartRenderer.decodePNG(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let drawn = try ChartRenderer.decodePNG(png)
        try #require(golden.width == drawn.width && golden.height == drawn.height, "\(name): size", sourceLocation: sourceLocation)
        var differing = 0
        for (a, b) in zip(golden.pixels, drawn.pixels) where a != b {
            let (ra, ga, ba) = Self.rgb(a), (rb, gb, bb) = Self.rgb(b)
            if max(abs(ra - rb), abs(ga - gb), abs(ba - bb)) > 40 { differing += 1 }
        }
        #expect(differing * 200 <= golden.pixels.count, "\(name): \(differing) of \(golden.pixels.count) pixels differ", sourceLocation: sourceLocation)
    }
}
