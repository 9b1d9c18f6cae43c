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

    /// 30 minutes every 100 ms (18 000 points): momentary alternating between -20 and -30 LUFS
    /// from point to point, short-term steady at -25; from 10:00 to 15:00 digital silence (both
    /// missing, as below the gate).
    func longProgramme(momentary: Bool = true) -> (canvas: Canvas, rows: [String: Int], gap: ClosedRange<Int>, plot: Range<Int>) {
        let points = (1...18_000).map { index -> LoudnessSeries.Point in
            let time = Double(index) / 10
            let silent = (600...900).contains(time)
            return LoudnessSeries.Point(time: time, momentary: silent ? nil : index % 2 == 0 ? -20 : -30, shortTerm: silent ? nil : -25)
        }
        var plot = LoudnessPlot(title: "programme.wav · loudness", points: points, times: 0...1800, integrated: -25)
        plot.floor = -40
        plot.ceiling = -10
        plot.showsMomentary = momentary
        var canvas = Canvas(width: 86, height: 20)
        plot.draw(into: &canvas, area: Area(x: 0, y: 0, width: 86, height: 20))
        // Rows of the level labels and columns of the time ticks, read off the picture.
        let lines = canvas.text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        var rows: [String: Int] = [:]
        for (row, line) in lines.enumerated() {
            let label = String(line.prefix(5)).trimmingCharacters(in: .whitespaces)
            if line.count > 5, line[5] == "│", !label.isEmpty { rows[label] = row }
        }
        let axis = lines.firstIndex { $0.count > 5 && $0[5] == "└" }!
        let ticks = lines[axis].indices.filter { lines[axis][$0] == "┴" }
        // Ticks every 5 minutes: 0:00, 5:00, 10:00 …; the silence lies between the third and the fourth.
        return (canvas, rows, ticks[2] + 1...ticks[3] - 1, 6..<86)
    }

    @Test(
        "30 minutes: momentary faint, as the range of its values in each column; short-term a line on top; a silence left empty; without momentary no faint trace"
    )
    func longProgrammeTraces() throws {
        let drawn = longProgramme()
        let upper = try #require(drawn.rows["-20"]), lower = try #require(drawn.rows["-30"]), middle = try #require(drawn.rows["-25"])
        // The style of a cell with braille dots in it (U+2801 … U+28FF), nil for any other.
        func style(_ x: Int, _ y: Int) -> Style? {
            guard let cell = drawn.canvas[x, y], let scalar = cell.character.unicodeScalars.first, (0x2801...0x28FF).contains(scalar.value) else { return nil }
            return cell.style
        }
        // Faint: on the terminal's theme (for dark backgrounds) at most 0.7 of the short-term
        // line's luminance.
        let theme = Theme()
        func luminance(_ style: Style?) -> Double {
            guard let rgb = style.flatMap({ theme.color($0) }) else { return .infinity }
            return 0.2126 * Double(rgb.red) + 0.7152 * Double(rgb.green) + 0.0722 * Double(rgb.blue)
        }
        for x in drawn.plot where !drawn.gap.contains(x) && x > drawn.plot.lowerBound + 1 {
            // Momentary spans -20 … -30 in every column, faint; short-term covers it at -25.
            #expect(style(x, middle) == .trace(0), "short-term on top at column \(x)")
            for y in upper...lower where y != middle {
                #expect(luminance(style(x, y)) <= 0.7 * luminance(.trace(0)), "column \(x), row \(y): \(String(describing: drawn.canvas[x, y]))")
            }
        }
        let faint = LoudnessPlot.momentaryStyle
        #expect(drawn.gap.count >= 10, "the silence spans \(drawn.gap)")
        for x in drawn.gap {
            for y in 0..<drawn.canvas.height { #expect(style(x, y) == nil, "the silence is empty at column \(x), row \(y)") }
        }
        #expect(drawn.canvas.text.contains("momentary"))

        let shortTerm = longProgramme(momentary: false)
        #expect(!shortTerm.canvas.cells.contains { $0.style == faint }, "no momentary trace")
        #expect(!shortTerm.canvas.text.contains("momentary"), "nor in the legend")
        #expect((drawn.plot.lowerBound + 2..<drawn.gap.lowerBound).allSatisfy { x in shortTerm.canvas[x, middle]?.style == .trace(0) })
    }
}
