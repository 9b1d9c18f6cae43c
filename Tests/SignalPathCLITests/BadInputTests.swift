import Foundation
import Synchronization
import Testing
import SignalPathTestSupport

@Suite("bad input: nothing crashes, nothing hangs")
struct BadInputTests {
    let scratch = ScratchDirectory("bad-input")

    /// The documented exit codes.
    static let documented: Set<Int32> = [0, 64, 65, 66, 73, 74]

    @Test("every command answers each of 200+ bad inputs with one line and a documented code, or with clean data")
    func corpus() throws {
        let corpus = try BadInputCorpus.make(in: scratch.path)
        // A named pipe that nobody writes to is given up on after AudioFile.pipeWriterTimeout.
        #expect(corpus.count >= 200, "\(corpus.count) inputs")
        let commands: [[String]] = [
            ["info", "--format", "json"], ["analyze", "--format", "json"],
            ["spectrum", "--format", "json", "--fft-size", "1024"], ["spectrogram", "--format", "json", "--fft-size", "256"],
        ]
        let cases = corpus.flatMap { input in commands.map { (input, $0) } }
        let problems = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            let (input, command) = cases[index]
            let label = "\(command[0]) \(input.name)"
            // A limit that catches a hang, not a time: `analyze` on the 1024-channel file costs 13 s
            // of CPU in the debug build the tests run (0.7 s in a release build), and this suite
            // runs beside the others on 2 cores.
            guard let result = try? run(signalpath, command + [input.path], timeout: 90) else {
                problems.withLock { $0.append("\(label): could not run") }
                return
            }
            var found: [String] = []
            // A file cut short is used as far as it goes, with one notice line before anything else.
            var lines = result.stderr.split(separator: "\n").map(String.init)
            if let first = lines.first, HeaderSweepTests.isTruncationNotice(String(first.dropFirst("signalpath: \(input.path): ".count))),
                first.hasPrefix("signalpath: \(input.path): ")
            {
                lines.removeFirst()
            }
            if result.crashed { found.append("crashed (signal \(result.status))") }
            if result.status == -1 { found.append("hung") }
            if !Self.documented.contains(result.status) { found.append("exit \(result.status)") }
            if case .refused(let code) = input.expectation, result.status != code { found.append("exit \(result.status), not \(code)") }
            if result.status == 0 {
                if JSONSerialization.isValidJSONObject((try? JSONSerialization.jsonObject(with: result.stdoutData)) ?? 0) == false {
                    found.append("output is not JSON")
                }
                // Valid JSON cannot hold NaN or infinity, so parsing is the check for numbers.
                if !lines.isEmpty { found.append("stderr on success: \(lines.joined(separator: "\n").prefix(100))") }
            } else if !found.contains("hung") {
                if lines.count != 1 || !lines[0].hasPrefix("signalpath: ") { found.append("stderr is not one line: \(result.stderr.prefix(300))") }
                if lines.first?.contains("\u{1B}") == true { found.append("raw escape in stderr") }
                if !result.stdout.isEmpty {
                    // The JSON document lists the refused file as an entry with its error, and nothing else.
                    let document = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
                    let files = document?["files"] as? [[String: Any]]
                    if files?.count != 1 || files?[0]["error"] == nil || files?[0]["exit_code"] as? Int != Int(result.status) {
                        found.append("output for a refused file: \(result.stdout.prefix(100))")
                    }
                }
            }
            if !found.isEmpty { problems.withLock { $0.append("\(label): " + found.joined(separator: "; ")) } }
        }
        let all = problems.withLock { $0 }
        let report = "\(all.count) problems:\n" + all.prefix(40).joined(separator: "\n")
        #expect(all.isEmpty, "\(report)")
    }

    @Test(
        "a file that shrinks while it is read: a clean error or a result, never a crash or a hang",
        arguments: ["info", "analyze", "events", "spectrum", "spectrogram"])
    func shrinkingFile(command: String) throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: 48_000)
        let path = scratch.write("shrinking-\(command).wav", builder.file(samples: Signals.noise(count: 2 * 48_000 * 120, amplitude: 0.3, seed: 8)))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: signalpath)
        process.arguments = [command, path, "--format", "json"]
        // The JSON can be megabytes: to /dev/null, so that a full pipe cannot stall the process.
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        usleep(30_000)
        truncate(path, 1 << 20)  // 23 MB → 1 MB while it is being read
        let deadline = Date().addingTimeInterval(60 * timeoutScale)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!process.isRunning, "no hang")
        if process.isRunning {
            process.terminate()
            return
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit, "no crash: \(stderr.prefix(300))")
        #expect(Self.documented.contains(process.terminationStatus))
        if process.terminationStatus != 0 {
            #expect(stderr.split(separator: "\n").count == 1 && stderr.hasPrefix("signalpath: \(path): "), "\(stderr.prefix(300))")
        }
    }

    @Test("in a multi-file call the good files are still reported, by every command")
    func goodFilesStillReported() throws {
        let good = sample("sine-1k-48k-s16-mono.wav")
        let bad = scratch.write("bad.wav", Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8))
        for command in ["info", "analyze", "loudness", "events", "spectrum", "spectrogram"] {
            let result = try signalpath([command, good, bad, good, "--format", "json"])
            #expect(result.status == 65, "\(command)")
            let document = try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(command)")
            let files = try #require(document["files"] as? [[String: Any]], "\(command)")
            #expect(files.count == 3, "\(command): both good files reported, and the bad one")
            #expect(files.map { $0["error"] != nil } == [false, true, false], "\(command): the bad file is an entry with its error")
            #expect(files.map { $0["path"] as? String } == [good, bad, good])
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test(
        "malformed ranges, negative sizes and absurd FFT sizes are usage errors (64)",
        arguments: [
            ["--range", "3..1"], ["--range", "abc"], ["--range", "-5s..2s"], ["--duration", "-1"], ["--start", "x"],
            ["--fft-size", "0"], ["--fft-size", "3"], ["--fft-size", "1099511627776"], ["--fft-size", "-4096"],
            ["--overlap", "150"], ["--window", "nonsense"], ["--window-size", "0"],
            // Found by the range fuzzer: an empty window name crashed the parser.
            ["--window", ""], ["--window", ":"], ["--range", ""], ["--range", ".."],
            // …and a time past Int64 frames crashed the conversion to frames (`..` such a time
            // is simply the whole file: ParserRegressionTests).
            ["--start", "99999999999999999999999"],
        ])
    func usageErrors(arguments: [String]) throws {
        for command in ["analyze", "spectrum", "spectrogram"] {
            if command == "analyze" && ["--overlap", "--window-size"].contains(arguments[0]) { continue }
            let result = try signalpath([command, sample("sine-1k-48k-s16-mono.wav")] + arguments)
            #expect(result.status == 64, "\(command) \(arguments): \(result.status) \(result.stderr)")
            #expect(!result.stderr.isEmpty && result.stdout.isEmpty)
        }
    }
}
