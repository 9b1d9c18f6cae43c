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

    @Test(
        "views survive tiny and empty areas: each keeps to its area and owns all of it",
        arguments: [(10, 4), (3, 2), (1, 1), (0, 0), (12, 5), (40, 3), (40, 12)])
    func tinySizes(width: Int, height: Int) {
        // The view's area sits inside a larger marked canvas: a cell outside it that changes is a
        // view drawing where it must not; a marker left inside it is a view not clearing its area.
        let area = Area(x: 2, y: 1, width: width, height: height)
        var bars = syntheticPlot()
        bars.traceStyle = .bars
        let frames = (0..<5).map { column in (0..<1025).map { Double($0 % 100) - 100 + Double(column) } }
        let spectrogram = SpectrogramPlot(title: "t", frequencies: (0..<1025).map { Double($0) * 23.4375 }, frames: frames, times: 0...1)
        let views: [(String, (inout Canvas, Area) -> Void)] = [
            ("lines", { syntheticPlot().draw(into: &$0, area: $1) }),
            ("bars", { bars.draw(into: &$0, area: $1) }),
            ("spectrogram", { spectrogram.draw(into: &$0, area: $1) }),
        ]
        for (name, draw) in views {
            var canvas = markedCanvas(width: width + 4, height: height + 2)
            draw(&canvas, area)
            for y in 0..<canvas.height {
                for x in 0..<canvas.width {
                    let inside = area.columns.contains(x) && area.rows.contains(y)
                    let marked = canvas[x, y] == Cell("·")  // the marker: a "·" in plain style (titles have their own)
                    #expect(inside ? !marked : marked, "\(name) at \(width)×\(height): cell (\(x), \(y)) \(inside ? "not drawn" : "drawn outside")")
                }
            }
        }
    }

    /// The dot numbers of a braille character according to the Unicode character database
    /// (`BRAILLE PATTERN DOTS-1378`), independent of the grid's bit table.
    func unicodeDots(_ character: Character?) -> Set<Int> {
        guard let name = character?.unicodeScalars.first?.properties.name, name.hasPrefix("BRAILLE PATTERN") else { return [] }
        guard let dots = name.split(separator: "-").last, name.contains("DOTS-") else { return [] }  // BLANK
        return Set(dots.compactMap { $0.wholeNumberValue })
    }

    @Test("braille: each dot (x, y) of a cell is the braille dot the Unicode names give it (1 2 3 7 down the left, 4 5 6 8 down the right)")
    func brailleDots() {
        // The numbering of the eight-dot braille cell (Unicode chapter 21, Braille Patterns).
        let numbering = [[1, 2, 3, 7], [4, 5, 6, 8]]
        for x in 0..<2 {
            for y in 0..<4 {
                var grid = BrailleGrid(columns: 1, rows: 1)
                grid.set(x: x, y: y, style: .trace(0))
                var canvas = Canvas(width: 1, height: 1)
                grid.draw(into: &canvas, at: Area(x: 0, y: 0, width: 1, height: 1))
                #expect(unicodeDots(canvas[0, 0]?.character) == [numbering[x][y]], "dot (\(x), \(y))")
            }
        }
        // Any set of dots in a cell: the character names exactly those dots (seeded random sets).
        var generator = SeededGenerator(seed: 2800)
        for _ in 0..<64 {
            var grid = BrailleGrid(columns: 1, rows: 1)
            var expected: Set<Int> = []
            for x in 0..<2 {
                for y in 0..<4 where Bool.random(using: &generator) {
                    grid.set(x: x, y: y, style: .trace(0))
                    expected.insert(numbering[x][y])
                }
            }
            var canvas = Canvas(width: 1, height: 1, fill: Cell("·"))
            grid.draw(into: &canvas, at: Area(x: 0, y: 0, width: 1, height: 1))
            if expected.isEmpty {
                #expect(canvas[0, 0]?.character == "·", "a cell without dots is left alone")
            } else {
                #expect(unicodeDots(canvas[0, 0]?.character) == expected)
            }
        }
    }

    @Test("braille: dots land in the right cell, a cell takes the style of its last dot; lines have no gaps")
    func brailleLines() {
        var grid = BrailleGrid(columns: 2, rows: 1)
        grid.set(x: 0, y: 0, style: .trace(0))
        grid.set(x: 1, y: 3, style: .trace(0))
        grid.set(x: 3, y: 1, style: .trace(1))
        var canvas = Canvas(width: 2, height: 1)
        grid.draw(into: &canvas, at: Area(x: 0, y: 0, width: 2, height: 1))
        #expect(unicodeDots(canvas[0, 0]?.character) == [1, 8] && unicodeDots(canvas[1, 0]?.character) == [5])
        #expect(canvas[1, 0]?.style == .trace(1))
        // A diagonal from the bottom left to the top right of a 8 × 8 dot grid: every dot column
        // has exactly one dot, and its row is 7 − x.
        var line = BrailleGrid(columns: 4, rows: 2)
        line.line(from: (0, 7), to: (7, 0), style: .trace(0))
        var diagonal = Canvas(width: 4, height: 2)
        line.draw(into: &diagonal, at: Area(x: 0, y: 0, width: 4, height: 2))
        let numbering = [[1, 2, 3, 7], [4, 5, 6, 8]]
        for x in 0..<8 {
            for y in 0..<8 {
                let dots = unicodeDots(diagonal[x / 2, y / 4]?.character)
                #expect(dots.contains(numbering[x % 2][y % 4]) == (y == 7 - x), "dot (\(x), \(y))")
            }
        }
    }

    @Test("colour maps run from their dark end to their light end")
    func colorMaps() {
        #expect(ColorMap.viridis.color(0) == RGB(hex: 0x440154) && ColorMap.viridis.color(255) == RGB(hex: 0xFDE725))
        #expect(ColorMap.magma.color(0) == RGB(hex: 0x000004) && ColorMap.magma.color(255) == RGB(hex: 0xFCFDBF))
        #expect(ColorMap.grayscale.color(128) == RGB(128, 128, 128))
    }
}
