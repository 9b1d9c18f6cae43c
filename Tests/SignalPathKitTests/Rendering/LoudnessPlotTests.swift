import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Rendering: the loudness chart")
struct LoudnessPlotTests {
    /// 20 s with known content: momentary at -20 LUFS, dipping to -30 from 8 s to 12 s; short-term
    /// from 3 s at -21; nothing before the first full windows.
    func syntheticChart() -> LoudnessPlot {
        let points = (1...200).map { index -> LoudnessSeries.Point in
            let time = Double(index) / 10
            return LoudnessSeries.Point(
                time: time, momentary: time < 0.4 ? nil : (8...12).contains(time) ? -30 : -20, shortTerm: time < 3 ? nil : -21)
        }
        var plot = LoudnessPlot(title: "test.wav · loudness", points: points, times: 0...20, integrated: -21.5)
        plot.target = (-23, 1)
        plot.summary = ["Integrated -21.5 LUFS", "Max momentary -20.0 LUFS at 0:00.4"]
        return plot
    }

    @Test("braille lines for M and S, the integrated line, the target band, m:ss ticks and the summary")
    func golden() throws {
        var canvas = markedCanvas(width: 62, height: 18)
        syntheticChart().draw(into: &canvas, area: Area(x: 1, y: 1, width: 60, height: 16))
        try expectGolden(canvas.text, "loudness.txt")
        try expectGolden(canvas.styleCodes, "loudness.styles.txt")
    }

    @Test("without colour, momentary is dotted and short-term solid, and the legend shows which")
    func monochrome() throws {
        var plot = syntheticChart()
        plot.monochrome = true
        var canvas = markedCanvas(width: 62, height: 18)
        plot.draw(into: &canvas, area: Area(x: 1, y: 1, width: 60, height: 16))
        try expectGolden(canvas.text, "loudness-monochrome.txt")
    }

    @Test("time labels: m:ss, h:mm:ss from an hour, tenths when asked")
    func clock() {
        #expect(LoudnessPlot.clock(0, decimals: 0) == "0:00")
        #expect(LoudnessPlot.clock(75.04, decimals: 1) == "1:15.0")
        #expect(LoudnessPlot.clock(3725, decimals: 0) == "1:02:05")
        #expect(LoudnessPlot.clock(59.96, decimals: 1) == "1:00.0")
    }
}
