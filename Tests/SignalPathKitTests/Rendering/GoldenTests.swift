import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// Compares `actual` with the golden file `name`. With UPDATE_GOLDEN=1 in the environment it writes
/// the file instead and fails, so that a recording run can never pass for a checking one (the diff
/// is then reviewed like code, and a second run without the variable checks it).
func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = repositoryRoot + "/Tests/SignalPathKitTests/Golden/" + name
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
        try (actual + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        Issue.record(Comment(rawValue: "\(name) recorded (UPDATE_GOLDEN=1): review the diff, then run again without it"), sourceLocation: sourceLocation)
        return
    }
    let expected = try String(contentsOfFile: path, encoding: .utf8)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, (want, got)) in zip(expectedLines, actualLines).enumerated() where want != got {
        Issue.record(Comment(rawValue: "\(name) line \(index + 1):\n  golden: \(want)\n  drawn:  \(got)"), sourceLocation: sourceLocation)
        return
    }
    #expect(
        expectedLines.count == actualLines.count, "\(name): \(actualLines.count) lines drawn, \(expectedLines.count) in the golden file",
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

    @Test("without colour (--color never, NO_COLOR), two channels differ by pattern: solid and dotted lines, legend samples to match")
    func spectrumMonochrome() throws {
        var plot = syntheticPlot()
        plot.monochrome = true
        let canvas = render(width: 64, height: 18, area: Area(x: 1, y: 1, width: 62, height: 16)) { plot.draw(into: &$0, area: $1) }
        try expectGolden(canvas.text, "spectrum-lines-monochrome.txt")
        #expect(canvas.text.contains("⠒⠒⠒ left") && canvas.text.contains("⠂⠂⠂ right"))
        // The right channel's floor (−100 dB, no tone above 1 kHz) is a dotted run: along it, only
        // every other dot column is set — the left channel's run at the same level is solid.
        var alone = syntheticPlot()
        alone.monochrome = true
        alone.channels[0].values = alone.channels[0].values.map { _ in -200 }  // below the floor: drawn on the bottom row
        let right = render(width: 64, height: 18, area: Area(x: 1, y: 1, width: 62, height: 16)) { alone.draw(into: &$0, area: $1) }
        let singleDots = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80].map { Character(Unicode.Scalar(0x2800 + $0)!) }
        #expect(singleDots.contains { dot in right.text.contains(String(repeating: dot, count: 8)) }, "a run of cells of one dot each:\n\(right.text)")
    }

    @Test("without colour, bands of two channels: the first as bars, the second as a dotted line over them")
    func barsMonochrome() throws {
        var plot = syntheticPlot()
        plot.traceStyle = .bars
        plot.monochrome = true
        let canvas = render(width: 50, height: 14, area: Area(x: 2, y: 1, width: 46, height: 12)) { plot.draw(into: &$0, area: $1) }
        try expectGolden(canvas.text, "spectrum-bars-monochrome.txt")
        #expect(canvas.text.contains("█ left") && canvas.text.contains("⠂⠂⠂ right"))
        #expect(canvas.cells.contains { $0.style == .trace(0) && "▁▂▃▄▅▆▇█".contains($0.character) })
        #expect(canvas.cells.contains { $0.style == .trace(1) && ($0.character.unicodeScalars.first?.value ?? 0) >> 8 == 0x28 }, "braille for the second channel")
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
