import Foundation
import Testing
import SignalPathTestSupport

/// Progress lines as a person sees them: the commands run in a pseudo-terminal (util-linux
/// `script`), whose bytes are read back as a terminal shows them.
@Suite("progress lines on a terminal")
struct ProgressCLITests {
    let scratch = ScratchDirectory("progress")

    /// Four minutes of pink noise, mono at 48 kHz (sox): many chunks of work, each a progress update.
    func longInput() throws -> String {
        let path = scratch.file("long.wav")
        let made = try run(try #require(which("sox")), ["-n", "-r", "48000", "-c", "1", "-b", "16", path, "synth", "240", "pinknoise", "vol", "0.3"])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    /// What the terminal received, cut at every carriage return and line feed: a progress line is
    /// one piece (erase to the end of the line, the label, the done part, the ETA), and any other
    /// text that follows it on the same line shows as the end of its piece.
    func pieces(_ raw: String) -> [String] {
        raw.unicodeScalars.split { $0 == "\r" || $0 == "\n" }.map { String(String.UnicodeScalarView($0)) }
    }

    /// `signalpath` on a terminal of `columns` × `rows`, its progress lines shown from the start
    /// (they wait for a second of work otherwise, which a fast machine may never give them).
    func onTerminal(columns: Int, rows: Int, _ arguments: String) throws -> ProcessResult {
        try inTerminal("stty cols \(columns) rows \(rows); \(signalpath) \(arguments)", environment: ["SIGNALPATH_PROGRESS_AFTER": "0"])
    }

    /// The progress lines drawn; each must be whole: erased first, and ending with its ETA as
    /// people read time (`ETA 3 s`, `ETA 1 min 20 s`, `ETA 2 h 5 min`).
    func progressLines(_ raw: String, label: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let lines = pieces(raw).filter { $0.contains("ETA ") }
        let whole = "^\u{1B}\\[K" + NSRegularExpression.escapedPattern(for: label) + #"  .*  ETA (\d+ h( \d+ min)?|\d+ min( \d+ s)?|\d+ s)$"#
        for line in lines {
            #expect(line.range(of: whole, options: .regularExpression) != nil, "\(line.debugDescription)", sourceLocation: sourceLocation)
        }
        return lines
    }

    @Test("a single long spectrogram shows its progress as the other commands do, with an ETA in whole seconds")
    func spectrogram() throws {
        let input = try longInput()
        let shown = try onTerminal(columns: 200, rows: 40, "spectrogram \(input) --output \(scratch.file("long.png"))")
        #expect(shown.status == 0, "\(shown.stdout)")
        let lines = progressLines(shown.stdout, label: "spectrogram \(input)")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.range(of: #"  \d+ %  ETA"#, options: .regularExpression) != nil }, "\(shown.stdout)")
        #expect(FileManager.default.fileExists(atPath: scratch.file("long.png")))
    }

    @Test("the progress line is erased before anything else is written: a failed file's message in a batch, a plot on the same terminal")
    func erasedFirst() throws {
        let input = try longInput()
        let bad = scratch.write("bad.wav", Array("not audio at all".utf8))
        // The batch's line shows once the long file is done (half the batch); the bad file's message follows.
        let batch = try onTerminal(columns: 200, rows: 40, "spectrogram \(input) \(bad) --output '\(scratch.path)/{stem}.png' --jobs 1")
        #expect(batch.status == 65)
        #expect(!progressLines(batch.stdout, label: "spectrogram: 2 files").isEmpty, "\(batch.stdout)")
        #expect(pieces(batch.stdout).contains("\u{1B}[Ksignalpath: \(bad): not a recognised audio format"), "\(batch.stdout.debugDescription)")

        let plot = try onTerminal(columns: 100, rows: 30, "spectrogram \(input)")
        #expect(plot.status == 0)
        #expect(!progressLines(plot.stdout, label: "spectrogram \(input)").isEmpty, "\(plot.stdout)")
        #expect(plot.stdout.contains("long.wav · "), "the plot's title")
    }
}
