import Foundation
import Testing
import SignalPathTestSupport

@Suite("signalpath spectrum")
struct SpectrumCLITests {
    @Test("piped, it prints RFC 4180 CSV with a header, and the tone is where it should be")
    func csv() throws {
        let result = try signalpath("spectrum", sample("sine-1k-48k-s16-mono.wav"), "--range", "0.5..1.5")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(lines.first == "frequency_hz,mono_dbfs")
        #expect(lines.count == 1 + 2049)
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let loudest = try #require(rows.max { Double($0[1]) ?? -999 < Double($1[1]) ?? -999 })
        #expect(abs(Double(loudest[0])! - 1000) < 12, "the loudest bin is next to 1 kHz")
        #expect(rows.allSatisfy { $0.count == 2 && Double($0[0]) != nil })
    }

    @Test("--format json parses (python3 -m json.tool) and states every convention")
    func json() throws {
        let result = try signalpath("spectrum", sample("stereo-440L-880R-44k1-s16.wav"), "--format", "json", "--peaks", "2")
        #expect(result.status == 0, "\(result.stderr)")
        let tool = try run(try #require(which("python3")), ["-m", "json.tool"], input: result.stdoutData)
        #expect(tool.status == 0, "json.tool: \(tool.stderr)")
        let document = try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(document["schema"] as? String == "signalpath.spectrum/1")
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        #expect(file["fft_size"] as? Int == 4096 && file["window"] as? String == "hann" && file["overlap"] as? Double == 0.5)
        #expect(file["sample_rate"] as? Int == 44_100 && file["channels"] as? [String] == ["left", "right"])
        #expect(abs((file["bin_width_hz"] as? Double ?? 0) - 44_100.0 / 4096) < 1e-9)
        #expect(abs((file["enbw_hz"] as? Double ?? 0) - 1.5 * 44_100 / 4096) < 1e-6)
        #expect(file["scale"] as? String == "dbfs" && (file["reference"] as? String)?.contains("full-scale sine") == true)
        #expect(file["segments_averaged"] as? Int == (44_100 - 4096) / 2048 + 1)
        let range = try #require(file["range"] as? [String: Any])
        #expect(range["start_s"] as? Double == 0)
        let bins = try #require(file["bins"] as? [[String: Any]])
        #expect(bins.count == 2049 && bins[0].keys.sorted() == ["frequency_hz", "left", "right"])
        let peaks = try #require(file["peaks"] as? [[String: Any]])
        #expect(peaks.count == 4)
        let left = try #require(peaks.first { $0["channel"] as? String == "left" })
        #expect(abs((left["frequency_hz"] as? Double ?? 0) - 440) < 0.05 && left["note"] as? String == "A4")
        #expect(abs((left["level_dbfs"] as? Double ?? 0) - -6.02) < 0.02)
    }

    @Test("FFTW wisdom: saved in $XDG_CACHE_HOME/signalpath, reused unchanged, changes no result; a damaged or unwritable cache changes nothing; built-in sizes need none")
    func fftwWisdom() throws {
        let scratch = ScratchDirectory("wisdom")
        let cache = scratch.file("cache")
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cache
        // 4096 points (and analyze's 8192) are planned from the wisdom compiled in: nothing to save.
        let builtIn = try run(signalpath, ["analyze", sample("pink-noise-seed1-48k-s16.wav"), "--format", "json"], environment: environment)
        #expect(builtIn.status == 0, "\(builtIn.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cache + "/signalpath/fftw-wisdom"), "the built-in wisdom does not fit this FFTW: make wisdom")
        // 6000 points (2⁴·3·5³) are not among the built-in sizes: planned here, and saved.
        let arguments = ["spectrum", sample("pink-noise-seed1-48k-s16.wav"), "--fft-size", "6000", "--format", "csv"]
        let first = try run(signalpath, arguments, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let wisdom = cache + "/signalpath/fftw-wisdom"
        let saved = try String(contentsOfFile: wisdom, encoding: .utf8)
        #expect(saved.hasPrefix("(fftw-3") && saved.contains("fftwf_wisdom"))
        let written = try FileManager.default.attributesOfItem(atPath: wisdom)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.05)
        let second = try run(signalpath, arguments, environment: environment)
        #expect(second.stdout == first.stdout)
        #expect(try FileManager.default.attributesOfItem(atPath: wisdom)[.modificationDate] as? Date == written, "planned from wisdom: nothing new to save")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/signalpath") == ["fftw-wisdom"], "no temporary file left")

        try Data("(fftw-3.3.10 fftwf_wisdom #x0 (garbage".utf8).write(to: URL(fileURLWithPath: wisdom))
        let damaged = try run(signalpath, arguments, environment: environment)
        #expect(damaged.status == 0 && damaged.stdout == first.stdout && damaged.stderr.isEmpty)
        environment["XDG_CACHE_HOME"] = sample("pink-noise-seed1-48k-s16.wav")  // a file: no directory can be made there
        let unwritable = try run(signalpath, arguments, environment: environment)
        #expect(unwritable.status == 0 && unwritable.stdout == first.stdout && unwritable.stderr.isEmpty)
    }

    @Test("peaks, bands and several files as CSV; NDJSON one line per file")
    func tables() throws {
        let peaks = try signalpath("spectrum", sample("stereo-440L-880R-44k1-s16.wav"), "--peaks", "1", "--format", "csv")
        #expect(peaks.stdout.hasPrefix("channel,rank,frequency_hz,level_dbfs,note,cents\nleft,1,440.000,-6.02,A4,0.0\nright,1,880.000,-6.02,A5,0.0\n"))
        let bands = try signalpath("spectrum", sample("pink-noise-seed1-48k-s16.wav"), "--bands", "1/1", "--format", "tsv")
        let bandLines = bands.stdout.split(separator: "\n")
        #expect(bandLines.first == "frequency_hz\tnominal_hz\tlower_hz\tupper_hz\tmono_dbfs")
        #expect(bandLines.count == 1 + 11)
        let two = try signalpath("spectrum", sample("sine-1k-48k-s16-mono.wav"), sample("tone-step-500-1k-48k-s16.wav"), "--bands", "1/1")
        let twoLines = two.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(twoLines.first == "path,frequency_hz,nominal_hz,lower_hz,upper_hz,mono_dbfs" && twoLines.count == 1 + 2 * 11)
        let ndjson = try signalpath("spectrum", sample("sine-1k-48k-s16-mono.wav"), sample("chord-a-major-44k1-stereo.ogg"), "--format", "ndjson")
        #expect(ndjson.stdout.split(separator: "\n").count == 2)
    }

    @Test(
        "--format text on a terminal: a summary with parameters and peaks, not a wall of numbers",
        .enabled(if: which("script") != nil, "needs script(1) for a pseudo-terminal"))
    func terminalSummary() throws {
        let command = "\(signalpath) spectrum \(sample("tone-step-500-1k-48k-s16.wav")) --range 2.5s.. --format text"
        let result = try run(which("script")!, ["-qec", command, "/dev/null"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("hann window, 4096-point FFT, 11.72 Hz bins"))
        #expect(result.stdout.contains("peaks (mono)") && result.stdout.contains("1000.0 Hz   -6.02 dBFS  B5 +21 cents"))
        #expect(!result.stdout.contains("frequency_hz"))
    }

    @Test("bad ranges and options are usage errors (64) with one clear line")
    func errors() throws {
        let outside = try signalpath("spectrum", sample("sine-1k-48k-s16-mono.wav"), "--range", "5s..6s")
        #expect(outside.status == 64 && outside.stdout.isEmpty)
        #expect(outside.stderr == "signalpath: \(sample("sine-1k-48k-s16-mono.wav")): range 5.000 s .. 6.000 s starts after the end of the file (it lasts 2.000 s)\n")
        for arguments in [
            ["--range", "3..1"], ["--range", "abc"], ["--fft-size", "0"], ["--fft-size", "3"], ["--fft-size", "1099511627776"],
            ["--window", "triangle"], ["--overlap", "99"], ["--channel", "0"], ["--bands", "1/5"], ["--start", "1", "--range", "1..2"],
        ] {
            let result = try run(signalpath, ["spectrum", sample("sine-1k-48k-s16-mono.wav")] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let channel = try signalpath("spectrum", sample("sine-1k-48k-s16-mono.wav"), "--channel", "right")
        #expect(channel.status == 64 && channel.stderr.contains("has 1 channel; there is no channel 2"))
        let mixed = try signalpath("spectrum", "/nonexistent.wav", sample("sine-1k-48k-s16-mono.wav"), "--bands", "1/1")
        #expect(mixed.status == 66 && mixed.stdout.components(separatedBy: "\n").count > 10)
    }

    @Test("standard input is analysed as it streams in")
    func standardInput() throws {
        let wav = try Data(contentsOf: URL(fileURLWithPath: sample("tone-step-500-1k-48k-s16.wav")))
        let result = try signalpath("spectrum", "-", "--start", "2.5", "--peaks", "1", "--format", "csv", input: wav)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("mono,1,1000.000,-6.02,B5,21.3"))
    }
}
