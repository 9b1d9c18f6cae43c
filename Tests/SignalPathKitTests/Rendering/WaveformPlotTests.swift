import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Rendering: waveform overview")
struct WaveformPlotTests {
    /// Two channels in 68 columns of 100 frames at 48 kHz: the left a sine burst growing from
    /// silence to full scale, clipped in columns 50–53; the right a constant ±0.5 with RMS 0.25.
    static func synthetic() -> WaveformEnvelope {
        var waveform = WaveformEnvelope(
            path: "test.wav", sampleRate: 48_000, frames: 0..<6800, channelNames: ["left", "right"], fullScale: 32767 / 32768, columns: 68)
        for column in 0..<68 {
            let peak = min(1, Double(column) / 50)
            let left = column * 2, right = column * 2 + 1
            waveform.maximum[left] = Float(peak)
            waveform.minimum[left] = Float(-peak * 0.8)
            waveform.sumOfSquares[left] = pow(peak * 0.6, 2) * 100
            waveform.clipped[left] = (50..<54).contains(column) ? 3 : 0
            waveform.maximum[right] = 0.5
            waveform.minimum[right] = -0.5
            waveform.sumOfSquares[right] = 0.0625 * 100
            waveform.clipped[right] = 0
        }
        return waveform
    }

    func render(_ plot: WaveformPlot) -> Canvas {
        var canvas = markedCanvas(width: 42, height: 14)
        plot.draw(into: &canvas, area: Area(x: 1, y: 1, width: 40, height: 12))
        return canvas
    }

    @Test("two lanes, linear: envelope dimmed around the RMS band, clipped columns marked, time axis")
    func linear() throws {
        let canvas = render(WaveformPlot(title: "test.wav · 0.00–0.14 s", waveform: Self.synthetic()))
        try expectGolden(canvas.text, "waveform-linear.txt")
        try expectGolden(canvas.styleCodes, "waveform-linear.styles.txt")
        // Columns 50–53 are clipped: dot columns 50…53 are cells 25 and 26 of the plot, which
        // starts at x = 1 + 6; their marks sit on the time axis (the row under the lanes).
        let axisRow = 1 + 1 + 9
        let marks = (0..<42).filter { canvas[$0, axisRow]?.character == "×" }
        #expect(marks == [32, 33], "\(marks)")
        #expect(marks.allSatisfy { canvas[$0, axisRow]?.style == .clip })
    }

    @Test("a constant ±0.5 envelope spans the dot rows of ±0.5 of its lane, and its RMS band those of ±0.25")
    func halfScaleRows() throws {
        let canvas = render(WaveformPlot(title: "", waveform: Self.synthetic()))
        // The right lane is canvas rows 6…9 (16 dot rows, +1 at the top edge, −1 at the bottom):
        // +0.5 is dot row (1 − 0.5) / 2 · 15 = 3.75 → 4 and −0.5 is 11.25 → 11, so cells 7 and 8 are
        // full (dots 4…11) and cells 6 and 9 empty. RMS 0.25 (dots 6…9) lies inside: `trace` style.
        for column in 7..<41 {
            #expect(canvas[column, 6]?.character == " " && canvas[column, 9]?.character == " ", "column \(column)")
            #expect(canvas[column, 7]?.character == "⣿" && canvas[column, 8]?.character == "⣿", "column \(column)")
            #expect(canvas[column, 7]?.style == .trace(1))
        }
    }

    @Test("dBFS scale without colour: the envelope beyond the RMS band stippled, the floor at the centre line")
    func decibelsMonochrome() throws {
        var plot = WaveformPlot(title: "test.wav", waveform: Self.synthetic())
        plot.scale = .dbfs
        plot.floor = -40
        plot.monochrome = true
        let canvas = render(plot)
        try expectGolden(canvas.text, "waveform-dbfs-monochrome.txt")
        #expect(canvas.text.contains("-40│"))
        #expect(plot.position(0.01) == 0 && plot.position(1) == 1 && plot.position(-0.1) == -0.5)
    }
}
