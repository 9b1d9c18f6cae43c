import Foundation
import Testing
import SignalPathTestSupport

/// Runs `command` (a shell line) in a real pseudo-terminal with `script`, with `environment`
/// added; returns what the terminal received.
func inTerminal(_ command: String, environment: [String: String] = [:]) throws -> ProcessResult {
    var variables = ProcessInfo.processInfo.environment.filter { $0.key != "NO_COLOR" && $0.key != "COLORTERM" }
    variables["TERM"] = "xterm-256color"
    for (key, value) in environment { variables[key] = value }
    return try run("/usr/bin/script", ["-qefc", command, "/dev/null"], environment: variables, timeout: 60)
}

/// The text without escape sequences: what a person sees.
func visible(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
}

@Suite("signalpath spectrum and spectrogram plots")
struct PlotCLITests {
    let scratch = ScratchDirectory("plot-cli")

    @Test("in a pseudo-terminal, spectrum draws a coloured plot that fits the width; NO_COLOR removes the colour; piped it is CSV")
    func spectrumInTerminal() throws {
        let command = "stty cols 72 rows 30; \(signalpath) spectrum \(sample("chord-a-major-44k1-stereo.ogg")) --range 0.5..2.5"
        let coloured = try inTerminal(command)
        #expect(coloured.status == 0, "\(coloured.stderr)")
        #expect(coloured.stdout.contains("\u{1B}[0;38;5;"), "256-colour traces")
        let lines = visible(coloured.stdout).replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        #expect(lines.count >= 20 && lines.allSatisfy { $0.count <= 72 }, "fits 72 columns: \(lines.map(\.count).max() ?? 0)")
        #expect(lines.contains { $0.contains("1k") && $0.contains("100") }, "frequency tick labels")
        #expect(lines.contains { $0.contains("▼") && $0.contains("A4") } || lines.contains { $0.contains("A4") }, "the A4 peak is labelled")
        #expect(lines.contains { $0.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }, "braille traces")

        let plain = try inTerminal(command, environment: ["NO_COLOR": "1"])
        #expect(plain.status == 0)
        #expect(!plain.stdout.contains("\u{1B}[0;3") && !plain.stdout.contains("38;"), "no colour codes with NO_COLOR")
        #expect(plain.stdout.contains("⠀") || plain.stdout.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })

        let piped = try signalpath("spectrum", sample("chord-a-major-44k1-stereo.ogg"), "--range", "0.5..2.5")
        #expect(piped.stdout.hasPrefix("frequency_hz,left_dbfs,right_dbfs\n"))
        #expect(!piped.stdout.contains("\u{1B}"))
    }

    @Test("spectrogram in a pseudo-terminal: half blocks in colour, shades without")
    func spectrogramInTerminal() throws {
        let command = "stty cols 60 rows 20; \(signalpath) spectrogram \(sample("chirp-log-20-20k-48k-s24.flac"))"
        let coloured = try inTerminal(command, environment: ["COLORTERM": "truecolor"])
        #expect(coloured.status == 0, "\(coloured.stderr)")
        #expect(coloured.stdout.contains("▀") && coloured.stdout.contains(";48;2;"), "truecolor half blocks")
        let lines = visible(coloured.stdout).replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        #expect(lines.count <= 20 && lines.allSatisfy { $0.count <= 60 })
        let shaded = try inTerminal(command, environment: ["NO_COLOR": "1"])
        #expect(!shaded.stdout.contains("▀") && shaded.stdout.contains("█") && !shaded.stdout.contains("\u{1B}[0;"))
    }

    @Test("spectrogram CSV: a header of bin frequencies, one row per segment at its middle; --long; JSON")
    func spectrogramData() throws {
        let path = sample("sine-1k-48k-s16-mono.wav")  // 2 s at 48 kHz
        let wide = try signalpath("spectrogram", path, "--fft-size", "1024")
        #expect(wide.status == 0, "\(wide.stderr)")
        let rows = wide.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }.map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows[0].count == 1 + 513 && rows[0][0] == "time_s" && rows[0][1] == "0" && rows[0][2] == "46.875")
        #expect(rows.count - 1 == (96_000 - 1024) / 512 + 1)
        #expect(abs(Double(rows[1][0])! - 512.0 / 48_000) < 1e-6, "the first segment's middle (6 decimals)")
        let loudest = rows[1].dropFirst().enumerated().max { (Double($0.element) ?? -999) < (Double($1.element) ?? -999) }!
        #expect(abs(Double(loudest.offset) * 46.875 - 1000) < 47)
        let long = try signalpath("spectrogram", path, "--fft-size", "1024", "--range", "0..0.1", "--long")
        let longRows = long.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(longRows[0] == "time_s,frequency_hz,channel,level_db")
        #expect(longRows.count == 1 + 513 * ((4800 - 1024) / 512 + 1))
        let json = try signalpath("spectrogram", path, "--fft-size", "1024", "--range", "0..0.1", "--format", "json")
        let document = try #require(JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect(document["schema"] as? String == "signalpath.spectrogram/1")
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        #expect((file["frequencies_hz"] as? [Double])?.count == 513 && file["window"] as? String == "hann")
        #expect((file["frames"] as? [[String: Any]])?.count == (4800 - 1024) / 512 + 1)
    }

    @Test("a title tag holding escape sequences reaches the terminal escaped")
    func hostileTag() throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 8000)
        let bytes = builder.file(samples: [Double](repeating: 0.1, count: 800)) + PCMFileBuilder.infoChunk([("INAM", "pwn\u{1B}]0;owned\u{07}\u{1B}[2J title")])
        let path = scratch.write("tagged.wav", bytes)
        let result = try inTerminal("\(signalpath) info \(path)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}]0;") && !result.stdout.contains("\u{07}") && !result.stdout.contains("\u{1B}[2J"))
        #expect(result.stdout.contains("pwn\\e]0;owned\\x07\\e[2J title"))
    }

    @Test("--color never and NO_COLOR: the two channels of a stereo file are told apart by pattern in the legend and the traces")
    func channelsWithoutColour() throws {
        let file = sample("stereo-440L-880R-44k1-s16.wav")
        for (arguments, environment) in [(["--color", "never"], [:]), ([], ["NO_COLOR": "1"])] {
            let command = "stty cols 80 rows 30; \(signalpath) spectrum \(file) " + arguments.joined(separator: " ")
            let result = try inTerminal(command, environment: environment)
            #expect(result.status == 0 && !result.stdout.contains("38;"))
            let text = visible(result.stdout)
            #expect(text.contains("⠒⠒⠒ left") && text.contains("⠂⠂⠂ right"), "\(text)")
        }
        let coloured = visible(try inTerminal("stty cols 80 rows 30; \(signalpath) spectrum \(file)").stdout)
        #expect(coloured.contains("━ left") && coloured.contains("━ right"), "with colour the legend keeps its coloured bars")
    }
}
