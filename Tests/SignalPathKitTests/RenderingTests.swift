import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// A canvas pre-filled with a marker, so that drawing outside the view's area shows in goldens.
func markedCanvas(width: Int, height: Int) -> Canvas { Canvas(width: width, height: height, fill: Cell("·")) }

/// A spectrum with known content: a floor at −100 dB, tones at 1 kHz (−6 dB) and 5 kHz (−40 dB)
/// on the first channel, 200 Hz (−20 dB) on the second; 1024 bins of 23.4375 Hz (48 kHz / 2048).
func syntheticPlot(channels: Int = 2) -> SpectrumPlot {
    let frequencies = (0..<1025).map { Double($0) * 23.4375 }
    func tones(_ list: [(Double, Double)]) -> [Double] {
        frequencies.map { frequency in list.reduce(-100) { level, tone in abs(frequency - tone.0) < 30 ? max(level, tone.1) : level } }
    }
    var data = [("left", tones([(1000, -6), (5000, -40)]))]
    if channels > 1 { data.append(("right", tones([(200, -20)]))) }
    var plot = SpectrumPlot(title: "test.wav · 0.00–1.00 s", frequencies: frequencies, channels: data)
    plot.ceiling = 0
    plot.peaks = [SpectralPeak(channel: 0, bin: 43, frequency: 1000, level: -6, note: MusicalNote.nearest(to: 1000))]
    return plot
}

@Suite("Rendering: colour depth, ANSI backend, tiny sizes")
struct RenderingTests {
    @Test("colour depth: NO_COLOR, TERM=dumb and pipes give none; COLORTERM, TERM and --color pick the depth")
    func colorDepth() {
        let terminal = ["TERM": "xterm-256color"]
        #expect(ColorDepth.detect(choice: .auto, isTerminal: true, environment: terminal) == .ansi256)
        #expect(ColorDepth.detect(choice: .auto, isTerminal: true, environment: ["TERM": "xterm", "COLORTERM": "truecolor"]) == .truecolor)
        #expect(ColorDepth.detect(choice: .auto, isTerminal: true, environment: ["TERM": "xterm", "COLORTERM": "24bit"]) == .truecolor)
        #expect(ColorDepth.detect(choice: .auto, isTerminal: true, environment: ["TERM": "xterm"]) == .ansi16)
        #expect(ColorDepth.detect(choice: .auto, isTerminal: true, environment: ["TERM": "xterm-256color", "NO_COLOR": "1"]) == .none)
        #expect(ColorDepth.detect(choice: .auto, isTerminal: true, environment: ["TERM": "dumb"]) == .none)
        #expect(ColorDepth.detect(choice: .auto, isTerminal: false, environment: terminal) == .none)
        #expect(ColorDepth.detect(choice: .always, isTerminal: false, environment: ["NO_COLOR": "1", "TERM": "xterm-256color"]) == .ansi256)
        #expect(ColorDepth.detect(choice: .never, isTerminal: true, environment: ["COLORTERM": "truecolor"]) == .none)
    }

    @Test("each depth writes its own SGR codes; none writes no escape at all")
    func depths() {
        var canvas = Canvas(width: 3, height: 1)
        canvas.put(Cell("x", .trace(0)), x: 0, y: 0)  // #56B4E9
        canvas.put(Cell("▀", .heat(255), background: .heat(0)), x: 1, y: 0)
        let colour = RGB(hex: 0x56B4E9)
        let true24 = ANSIRenderer(depth: .truecolor).lines(canvas)
        #expect(true24.contains("\u{1B}[0;38;2;\(colour.red);\(colour.green);\(colour.blue)mx"))
        #expect(true24.contains(";48;2;68;1;84m▀"), "viridis 0 = #440154 as background")
        let indexed = ANSIRenderer(depth: .ansi256).lines(canvas)
        #expect(indexed.contains("38;5;\(ANSIRenderer.index256(colour))m"))
        #expect(ANSIRenderer.index256(RGB(0, 0, 0)) == 16 && ANSIRenderer.index256(RGB(255, 255, 255)) == 231)
        #expect(ANSIRenderer.index256(RGB(128, 128, 128)) == 244)
        let basic = ANSIRenderer(depth: .ansi16).lines(canvas)
        #expect(basic.contains("\u{1B}[0;9") || basic.contains("\u{1B}[0;3"))
        #expect(!basic.contains("38;"))
        let plain = ANSIRenderer(depth: .none).lines(canvas)
        #expect(plain == "x▀\n")
        #expect(true24.hasSuffix("\u{1B}[0m\n"), "attributes are reset at the end of a line")
    }

    @Test("a second frame writes only the cells that changed, inside synchronized output")
    func frameDiff() {
        var first = Canvas(width: 10, height: 3)
        first.write("hello", x: 0, y: 0, style: .label)
        first.write("world", x: 0, y: 2, style: .label)
        var second = first
        second.put(Cell("J", .peak), x: 4, y: 2)
        let renderer = ANSIRenderer(depth: .ansi256)
        let full = renderer.frame(first, previous: nil)
        #expect(full.hasPrefix("\u{1B}[?2026h") && full.hasSuffix("\u{1B}[?2026l"))
        #expect(full.contains("\u{1B}[2J") && full.contains("hello") && full.contains("world"))
        let diff = renderer.frame(second, previous: first)
        #expect(diff.contains("\u{1B}[3;5H") && diff.contains("J"))
        #expect(!diff.contains("hello") && !diff.contains("worl") && !diff.contains("\u{1B}[2J"))
        let none = renderer.frame(second, previous: second)
        #expect(none == "\u{1B}[?2026h\u{1B}[0m\u{1B}[?2026l", "no change: nothing but the mode switches")
        #expect(renderer.frame(Canvas(width: 4, height: 3), previous: first).contains("\u{1B}[2J"), "a resize redraws")
    }

    @Test("views survive tiny and empty areas", arguments: [(10, 4), (3, 2), (1, 1), (0, 0), (12, 5), (40, 3)])
    func tinySizes(width: Int, height: Int) {
        var canvas = markedCanvas(width: width, height: height)
        syntheticPlot().draw(into: &canvas, area: Area(x: 0, y: 0, width: width, height: height))
        var bars = syntheticPlot()
        bars.traceStyle = .bars
        bars.draw(into: &canvas, area: Area(x: 0, y: 0, width: width, height: height))
        let frames = (0..<5).map { column in (0..<1025).map { Double($0 % 100) - 100 + Double(column) } }
        SpectrogramPlot(title: "t", frequencies: (0..<1025).map { Double($0) * 23.4375 }, frames: frames, times: 0...1)
            .draw(into: &canvas, area: Area(x: 0, y: 0, width: width, height: height))
        #expect(canvas.width == width && canvas.height == height)
    }

    @Test("braille: dot (x, y) sets the Unicode bit; lines have no gaps")
    func braille() {
        var grid = BrailleGrid(columns: 2, rows: 1)
        grid.set(x: 0, y: 0, style: .trace(0))
        grid.set(x: 1, y: 3, style: .trace(0))
        grid.set(x: 3, y: 1, style: .trace(1))
        var canvas = Canvas(width: 2, height: 1)
        grid.draw(into: &canvas, at: Area(x: 0, y: 0, width: 2, height: 1))
        #expect(canvas.text == "\u{2881}\u{2810}")
        #expect(canvas[1, 0]?.style == .trace(1))
        var line = BrailleGrid(columns: 4, rows: 2)
        line.line(from: (0, 7), to: (7, 0), style: .trace(0))
        var diagonal = Canvas(width: 4, height: 2)
        line.draw(into: &diagonal, at: Area(x: 0, y: 0, width: 4, height: 2))
        #expect(diagonal.text == "⠀⠀⡠⠊\n⡠⠊⠀⠀".replacingOccurrences(of: "⠀", with: " "))
    }

    @Test("colour maps run from their dark end to their light end")
    func colorMaps() {
        #expect(ColorMap.viridis.color(0) == RGB(hex: 0x440154) && ColorMap.viridis.color(255) == RGB(hex: 0xFDE725))
        #expect(ColorMap.magma.color(0) == RGB(hex: 0x000004) && ColorMap.magma.color(255) == RGB(hex: 0xFCFDBF))
        #expect(ColorMap.grayscale.color(128) == RGB(128, 128, 128))
    }

    @Test("SVG: a standalone document with the plot's text and heat rectangles")
    func svg() {
        var canvas = Canvas(width: 4, height: 1)
        canvas.write("<&", x: 0, y: 0, style: .label)
        canvas.put(Cell("▀", .heat(255), background: .heat(0)), x: 3, y: 0)
        let svg = SVGWriter().document(canvas)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.hasSuffix("</svg>\n"))
        #expect(svg.contains(">&lt;</text>") && svg.contains(">&amp;</text>"))
        #expect(svg.contains("fill=\"#fde725\"") && svg.contains("fill=\"#440154\""))
    }
}

/// Compares `actual` with the golden file `name`; with UPDATE_GOLDEN=1 in the environment, writes it
/// instead (then the diff is reviewed like code).
func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = repositoryRoot + "/Tests/SignalPathKitTests/Golden/" + name
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
        try (actual + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOfFile: path, encoding: .utf8)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, (want, got)) in zip(expectedLines, actualLines).enumerated() where want != got {
        Issue.record(Comment(rawValue: "\(name) line \(index + 1):\n  golden: \(want)\n  drawn:  \(got)"), sourceLocation: sourceLocation)
        return
    }
    #expect(expectedLines.count == actualLines.count, "\(name): \(actualLines.count) lines drawn, \(expectedLines.count) in the golden file",
            sourceLocation: sourceLocation)
}

@Suite("Rendering: golden canvases")
struct GoldenTests {
    /// The view drawn into `area` of a marker-filled canvas: text and style codes.
    func render(width: Int, height: Int, area: Area, _ draw: (inout Canvas, Area) -> Void) -> Canvas {
        var canvas = markedCanvas(width: width, height: height)
        draw(&canvas, area)
        return canvas
    }

    @Test("spectrum plot, braille lines, two channels, log axis, peak marker")
    func spectrumLines() throws {
        let canvas = render(width: 64, height: 18, area: Area(x: 1, y: 1, width: 62, height: 16)) { syntheticPlot().draw(into: &$0, area: $1) }
        try expectGolden(canvas.text, "spectrum-lines.txt")
        try expectGolden(canvas.styleCodes, "spectrum-lines.styles.txt")
    }

    @Test("spectrum plot, eighth-block bars, one channel, linear axis")
    func spectrumBars() throws {
        var plot = syntheticPlot(channels: 1)
        plot.traceStyle = .bars
        plot.logarithmic = false
        plot.floor = -110
        let canvas = render(width: 50, height: 14, area: Area(x: 2, y: 1, width: 46, height: 12)) { plot.draw(into: &$0, area: $1) }
        try expectGolden(canvas.text, "spectrum-bars.txt")
        try expectGolden(canvas.styleCodes, "spectrum-bars.styles.txt")
    }

    /// A chirp-like spectrogram: in frame t a tone at bin 4·2^(t/4), −20 dB over a −90 dB floor.
    func chirp(shades: Bool) -> SpectrogramPlot {
        let frequencies = (0..<1025).map { Double($0) * 23.4375 }
        let frames = (0..<24).map { t -> [Double] in
            let tone = Int(4 * pow(2, Double(t) / 4))
            return frequencies.indices.map { abs($0 - tone) <= tone / 8 ? -20 : -90 }
        }
        var plot = SpectrogramPlot(title: "chirp.wav", frequencies: frequencies, frames: frames, times: 0...6)
        plot.floor = -100
        plot.ceiling = 0
        plot.shades = shades
        return plot
    }

    @Test("spectrogram heat map: half blocks with heat styles; and the shade ramp without colour")
    func spectrogram() throws {
        let colour = render(width: 36, height: 14, area: Area(x: 1, y: 1, width: 34, height: 12)) { chirp(shades: false).draw(into: &$0, area: $1) }
        try expectGolden(colour.text, "spectrogram.txt")
        try expectGolden(colour.styleCodes, "spectrogram.styles.txt")
        let backgrounds = colour.cells.compactMap(\.background).map(\.code)
        // −90 dB on a −100…0 scale is level 26 ("b"), the tone's −20 dB level 204 ("m").
        #expect(backgrounds.contains("b") && backgrounds.contains("m"), "the lower pixels carry the floor and the tone")
        let shades = render(width: 36, height: 14, area: Area(x: 1, y: 1, width: 34, height: 12)) { chirp(shades: true).draw(into: &$0, area: $1) }
        try expectGolden(shades.text, "spectrogram-shades.txt")
        #expect(!shades.cells.contains { if case .heat = $0.style { return true } else { return false } })
    }
}

@Suite("Parsers: regressions from fuzzing")
struct ParserRegressionTests {
    @Test("empty and degenerate texts are refused, not crashed on",
          arguments: ["", ":", "::", "kaiser:", ":8", "\u{0}", "..", "...", "-", "1e400s..2", "..99999999999999999993s", "9999999999999999999999h.."])
    func degenerate(text: String) {
        #expect(Window(name: text) == nil || !text.isEmpty)
        _ = TimeRange.seconds(text)
        _ = ChannelSelection(parsing: text)
        if let range = TimeRange(parsing: text) {
            for frames in [nil, Int64(48_000)] as [Int64?] { _ = try? range.frames(in: "x", sampleRate: 192_000, frames: frames) }
        }
    }
}
