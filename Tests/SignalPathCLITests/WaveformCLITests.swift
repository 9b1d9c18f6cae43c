import Foundation
import Testing
import SignalPathTestSupport

@Suite("signalpath waveform")
struct WaveformCLITests {
    let scratch = ScratchDirectory("waveform-cli")

    /// 1 s of a half-scale 100 Hz sine, 16-bit mono at 8 kHz, whose last 10 ms are driven to ±1.2
    /// (clipped at the largest codes).
    func clippedSine() -> String {
        let samples = (0..<8000).map { frame in (frame >= 7920 ? 1.2 : 0.5) * sin(2 * Double.pi * 100 * Double(frame) / 8000) }
        return scratch.write("clipped.wav", PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 8000).file(samples: samples))
    }

    func rows(_ csv: String) -> [[String]] { csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } }

    @Test("piped, CSV: a row per column with its exact frames, min, max, RMS and clipped samples")
    func csv() throws {
        let result = try signalpath("waveform", clippedSine(), "--columns", "8")
        #expect(result.status == 0, "\(result.stderr)")
        let table = rows(result.stdout)
        #expect(table.first == ["column", "start_frame", "end_frame", "start_s", "end_s", "channel", "min", "max", "rms", "clipped"])
        let data = Array(table.dropFirst())
        try #require(data.count == 8)
        #expect(data.map { $0[1] } == (0..<8).map { String($0 * 1000) } && data.last?[2] == "8000")
        for row in data.prefix(7) {
            // 1000 frames = 12.5 periods of the half-scale sine: peaks at ±0.5 (16-bit codes), RMS 0.3536.
            #expect(abs(Double(row[6])! + 0.5) < 1e-4 && abs(Double(row[7])! - 0.5) < 1e-4, "\(row)")
            #expect(abs(Double(row[8])! - 0.5.squareRoot() / 2) < 1e-3 && row[9] == "0", "\(row)")
        }
        let last = data[7]
        #expect(Double(last[7])! > 0.9999 && Double(last[6]) == -1 && Int(last[9])! > 10, "\(last)")
    }

    @Test("clipped samples by analyze's rule: the columns add up to analyze's count per channel and to numpy's, across chunk edges; the title says the sum")
    func clippingAsAnalyzeCounts() throws {
        // 12 s of stereo 48 kHz (more than two of the waveform's chunks): a sine driven into 16-bit
        // full scale in the left channel, and in both: lone full-scale samples and pairs (not
        // clipping by the rule), and a run of 5 across the first chunk edge (frame 262 144).
        let path = scratch.file("clips.wav")
        let script = """
            import sys, json, numpy as np, soundfile as sf
            r = 48000; n = 12 * r; t = np.arange(n) / r
            x = np.zeros((n, 2)); x[:, 0] = 0.4 * np.sin(2 * np.pi * 220 * t); x[:, 1] = 0.3 * np.sin(2 * np.pi * 330 * t)
            x[3 * r:4 * r, 0] *= 4
            rng = np.random.default_rng(3)
            for s in rng.integers(0, n - 4, 300): x[s, 1] = 1.0
            for s in rng.integers(0, n - 4, 300): x[s:s + 2, 1] = -1.0
            x[262142:262147, :] = 1.0
            codes = np.clip(np.round(x * 32768), -32768, 32767).astype(np.int16)
            sf.write(sys.argv[1], codes, r, subtype='PCM_16')
            def clipped(c):
                full = (c == 32767) | (c == -32768); total = 0; run = 0
                for v in np.append(full, False):
                    if v: run += 1
                    else:
                        total += run if run >= 3 else 0; run = 0
                return total
            print(json.dumps([clipped(codes[:, 0]), clipped(codes[:, 1])]))
            """
        let made = try run(try #require(which("python3")), ["-c", script, path])
        try #require(made.status == 0, "\(made.stderr)")
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [Int])
        let analyze = try json(try signalpath("analyze", path, "--format", "json"))
        let channels = try #require(((analyze["files"] as? [[String: Any]])?.first ?? analyze)["channels"] as? [[String: Any]])
        #expect(channels.map { $0["clipped_samples"] as? Int } == expected.map { $0 }, "analyze \(channels.map { $0["clipped_samples"] ?? "" }) numpy \(expected)")
        for jobs in ["1", "3"] {
            let table = rows(try signalpath("waveform", path, "--columns", "997", "--jobs", jobs).stdout).dropFirst()
            for (index, name) in ["left", "right"].enumerated() {
                let sum = table.filter { $0[5] == name }.reduce(0) { $0 + Int($1[9])! }
                #expect(sum == expected[index], "\(name) with --jobs \(jobs): \(sum) against \(expected[index])")
            }
        }
        let title = try signalpath("waveform", path, "--format", "plot", "--width", "300", "--height", "12").stdout.split(separator: "\n")[0]
        // Digits in groups of three, as every count for people is written.
        var grouped = String(expected[0] + expected[1])
        for position in stride(from: grouped.count - 3, to: 0, by: -3) { grouped.insert(" ", at: grouped.index(grouped.startIndex, offsetBy: position)) }
        #expect(title.hasSuffix(" · \(grouped) clipped samples"), "\(title)")
    }

    @Test("JSON and NDJSON: columns per channel with conventions; a file that fails is an entry; the exit code is its")
    func jsonOutput() throws {
        let bad = scratch.write("bad.wav", Array("not audio".utf8))
        let result = try signalpath("waveform", clippedSine(), bad, "--format", "json", "--columns", "4")
        #expect(result.status == 65)
        let object = try json(result)
        #expect(object["schema"] as? String == "signalpath.waveform/1")
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 2 && files[1]["error"] != nil)
        let channels = try #require(files[0]["channels"] as? [[String: Any]])
        #expect((channels[0]["max"] as? [Double])?.count == 4 && (files[0]["column_starts"] as? [Int]) == [0, 2000, 4000, 6000, 8000])
        #expect((files[0]["conventions"] as? [String: Any])?["columns"] != nil)
        let ndjson = try signalpath("waveform", clippedSine(), "--format", "ndjson", "--columns", "4")
        #expect(ndjson.status == 0 && ndjson.stdout.split(separator: "\n").count == 1 && ndjson.stdout.contains("\"schema\":\"signalpath.waveform/1\""))
    }

    @Test("the same output for any --jobs, and from standard input as from the file")
    func jobsAndStandardInput() throws {
        let path = sample("stereo-440L-880R-44k1-s16.wav")
        let one = try signalpath("waveform", path, "--columns", "333", "--jobs", "1")
        let three = try signalpath("waveform", path, "--columns", "333", "--jobs", "3")
        #expect(one.status == 0 && one.stdout == three.stdout)
        let piped = try signalpath(["waveform", "-", "--columns", "333"], input: FileManager.default.contents(atPath: path))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == one.stdout)
    }

    @Test("on a terminal (--format plot): lanes per channel, clipped columns marked, the title counting clipped samples")
    func plot() throws {
        let result = try signalpath("waveform", clippedSine(), "--format", "plot", "--width", "46", "--height", "9", "--color", "never")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 9)
        let wide = try signalpath("waveform", clippedSine(), "--format", "plot", "--width", "300", "--height", "9")
        #expect(wide.stdout.hasPrefix(scratch.file("clipped.wav") + " · 0.000 s–1.000 s · 8000 Hz · linear · "), "\(wide.stdout.prefix(200))")
        let count = try #require(Int(wide.stdout.split(separator: "·")[4].split(separator: " ")[0]))
        #expect(wide.stdout.split(separator: "\n")[0].hasSuffix("clipped samples") && count > 10)
        // 40 cells = 80 columns of 100 frames: the last 80 frames clipped are in column 79, the last cell.
        let axis = try #require(lines.first { $0.contains("└") })
        #expect(axis.hasSuffix("×") && axis.filter { $0 == "×" }.count == 1, "\(axis)")
        let stereo = try signalpath("waveform", sample("stereo-440L-880R-44k1-s16.wav"), "--format", "plot", "--width", "40", "--height", "13")
        #expect(stereo.stdout.contains("left") && stereo.stdout.contains("right"))
    }

    @Test("options that change nothing are refused, naming themselves")
    func refusals() throws {
        let path = sample("sine-1k-48k-s16-mono.wav")
        for (arguments, option) in [
            (["--format", "plot", "--columns", "10"], "--columns"), (["--format", "csv", "--scale", "dbfs"], "--scale"),
            (["--format", "plot", "--floor", "-40"], "--floor"), (["--format", "csv", "--floor", "-40"], "--floor"),
            (["--format", "plot", "--scale", "dbfs", "--floor", "3"], "--floor"), (["--format", "csv", "--width", "50"], "--width"),
        ] {
            let result = try signalpath(["waveform", path] + arguments)
            #expect(result.status == 64 && result.stderr.contains(option), "\(arguments): \(result.stderr)")
        }
        // A waveform has no frequency axis and its lanes end at full scale: these are not its options.
        for option in ["--linear", "--ceiling"] {
            let result = try signalpath(["waveform", path, "--format", "plot", option] + (option == "--ceiling" ? ["0"] : []))
            #expect(result.status == 64 && result.stderr.hasPrefix("signalpath: \(option): unknown option of waveform"), "\(result.stderr)")
        }
    }

    @Test("charts: a PNG of --size × --dpi/96 pixels, an SVG that parses as XML, a PDF that pdfinfo reads")
    func chartFiles() throws {
        let input = clippedSine()
        for (name, extra) in [("w.png", ["--dpi", "192"]), ("w.svg", []), ("w.pdf", [])] {
            let result = try signalpath(["waveform", input, "--output", scratch.file(name), "--size", "400x200"] + extra)
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
        let check = try run(
            "/usr/bin/env",
            [
                "python3", "-c", "import sys, xml.etree.ElementTree as E; from PIL import Image; print(Image.open(sys.argv[1]).size); E.parse(sys.argv[2])", scratch.file("w.png"),
                scratch.file("w.svg"),
            ])
        #expect(check.status == 0 && check.stdout == "(800, 400)\n", "\(check.stdout) \(check.stderr)")
        let info = try run("/usr/bin/env", ["pdfinfo", scratch.file("w.pdf")])
        #expect(info.status == 0 && info.stdout.contains("400 x 200 pts"), "\(info.stdout)")
    }
}
