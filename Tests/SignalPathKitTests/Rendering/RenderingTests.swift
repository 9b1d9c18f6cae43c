import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

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
