import Foundation
import Testing
import SignalPathTestSupport

/// Material made once for the suite: ≥ 20 s of espeak-ng speech and of a music-like mix (sox: a
/// tone with a slow swell over pink noise with its own swell), each at 44.1 and 48 kHz, mono (the
/// debug build that tests run measures ~5 s of stereo per CPU second), with
/// ffmpeg's ebur128 values for each (one ffmpeg run per file).
private struct Fixtures {
    struct Reference {
        var path: String
        /// ffmpeg's M and S by the end of their window (its pts_time + 0.1 s), in tenths of a second.
        var values: [Int: (momentary: Double, shortTerm: Double)]
    }

    let references: [Reference]
    let speech48: String

    static let shared: Result<Fixtures, any Error> = Result { try Fixtures() }
    /// Made once for the process, so it outlives every test; removed at exit.
    private static let scratch: ScratchDirectory = {
        atexit { try? FileManager.default.removeItem(atPath: Fixtures.scratch.path) }
        return ScratchDirectory("loudness-cli-fixtures")
    }()

    init() throws {
        let scratch = Self.scratch
        func tool(_ name: String) throws -> String {
            guard let path = which(name) else { throw SetupError(message: "\(name) is missing: run `make setup`") }
            return path
        }
        let sox = try tool("sox"), espeak = try tool("espeak-ng"), ffmpeg = try tool("ffmpeg")
        func make(_ tool: String, _ arguments: [String]) throws {
            let result = try run(tool, arguments, timeout: 120)
            guard result.status == 0 else { throw SetupError(message: "\(tool) \(arguments.joined(separator: " ")): \(result.stderr)") }
        }
        let text = """
            Loudness is measured over time, block after block. A broadcast engineer checks the delivery of a \
            programme, and an archivist checks a transfer from tape. The quick brown fox jumps over the lazy dog, \
            again and again, while the meter moves. Some words are short. Others, like measurement and \
            recommendation, take their time. Then the speaker pauses, and starts once more, a little louder now.
            """
        let voice = scratch.file("voice.wav")
        try make(espeak, ["-s", "150", "-w", voice, text])
        var paths: [String] = []
        for rate in [44_100, 48_000] {
            let speech = scratch.file("speech-\(rate).wav")
            try make(sox, [voice, "-r", String(rate), "-b", "24", speech])
            let tones = scratch.file("tones-\(rate).wav"), noise = scratch.file("noise-\(rate).wav"), music = scratch.file("music-\(rate).wav")
            try make(sox, ["-n", "-r", String(rate), "-c", "1", "-b", "24", tones, "synth", "20.5", "sine", "277.18", "tremolo", "0.3", "90", "gain", "-8"])
            try make(sox, ["-n", "-r", String(rate), "-c", "1", "-b", "24", noise, "synth", "20.5", "pinknoise", "tremolo", "0.11", "100", "gain", "-12"])
            try make(sox, ["-m", tones, noise, music])
            paths += [speech, music]
        }
        speech48 = paths[2]
        references = try paths.map { path in
            let log = path + ".ebur128.txt"
            try make(ffmpeg, ["-nostdin", "-v", "error", "-i", path, "-af", "ebur128=metadata=1,ametadata=mode=print:file=\(log)", "-f", "null", "-"])
            return Reference(path: path, values: try Self.parse(String(contentsOfFile: log, encoding: .utf8)))
        }
    }

    struct SetupError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// `frame:N pts:P pts_time:T` lines, each followed by its `lavfi.r128.M=` and `.S=` lines.
    static func parse(_ log: String) throws -> [Int: (momentary: Double, shortTerm: Double)] {
        var values: [Int: (momentary: Double, shortTerm: Double)] = [:]
        var end: Int?
        var momentary: Double?
        for line in log.split(separator: "\n") {
            if let range = line.range(of: "pts_time:") {
                end = Int((Double(line[range.upperBound...].trimmingCharacters(in: .whitespaces))! * 10).rounded()) + 1
            } else if line.hasPrefix("lavfi.r128.M=") {
                momentary = Double(line.dropFirst("lavfi.r128.M=".count))
            } else if line.hasPrefix("lavfi.r128.S="), let end, let momentary {
                values[end] = (momentary, Double(line.dropFirst("lavfi.r128.S=".count))!)
            }
        }
        return values
    }
}

@Suite("signalpath loudness")
struct LoudnessCLITests {
    let scratch = ScratchDirectory("loudness-cli")

    /// CSV rows as (time, M, S), nil for an empty field.
    func rows(_ csv: String) -> [(time: Double, momentary: Double?, shortTerm: Double?)] {
        csv.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return (Double(fields[0])!, Double(fields[1]), Double(fields[2]))
        }
    }

    @Test("M and S every 100 ms equal ffmpeg ebur128's (metadata=1) within 0.1 LU: espeak-ng speech and a music-like mix, 44.1 and 48 kHz, ≥ 20 s")
    func agreesWithFFmpeg() throws {
        let fixtures = try Fixtures.shared.get()
        #expect(fixtures.references.count == 4)
        for reference in fixtures.references {
            let result = try signalpath("loudness", reference.path, "--format", "csv")
            #expect(result.status == 0, "\(result.stderr)")
            let points = rows(result.stdout)
            #expect(points.count >= 200 && points.count == reference.values.count, "\(reference.path): \(points.count) points, ffmpeg \(reference.values.count)")
            var compared = 0, worst = 0.0
            for point in points {
                let tenths = Int((point.time * 10).rounded())
                guard let expected = reference.values[tenths] else {
                    Issue.record("\(reference.path): ffmpeg has no value ending at \(point.time) s")
                    continue
                }
                // ffmpeg reads -120.691 before a full window; below the gate its values are ours' nulls.
                for (ours, theirs, name) in [(point.momentary, expected.momentary, "M"), (point.shortTerm, expected.shortTerm, "S")] {
                    if let ours {
                        worst = max(worst, abs(ours - theirs))
                        compared += 1
                        #expect(abs(ours - theirs) <= 0.1, "\(reference.path) \(name) at \(point.time) s: \(ours), ffmpeg \(theirs)")
                    } else {
                        #expect(theirs <= -69.9, "\(reference.path) \(name) at \(point.time) s: empty, ffmpeg \(theirs)")
                    }
                }
            }
            #expect(compared >= 350, "\(reference.path): \(compared) values compared, worst \(worst) LU")
        }
    }

    @Test("integrated, LRA, maximum momentary and short-term, and the true peak equal analyze's on the same file")
    func agreesWithAnalyze() throws {
        let path = try Fixtures.shared.get().speech48
        let loudness = try signalpath("loudness", path, "--format", "json")
        let analyze = try signalpath("analyze", path, "--format", "json")
        #expect(loudness.status == 0 && analyze.status == 0)
        let ours = try #require((JSONSerialization.jsonObject(with: loudness.stdoutData) as? [String: Any])?["files"] as? [[String: Any]]).first!
        let theirs = try #require(
            ((JSONSerialization.jsonObject(with: analyze.stdoutData) as? [String: Any])?["files"] as? [[String: Any]])?.first?["loudness"] as? [String: Any])
        for key in ["integrated_lufs", "range_lu", "momentary_max_lufs", "short_term_max_lufs", "true_peak_dbtp"] {
            let value = try #require(ours[key] as? Double, "\(key)")
            #expect(value == theirs[key] as? Double, "\(key): loudness \(value), analyze \(theirs[key] ?? "nil")")
        }
    }

    @Test("the same CSV with 1 and 3 workers (≥ 20 s of mono at 48 kHz is two chunks or more)")
    func workers() throws {
        let path = try Fixtures.shared.get().speech48
        let one = try signalpath("loudness", path, "--jobs", "1")
        let three = try signalpath("loudness", path, "--jobs", "3")
        #expect(one.status == 0 && one.stdout == three.stdout && one.stdout.count > 1000)
    }

    @Test("CSV: header, times every 100 ms at the window's end, empty before the first full window; TSV; --interval; a path column for several files")
    func csvShape() throws {
        let path = sample("sine-1k-48k-s16-mono.wav")  // 2 s
        let csv = try signalpath("loudness", path)
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout.hasPrefix("time_s,momentary_lufs,short_term_lufs\n0.100,,\n0.200,,\n0.300,,\n0.400,-"))
        let points = rows(csv.stdout)
        #expect(points.count == 20 && points.last!.time == 2.0 && points.allSatisfy { $0.shortTerm == nil })
        let tsv = try signalpath("loudness", path, "--format", "tsv")
        #expect(tsv.stdout.hasPrefix("time_s\tmomentary_lufs\tshort_term_lufs\n0.100\t\t\n"))
        let coarse = try signalpath("loudness", path, "--interval", "500ms")
        #expect(rows(coarse.stdout).map(\.time) == [0.5, 1, 1.5, 2])
        #expect(rows(coarse.stdout)[1].momentary == points[9].momentary, "the same window, every fifth")
        let two = try signalpath("loudness", path, path)
        let lines = two.stdout.split(separator: "\n")
        #expect(lines.first == "path,time_s,momentary_lufs,short_term_lufs" && lines.count == 41 && lines[1].hasPrefix(path + ",0.100"))
    }

    @Test("JSON signalpath.loudness/1 with the documented keys and a null-bearing series; NDJSON one line per point, then the summary")
    func jsonShape() throws {
        let path = sample("sine-1k-48k-s16-mono.wav")
        let json = try signalpath("loudness", path, "--format", "json")
        let document = try #require(JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect(document["schema"] as? String == "signalpath.loudness/1")
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        for key in [
            "integrated_lufs", "range_lu", "momentary_max_lufs", "momentary_max_time_s", "short_term_max_lufs", "short_term_max_time_s", "true_peak_dbtp",
            "true_peak_time_s", "conventions", "series",
        ] {
            #expect(file.keys.contains(key), "\(key)")
        }
        #expect(file["short_term_max_lufs"] is NSNull && file["range_lu"] is NSNull, "2 s hold no 3 s window")
        let series = try #require(file["series"] as? [[String: Any]])
        #expect(series.count == 20 && series[0]["momentary_lufs"] is NSNull && series[3]["momentary_lufs"] is Double)
        #expect(series[3]["time_s"] as? Double == 0.4)
        let ndjson = try signalpath("loudness", path, "--format", "ndjson")
        let lines = ndjson.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 21 && lines.allSatisfy { $0?["schema"] as? String == "signalpath.loudness/1" })
        #expect(lines[3]?["time_s"] as? Double == 0.4 && lines[20]?["integrated_lufs"] is Double && lines[20]?["series"] == nil)
    }

    @Test("a broken file among good ones: one line on standard error, exit 65, the others still measured (CSV, JSON entry)")
    func brokenFile() throws {
        let good = sample("sine-1k-48k-s16-mono.wav")
        let broken = scratch.write("broken.wav", Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEjunk".utf8))
        let csv = try signalpath("loudness", good, broken, good)
        #expect(csv.status == 65 && csv.stderr.split(separator: "\n").count == 1 && csv.stderr.hasPrefix("signalpath: \(broken): "))
        #expect(csv.stdout.split(separator: "\n").count == 41)
        let json = try signalpath("loudness", broken, good, "--format", "json")
        let files = try #require((JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["files"] as? [[String: Any]])
        #expect(json.status == 65 && files.count == 2 && files[0]["error"] is String && files[1]["series"] is [Any])
    }

    @Test("the chart: a plot with the summary under it, --target drawn; SVG; --range moves the time axis")
    func chart() throws {
        let path = try Fixtures.shared.get().speech48
        let plot = try signalpath(
            "loudness", path, "--format", "plot", "--width", "72", "--height", "20", "--target", "-23", "--color", "never", "--range", "0..10")
        #expect(plot.status == 0, "\(plot.stderr)")
        let lines = plot.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 20 && lines.contains { $0.hasPrefix("Integrated ") } && lines.contains { $0.contains("╌") })
        // Under a minute the axis reads seconds, as every time for people does (UnitFormat.time).
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("0 s ") && $0.hasSuffix(" 10 s") })
        #expect(lines.contains { $0.contains("⠁") || $0.contains("⠉") || $0.contains("⠒") || $0.contains("⠤") || $0.contains("⣀") }, "braille traces")
        let ranged = try signalpath("loudness", path, "--format", "plot", "--range", "1:00..")
        #expect(ranged.status != 0 && ranged.stdout.isEmpty, "a start past the end is an error")
        let later = try signalpath("loudness", path, "--format", "plot", "--width", "72", "--height", "20", "--range", "10..16", "--color", "never")
        let axis = later.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("10 s ") }
        #expect(axis?.hasSuffix(" 16 s") == true && axis?.contains(" 0 s") == false, "\(later.stdout)")
        let svg = try signalpath("loudness", path, "--range", "0..4", "--output", scratch.file("chart.svg"))
        let document = try String(contentsOfFile: scratch.file("chart.svg"), encoding: .utf8)
        #expect(svg.status == 0 && document.hasPrefix("<?xml") && document.contains("<svg"))
    }
}
