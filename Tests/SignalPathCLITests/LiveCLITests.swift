import Foundation
import Testing
import SignalPathTestSupport

/// Interleaved 16-bit stereo noise, seeded: the bytes `record --input - --raw s16le` reads.
func pcm16(frames: Int, seed: UInt64) -> Data {
    var generator = SeededGenerator(seed: seed)
    var data = Data(capacity: frames * 4)
    for _ in 0..<frames * 2 {
        let value = Int16.random(in: -20_000...20_000, using: &generator)
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    return data
}

/// The frames of a file as libsndfile (through python's soundfile) reads them, as raw 16-bit.
func framesOf(_ path: String) throws -> (frames: Int, data: Data)? {
    let script = "import soundfile as sf, sys; d, r = sf.read(sys.argv[1], dtype='int16'); sys.stdout.buffer.write(d.tobytes())"
    let result = try run(try #require(which("python3")), ["-c", script, path])
    guard result.status == 0 else { return nil }
    return (result.stdoutData.count / 4, result.stdoutData)
}

@Suite("signalpath replay and record", .serialized)
struct LiveCLITests {
    let scratch = ScratchDirectory("live-cli")

    /// A stereo WAV of `seconds` (sox).
    func tone(_ name: String, seconds: Int) throws -> String {
        let path = scratch.file(name)
        let made = try run(try #require(which("sox")), ["-n", "-r", "48000", "-c", "2", "-b", "16", path, "synth", "\(seconds)", "sine", "440", "sine", "880"])
        #expect(made.status == 0)
        return path
    }

    func drive(_ plan: String, _ arguments: [String], columns: Int = 100, rows: Int = 30) throws -> [String: Any] {
        let result = try run(
            try #require(which("python3")),
            [repositoryRoot + "/Tests/Reference/pty_drive.py", "\(columns)", "\(rows)", plan, "--", signalpath] + arguments,
            timeout: 60)
        return try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stderr)")
    }

    // The logic of the full-screen loops (pause, seeking, speed, views, resizes, the time axis,
    // key hints) is tested with a fake terminal and clock in SignalPathKitTests/Live; these tests
    // run the real binary on a real pseudo-terminal: what is drawn, that keys arrive, and that
    // the terminal comes back as it was.

    @Test("full-screen replay on a real terminal: spectrum, spectrogram, a meter per channel and the keys; q quits and the terminal is restored")
    func fullScreenReplay() throws {
        let path = try tone("forty.wav", seconds: 40)
        let report = try drive(#"[[1.5,null,"running"],[1.6,"q",null]]"#, ["replay", path, "--from", "10"])
        #expect(report["status"] as? Int == 0)
        let screen = try #require((report["snapshots"] as? [String: [String]])?["running"])
        #expect(screen.contains { $0.contains("spectrum at the play head") } && screen.contains { $0.contains("spectrogram") })
        #expect(screen.contains { $0.hasPrefix("left") && $0.contains("dBFS") }, "a meter per channel")
        #expect(screen.last { !$0.isEmpty }?.hasSuffix("q quit") == true, "the way out is shown at 100 columns: \(screen.last ?? "")")
        for key in ["entered_alternate", "left_alternate", "cursor_shown", "echo_restored", "canonical_restored"] {
            #expect(report[key] as? Bool == true, "\(key)")
        }
    }

    @Test("full-screen record on a real terminal (ALSA's null device): q finishes the file, prints the summary and restores the terminal")
    func fullScreenRecord() throws {
        let output = scratch.file("screen.wav")
        let report = try drive(#"[[1.0,null,"recording"],[1.2,"q",null]]"#, ["record", output, "--device", "null", "--channels", "1", "--rate", "16000"])
        #expect(report["status"] as? Int == 0)
        let screen = try #require((report["snapshots"] as? [String: [String]])?["recording"])
        #expect(screen.contains { $0.hasPrefix("● REC") && $0.hasSuffix("q or Ctrl-C stops and finishes the file") }, "\(screen)")
        #expect((report["raw_tail"] as? String)?.contains("stopped by the q key") == true, "the summary on standard error")
        for key in ["entered_alternate", "left_alternate", "cursor_shown", "echo_restored", "canonical_restored"] {
            #expect(report[key] as? Bool == true, "\(key)")
        }
        let info = try signalpath("info", output)
        #expect(info.status == 0 && info.stdout.contains("16000 Hz"), "a finished file: \(info.stderr)")
    }

    @Test("the terminal is restored on SIGTERM and on Ctrl-C too", arguments: ["SIGTERM", "\u{03}"])
    func restoredOnSignal(stop: String) throws {
        let path = try tone("restore.wav", seconds: 20)
        let plan = "[[1.0,\(String(data: try JSONSerialization.data(withJSONObject: [stop], options: .fragmentsAllowed), encoding: .utf8)!.dropFirst().dropLast()),null]]"
        let report = try drive(plan, ["replay", path])
        #expect(report["status"] as? Int != nil, "exits by itself")
        for key in ["left_alternate", "cursor_shown", "echo_restored", "canonical_restored"] {
            #expect(report[key] as? Bool == true, "\(key) after \(stop == "SIGTERM" ? "SIGTERM" : "Ctrl-C")")
        }
    }

    // The schedule of frames (one per period, none twice, the clock slept to each) is checked with a
    // manual clock in SignalPathKitTests/Live/ReplayRunnerTests; here only that the real clock paces.
    @Test("piped replay on the real clock: NDJSON frames from 8 s to 10 s take no less than those 2 s; --no-realtime writes every CSV row")
    func ndjsonPacing() throws {
        let path = try tone("ten.wav", seconds: 10)
        let start = Date()
        let paced = try signalpath("replay", path, "--from", "8", "--bands", "1/3")
        let elapsed = Date().timeIntervalSince(start)
        #expect(paced.status == 0, "\(paced.stderr)")
        let lines = paced.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let times = lines.compactMap { $0?["time_s"] as? Double }
        #expect(times.count == lines.count && times.count >= 55, "\(times.count) frames")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(times.first == 8 && times.last == 10)
        #expect(elapsed > 1.8, "2 s of audio took \(elapsed) s: paced, not as fast as possible")
        let first = try #require(lines.first ?? nil)
        let channels = try #require(first["channels"] as? [[String: Any]])
        #expect(channels.count == 2 && channels[0]["rms_dbfs"] as? Double != nil && channels[0]["peak_dbfs"] as? Double != nil)
        let spectrum = try #require(first["spectrum"] as? [String: Any])
        #expect((spectrum["bands_hz"] as? [Double])?.contains(1000) == true && (spectrum["levels_dbfs"] as? [[Any]])?.count == 2)
        let fast = try signalpath("replay", path, "--no-realtime", "--format", "csv")
        #expect(fast.status == 0)
        let rows = fast.stdout.split(whereSeparator: \.isNewline)
        #expect(rows[0].hasPrefix("time_s,momentary_lufs,short_term_lufs,left_rms_dbfs,left_peak_dbfs,right_rms_dbfs,right_peak_dbfs,left_0hz") && rows.count == 1 + 301)
    }

    @Test("record from standard input stores exactly the samples it was given; an existing file is not replaced")
    func recordExact() throws {
        let input = pcm16(frames: 48_000 * 2 + 123, seed: 9)
        let path = scratch.file("exact.wav")
        let result = try signalpath(["record", path, "--input", "-", "--raw", "s16le", "--rate", "48000", "--channels", "2"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("recorded 2.003 s") && result.stderr.contains("stopped by end of input"))
        let stored = try #require(try framesOf(path))
        #expect(stored.frames == 48_000 * 2 + 123 && stored.data == input)
        #expect(result.stdout.split(separator: "\n").count >= 30, "NDJSON frames when piped")
        let again = try signalpath(["record", path, "--input", "-", "--raw", "s16le"], input: input)
        #expect(again.status == 64 && again.stderr.contains("--force"))
        #expect(try framesOf(path)?.data == input, "untouched")
        let f32 = scratch.file("float.caf")
        let floats = Data((0..<4800).flatMap { index -> [UInt8] in withUnsafeBytes(of: Float(sin(Double(index) / 10) * 0.5).bitPattern.littleEndian) { Array($0) } })
        let floatRun = try signalpath(["record", f32, "--input", "-", "--raw", "f32le", "--channels", "1", "--rate", "8000"], input: floats)
        #expect(floatRun.status == 0, "\(floatRun.stderr)")
        let floatsBack = try run(
            try #require(which("python3")), ["-c", "import soundfile as sf, sys; d, r = sf.read(sys.argv[1], dtype='float32'); sys.stdout.buffer.write(d.tobytes())", f32])
        #expect(floatsBack.stdoutData == floats)
    }

    /// Starts `record` fed by a producer that writes 16-bit stereo at real-time pace; returns the
    /// shell's pid file and the producer's log of frames written.
    func slowRecording(_ output: String, seconds: Int, silentStart: Double = 0) throws -> Process {
        let producer =
            "import sys, time\nrate = 48000\ntime.sleep(\(silentStart))\nstart = time.monotonic()\nblock = bytes(4 * rate // 20)\n"
            + "for i in range(\(seconds) * 20):\n    sys.stdout.buffer.write(block); sys.stdout.buffer.flush()\n"
            + "    open(sys.argv[1], 'w').write(str((i + 1) * rate // 20))\n    time.sleep(max(0, start + (i + 1) / 20 - time.monotonic()))\n"
        let script = scratch.write("producer-\(UUID().uuidString).py", Array(producer.utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec python3 \(script) \(output).written 2>/dev/null | exec \(signalpath) record \(output) --input - --raw s16le > /dev/null 2> \(output).err"]
        try process.run()
        return process
    }

    /// 20 moments in 0.2 … 2.8 s, seeded: kill -9 can land anywhere in a block or a header update.
    static let killMoments: [Double] = {
        var generator = SeededGenerator(seed: 99)
        return (0..<20).map { _ in (Double.random(in: 0.2..<2.8, using: &generator) * 100).rounded() / 100 }
    }()

    @Test(
        "kill -9 while recording, at 20 random moments, leaves a file that opens and holds all but at most the last second",
        arguments: killMoments)
    func killNine(after seconds: Double) throws {
        let output = scratch.file("killed-\(seconds).wav")
        let shell = try slowRecording(output, seconds: 3)
        Thread.sleep(forTimeInterval: seconds)
        let kill = try run("/usr/bin/pkill", ["-9", "-f", "record \(output)"])
        #expect(kill.status == 0)
        shell.waitUntilExit()
        let written = Int((try? String(contentsOfFile: output + ".written", encoding: .utf8)) ?? "0") ?? 0
        let stored = try #require(try framesOf(output), "the file opens")
        #expect(stored.frames >= written - 48_000 && stored.frames <= written, "\(stored.frames) frames of \(written) written")
        let info = try signalpath("info", output)
        #expect(info.status == 0, "signalpath opens it too: \(info.stderr)")
    }

    @Test("SIGINT and SIGTERM finish the file and print a summary", arguments: ["INT", "TERM"])
    func interrupt(signal: String) throws {
        let output = scratch.file("interrupted-\(signal).wav")
        let shell = try slowRecording(output, seconds: 5)
        Thread.sleep(forTimeInterval: 1.2)
        _ = try run("/usr/bin/pkill", ["-\(signal)", "-f", "record \(output)"])
        shell.waitUntilExit()
        let stderr = try String(contentsOfFile: output + ".err", encoding: .utf8)
        #expect(stderr.contains("stopped by SIG\(signal)") && stderr.contains("recorded"), "\(stderr)")
        let info = try signalpath("info", output, "--format", "json")
        let file = try #require(((try JSONSerialization.jsonObject(with: info.stdoutData) as? [String: Any])?["files"] as? [[String: Any]])?.first)
        #expect(file["container"] as? String == "wav" || file["container"] as? String == "wavex", "finished as plain WAV: \(file["container"] ?? "")")
        // Everything the summary says was recorded is in the file (how much arrived in 1.2 s
        // depends on how loaded the machine is).
        let summary = try #require(stderr.firstMatch(of: /recorded [0-9.]+ s \(([0-9 ]+) frames/), "\(stderr)")
        let recorded = try #require(Int(summary.1.filter(\.isNumber)))
        #expect(recorded > 0 && file["frames"] as? Int == recorded, "\(recorded) frames recorded, \(file["frames"] ?? "?") in the file")
    }

    @Test("a file size limit (ulimit -f) gives a clear error, exit 74, and a valid file of what was written")
    func fileSizeLimit() throws {
        let output = scratch.file("limited.wav")
        let input = scratch.write("limit-input.raw", [UInt8](pcm16(frames: 48_000 * 3, seed: 4)))
        let result = try run("/bin/bash", ["-c", "ulimit -f 200; exec \(signalpath) record \(output) --input - --raw s16le < \(input)"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("signalpath: \(output): write failed: File too large"))
        let stored = try #require(try framesOf(output), "the file opens")
        #expect(stored.frames > 40_000 && stored.frames * 4 < 200 * 1024)
        #expect(stored.data == Data(try Data(contentsOf: URL(fileURLWithPath: input)).prefix(stored.frames * 4)), "the frames kept are the input's")
    }

    @Test("ALSA: record and replay --play run through alsa-lib's null device")
    func alsaNullDevice() throws {
        let output = scratch.file("null.wav")
        let recorded = try signalpath("record", output, "--device", "null", "--duration", "0.5", "--channels", "1", "--rate", "16000")
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let info = try signalpath("info", output)
        #expect(info.stdout.contains("0.500 s (8 000 frames)"), "\(info.stdout)")
        let path = try tone("play.wav", seconds: 2)
        let played = try signalpath("replay", path, "--play", "--device", "null", "--from", "1")
        #expect(played.status == 0 && played.stdout.split(separator: "\n").count >= 25, "\(played.stderr)")
        let missing = try signalpath("record", scratch.file("none.wav"), "--device", "no-such-device", "--duration", "0.1")
        #expect(missing.status == 66 && missing.stderr.hasPrefix("signalpath: ALSA device 'no-such-device': cannot open"))
    }

    /// With a silent start, replay opens the file while it holds its header and no frame yet.
    @Test("--follow keeps up with a file that signalpath record is writing, from before its first frame", arguments: [0.0, 1.5])
    func follow(silentStart: Double) throws {
        let output = scratch.file("growing-\(silentStart).wav")
        let shell = try slowRecording(output, seconds: 3, silentStart: silentStart)
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: output) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if silentStart == 0 { Thread.sleep(forTimeInterval: 0.5) }
        let replay = try run(signalpath, ["replay", output, "--follow"], timeout: 30)
        shell.waitUntilExit()
        let times = replay.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["time_s"] as? Double }
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(times.count > 40 && (times.last ?? 0) > 2.8, "reached \(times.last ?? 0) s of a 3 s recording")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }
}
