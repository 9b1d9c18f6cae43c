import Foundation
import SignalPathTestSupport
import Testing

/// The chart files: PNGs decoded by Pillow (Tests/Reference/chart_facts.py), SVGs parsed as XML and
/// rendered by rsvg-convert, PDFs read by pdfinfo — facts checked against where a tone must be
/// drawn, not against signalpath's own drawing code.
@Suite("chart files: PNG, SVG and PDF")
struct ChartCLITests {
    /// The light theme's axis colour (the plot frame) and first and second trace colours
    /// (Okabe–Ito blue and vermillion).
    static let axis = "333333", firstTrace = "0072B2", secondTrace = "D55E00"

    /// Inputs made once for the suite: 1 s of 1 kHz + 5 kHz at −12 dBFS each, and 1 s of 1 kHz
    /// alone at −6.02 dBFS, at 48 kHz.
    static let fixtures: (scratch: ScratchDirectory, tones: String, tone: String) = {
        let scratch = ScratchDirectory("chart-cli")
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 48_000)
        let tones = scratch.write("tones.wav", builder.file(samples: zip(sine(1000, dbfs: -12, seconds: 1), sine(5000, dbfs: -12, seconds: 1)).map { $0 + $1 }))
        let tone = scratch.write("tone.wav", builder.file(samples: sine(1000, dbfs: -6.02, seconds: 1)))
        return (scratch, tones, tone)
    }()

    var scratch: ScratchDirectory { Self.fixtures.scratch }

    func facts(_ arguments: String...) throws -> [String: Any] {
        let result = try run(try #require(which("python3")), [repositoryRoot + "/Tests/Reference/chart_facts.py"] + arguments, timeout: 60)
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    }

    /// PNG width and height from the IHDR chunk (bytes 16–23), read without any image library.
    func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        try #require(bytes.count > 24 && bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG signature")
        func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }

    @Test("spectrogram of 1 kHz + 5 kHz on a linear axis: the two brightest rows are those of 1 kHz and 5 kHz (±1 px); the colour bar runs from viridis' dark end to its light end")
    func spectrogramRows() throws {
        let output = scratch.file("tones.png")
        let result = try signalpath("spectrogram", Self.fixtures.tones, "--linear", "--size", "480x270", "--fft-size", "2048", "--output", output, "--force")
        try #require(result.status == 0, "\(result.stderr)")
        #expect(try pngSize(output) == (480, 270))
        let facts = try facts("rows", output, Self.axis)
        let rows = try #require(facts["row_luminance"] as? [Double])
        // The linear axis runs from 0 Hz at the bottom edge to Nyquist (24 kHz) at the top edge.
        func row(_ frequency: Double) -> Double { (1 - frequency / 24_000) * Double(rows.count) - 0.5 }
        let brightest = try #require(rows.indices.max { rows[$0] < rows[$1] })
        let second = try #require(rows.indices.filter { abs($0 - brightest) > 5 }.max { rows[$0] < rows[$1] })
        let found = [brightest, second].sorted()
        #expect(abs(Double(found[0]) - row(5000)) <= 1, "5 kHz at row \(row(5000)), brightest rows \(found)")
        #expect(abs(Double(found[1]) - row(1000)) <= 1, "1 kHz at row \(row(1000)), brightest rows \(found)")
        // matplotlib's viridis runs from (68, 1, 84) to (253, 231, 37).
        let bar = try #require(facts["bar"] as? [[Int]])
        try #require(bar.count == rows.count, "the colour bar is as tall as the plot")
        func near(_ pixel: [Int], _ color: [Int]) -> Bool { zip(pixel, color).allSatisfy { abs($0 - $1) <= 12 } }
        #expect(near(bar.first!, [253, 231, 37]), "top of the bar: \(bar.first!)")
        #expect(near(bar.last!, [68, 1, 84]), "bottom of the bar: \(bar.last!)")
        let luminance = bar.map { 0.2126 * Double($0[0]) + 0.7152 * Double($0[1]) + 0.0722 * Double($0[2]) }
        #expect(zip(luminance, luminance.dropFirst()).allSatisfy { $0 >= $1 - 1 }, "lighter towards the top, all the way")
    }

    @Test("spectrum of 1 kHz: the trace's highest point is at the x of 1 kHz on the log axis from 20 Hz to Nyquist (±2 px)")
    func spectrumPeak() throws {
        let output = scratch.file("tone.png")
        let result = try signalpath("spectrum", Self.fixtures.tone, "--size", "640x360", "--peaks", "0", "--output", output, "--force")
        try #require(result.status == 0, "\(result.stderr)")
        let facts = try facts("topmost", output, Self.axis, Self.firstTrace)
        let left = try #require(facts["left"] as? Int), right = try #require(facts["right"] as? Int)
        let x = try #require(facts["x"] as? Int)
        let width = Double(right - left + 1)
        let expected = log(1000.0 / 20) / log(24_000.0 / 20) * width
        #expect(abs(Double(x) - expected) <= 2, "the peak at x \(x), 1 kHz at \(expected) of \(width)")
        // A half-scale sine reads -6.02 dBFS; the axis runs from --floor (-120) to 5 dB above the
        // maximum rounded up to 10 dB: 0 dBFS.
        let top = try #require(facts["top"] as? Int), bottom = try #require(facts["bottom"] as? Int)
        let y = Double(try #require(facts["y"] as? Int))
        let expectedY = 6.02 / 120 * Double(bottom - top + 1)
        #expect(abs(y - expectedY) <= 2, "the peak at row \(y), -6.02 dBFS at \(expectedY)")
    }

    @Test(
        "loudness of a 12-minute programme: no short-term or momentary colour inside its digital silences, momentary fainter than short-term, no line crossing a label in the plot; --no-momentary leaves no momentary colour"
    )
    func longProgramme() throws {
        // fluidsynth music and espeak-ng speech at varied levels, with digital silences (8–25 s)
        // and room tone below the gate between them; 7 200 points over ~1 100 pixel columns.
        let path = scratch.file("programme.wav")
        let made = try run(try #require(which("python3")), [repositoryRoot + "/Tests/Reference/loudness_programme.py", path, "12"], timeout: 300)
        try #require(made.status == 0, "\(made.stderr)")
        let programme = try #require(JSONSerialization.jsonObject(with: made.stdoutData) as? [String: Any])
        let seconds = try #require(programme["seconds"] as? Double), silences = try #require(programme["silences"] as? [[Double]])
        let output = scratch.file("programme.png")
        let result = try signalpath("loudness", path, "--target", "-23", "--output", output, "--force")
        try #require(result.status == 0, "\(result.stderr)")
        let facts = try self.facts("loudness", output, Self.axis, Self.firstTrace, Self.secondTrace)
        let left = try #require(facts["left"] as? Int), right = try #require(facts["right"] as? Int)
        let short = try #require(facts["short_columns"] as? [Bool]), momentary = try #require(facts["momentary_columns"] as? [Bool])
        // Pixel column (inside the frame) of a time: the axis runs from 0 to the programme's end.
        func column(_ time: Double) -> Double { time / seconds * Double(right - left + 1) }
        // Short-term is missing once its 3 s window lies in the silence, momentary once its
        // 400 ms one does; 0.5 s and 2 px spare for the line's width and anti-aliasing.
        var checked = 0
        for silence in silences {
            for (name, drawn, window) in [("short-term", short, 3.0), ("momentary", momentary, 0.4)] {
                let first = Int(column(silence[0] + window + 0.5).rounded(.up)) + 2, last = Int(column(silence[1] - 0.5).rounded(.down)) - 2
                guard first <= last else { continue }
                checked += 1
                let crossed = (first...last).filter { drawn[$0] }
                #expect(crossed.isEmpty, "\(name) drawn in the silence \(silence) at columns \(crossed) of \(first)...\(last)")
            }
        }
        #expect(checked >= 10, "\(checked) gaps wide enough to check")
        let shortContrast = try #require(facts["short_contrast"] as? Double), momentaryContrast = try #require(facts["momentary_contrast"] as? Double)
        let momentaryPixels = try #require(facts["momentary_pixels"] as? Int), shortPixels = try #require(facts["short_pixels"] as? Int)
        #expect(momentaryPixels > 10_000 && shortPixels > 10_000)
        #expect(momentaryContrast < 0.6 * shortContrast, "momentary stands \(momentaryContrast) from the background, short-term \(shortContrast)")
        let labels = try #require(facts["labels"] as? [[String: Any]])
        #expect(labels.count >= 2, "the target's and the integrated level's labels: \(labels)")
        for label in labels { #expect(label["trace_pixels"] as? Int == 0, "a line crosses the label at \(label["box"] ?? "")") }

        let shortOnly = scratch.file("short-term.png")
        let without = try signalpath("loudness", path, "--no-momentary", "--output", shortOnly, "--force")
        try #require(without.status == 0, "\(without.stderr)")
        let shortFacts = try self.facts("loudness", shortOnly, Self.axis, Self.firstTrace, Self.secondTrace)
        #expect(shortFacts["momentary_pixels_image"] as? Int == 0, "no momentary colour in the plot or the legend")
        #expect(try #require(shortFacts["short_pixels"] as? Int) > 10_000)
    }

    @Test("--size sets a PNG's pixels, --dpi scales them; loudness and spectrum as well as spectrogram")
    func sizes() throws {
        let cases: [([String], (Int, Int))] = [
            (["spectrum", Self.fixtures.tone], (1200, 675)),
            (["spectrum", Self.fixtures.tone, "--size", "800x450", "--dpi", "192"], (1600, 900)),
            (["loudness", Self.fixtures.tone, "--size", "333x222"], (333, 222)),
            (["spectrogram", Self.fixtures.tone, "--size", "300x200", "--dpi", "48", "--fft-size", "1024"], (150, 100)),
        ]
        for (arguments, size) in cases {
            let output = scratch.file("size.png")
            let result = try signalpath(arguments + ["--output", output, "--force"])
            try #require(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(try pngSize(output) == size, "\(arguments)")
        }
    }

    @Test("SVG: XML with each trace one path, no text elements, the heat map one embedded image; rsvg-convert draws the PNG's picture")
    func svg() throws {
        // From standard input, so the title is the same wherever the repository lies: rsvg and
        // Cairo anti-alias glyphs differently, and a checkout path in the title moved the share of
        // pixels more than 64 levels apart from 0.57 % (this title) to 1.09 % (/work/main/Samples/…).
        let stereo = try Data(contentsOf: URL(fileURLWithPath: sample("stereo-440L-880R-44k1-s16.wav")))
        let svgPath = scratch.file("stereo.svg"), pngPath = scratch.file("stereo.png")
        for path in [svgPath, pngPath] {
            let result = try signalpath(["spectrum", "-", "--size", "640x360", "--output", path, "--force"], input: stereo)
            try #require(result.status == 0, "\(result.stderr)")
        }
        let svg = try facts("svg", svgPath)
        let stroked = try #require(svg["stroked"] as? [String: Int])
        #expect(stroked["#0072b2"] == 2 && stroked["#d55e00"] == 2, "each channel one path, and its legend sample: \(stroked)")
        #expect(svg["text"] as? Int == 0, "text is drawn as glyph outlines, not cells")
        #expect(try #require(svg["elements"] as? Int) < 1500, "a chart, not a grid of cells")

        let rendered = scratch.file("rendered.png")
        let convert = try run(try #require(which("rsvg-convert")), ["-w", "640", "-h", "360", "-o", rendered, svgPath], timeout: 60)
        try #require(convert.status == 0, "\(convert.stderr)")
        let difference = try facts("compare", rendered, pngPath)
        let mean = try #require(difference["mean"] as? Double), over = try #require(difference["over64"] as? Double)
        #expect(mean < 2 && over < 0.01, "rsvg-convert's rendering against the PNG: mean difference \(mean), \(over * 100) % of pixels over 64")

        let heat = scratch.file("heat.svg")
        let spectrogram = try signalpath("spectrogram", Self.fixtures.tones, "--size", "400x225", "--fft-size", "1024", "--output", heat, "--force")
        try #require(spectrogram.status == 0, "\(spectrogram.stderr)")
        let heatFacts = try facts("svg", heat)
        #expect(heatFacts["image"] as? Int == 2, "the heat map and the colour bar, each one image")
        #expect(try #require(heatFacts["rect"] as? Int) < 20, "no rectangle per cell")
    }

    @Test("PDF: one page of --size points, as pdfinfo reads it")
    func pdf() throws {
        let output = scratch.file("chart.pdf")
        for (arguments, size) in [(["spectrum", Self.fixtures.tone], "1200 x 675 pts"), (["loudness", Self.fixtures.tone, "--size", "800x450"], "800 x 450 pts")] {
            let result = try signalpath(arguments + ["--output", output, "--force"])
            try #require(result.status == 0, "\(result.stderr)")
            let info = try run(try #require(which("pdfinfo")), [output], timeout: 60)
            #expect(info.status == 0 && info.stdout.contains("Pages:           1") && info.stdout.contains("Page size:       \(size)"), "\(info.stdout)")
        }
    }

    @Test("chart files are written whole or not at all: an existing file is kept without --force, replaced with it; PNG is not written to a terminal; one chart per file")
    func writing() throws {
        // A directory of its own: the other tests write into the suite's at the same time.
        let scratch = ScratchDirectory("chart-cli-writing")
        let output = scratch.file("kept.png")
        try Data("not a chart".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try signalpath("spectrum", Self.fixtures.tone, "--output", output)
        #expect(refused.status == 64 && refused.stderr.contains("--force"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "not a chart")
        let forced = try signalpath("spectrum", Self.fixtures.tone, "--output", output, "--force")
        #expect(forced.status == 0)
        #expect(try pngSize(output) == (1200, 675))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".signalpath-") }
        #expect(leftovers.isEmpty, "no temporary files left behind")
        let missing = try signalpath("spectrum", scratch.file("absent.wav"), "--output", scratch.file("absent.png"))
        #expect(missing.status == 66 && !FileManager.default.fileExists(atPath: scratch.file("absent.png")), "a failed input makes no file")
        let two = try signalpath("spectrum", Self.fixtures.tone, Self.fixtures.tones, "--output", scratch.file("two.png"))
        #expect(two.status == 64 && two.stderr.contains("one chart"))
        let terminal = try inTerminal("\(signalpath) spectrum \(Self.fixtures.tone) --format png")
        #expect(terminal.stdout.contains("binary") && !terminal.stdout.contains("PNG\r\n"), "\(terminal.stdout.prefix(300))")
        let piped = try signalpath("spectrum", Self.fixtures.tone, "--format", "png", "--size", "320x180")
        #expect(piped.status == 0 && piped.stdoutData.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "piped, the PNG's bytes")
    }
}
