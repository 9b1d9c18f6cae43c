import Foundation
import Testing
import SignalPathTestSupport

@Suite("signalpath analyze")
struct AnalyzeCLITests {
    let scratch = ScratchDirectory("analyze-cli")

    @Test("integrated loudness agrees with pyloudnorm and with ffmpeg ebur128 (10 s or more) within 0.1 LU on varied material")
    func loudnessAgreesWithReferences() throws {
        let directory = scratch.file("reference")
        let script = repositoryRoot + "/Tests/Reference/loudness_reference.py"
        let made = try run(try #require(which("python3")), [script, directory], timeout: 300)
        #expect(made.status == 0, "\(made.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/reference.json"))
        let references = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(references.count >= 8)
        let paths = references.map { directory + "/" + ($0["file"] as! String) }
        let result = try signalpath(["analyze", "--format", "json"] + paths)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.count == references.count)
        var ffmpegCompared = 0
        for (reference, file) in zip(references, files) {
            let name = reference["file"] as! String
            let measured = try #require((file["loudness"] as? [String: Any])?["integrated_lufs"] as? Double, "\(name)")
            let pyloudnorm = try #require(reference["pyloudnorm_lufs"] as? Double)
            #expect(abs(measured - pyloudnorm) <= 0.1, "\(name): signalpath \(measured), pyloudnorm \(pyloudnorm)")
            if let ffmpeg = reference["ffmpeg_lufs"] as? Double {
                #expect(abs(measured - ffmpeg) <= 0.1, "\(name): signalpath \(measured), ffmpeg \(ffmpeg)")
                ffmpegCompared += 1
            }
        }
        #expect(ffmpegCompared >= 5)
    }

    @Test("JSON has the documented keys; CSV has one row per channel; text has sections")
    func formats() throws {
        let path = sample("stereo-440L-880R-44k1-s16.wav")
        let json = try signalpath("analyze", path, "--format", "json")
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect(document["schema"] as? String == "signalpath.analyze/1")
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        let format = try #require(file["format"] as? [String: Any])
        #expect(format["sample_rate"] as? Int == 44_100 && format["channels"] as? Int == 2 && format["frames"] as? Int != nil)
        #expect(format["duration_s"] as? Double != nil)
        let channels = try #require(file["channels"] as? [[String: Any]])
        for key in ["index", "peak_dbfs", "true_peak_dbtp", "rms_dbfs", "crest_db", "dc_offset", "clipped_samples"] {
            #expect(channels.allSatisfy { $0[key] != nil }, "channels[].\(key)")
        }
        let loudness = try #require(file["loudness"] as? [String: Any])
        for key in ["integrated_lufs", "range_lu", "momentary_max_lufs", "short_term_max_lufs", "true_peak_dbtp"] {
            #expect(loudness[key] != nil, "loudness.\(key)")
        }
        let tones = try #require(file["tones"] as? [[String: Any]])
        let frequencies = tones.prefix(2).compactMap { $0["frequency_hz"] as? Double }.sorted()
        #expect(frequencies.count == 2 && abs(frequencies[0] - 440) < 0.1 && abs(frequencies[1] - 880) < 0.1)
        #expect(tones.first?["note"] != nil && tones.first?["cents"] != nil && tones.first?["level_dbfs"] != nil)
        let leftTone = try #require(((channels[0]["tones"] as? [[String: Any]])?.first)?["frequency_hz"] as? Double)
        #expect(abs(leftTone - 440) < 0.1)
        #expect(file.keys.contains("distortion"))
        let spectral = try #require(file["spectral"] as? [String: Any])
        #expect(Set(spectral.keys).isSuperset(of: ["centroid_hz", "rolloff_hz", "flatness", "bandwidth_hz"]))
        let conventions = try #require(file["conventions"] as? [String: Any])
        #expect(conventions["rms_reference"] as? String == "square")
        let spectrum = try #require(conventions["spectrum"] as? [String: Any])
        #expect(spectrum["fft_size"] as? Int == 8192 && spectrum["overlap"] as? Double == 0.5 && spectrum["bin_width_hz"] != nil)

        let csv = try signalpath("analyze", path, "--format", "csv")
        let rows = csv.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(rows.count == 3 && rows[0].hasPrefix("path,channel,name,sample_rate,duration_s,peak_dbfs"))

        let text = try signalpath("analyze", path, "--format", "text")
        for section in ["Levels", "Loudness (EBU R128)", "Tones", "Spectrum", "RMS: full-scale square wave"] {
            #expect(text.stdout.contains(section), "text: \(section)")
        }
        #expect(text.stdout.contains("440.0 Hz") && text.stdout.contains("A4"))
    }

    @Test("a bad file among good ones: one line on stderr, the others reported, exit 65")
    func badFileAmongGood() throws {
        let bad = scratch.write("bad.wav", Array("RIFF....WAVEjunk".utf8))
        let result = try signalpath("analyze", sample("sine-1k-48k-s16-mono.wav"), bad, sample("tone-a4-48k.opus"), "--format", "ndjson")
        #expect(result.status == 65)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.hasPrefix(#"{"schema":"signalpath.analyze/1","path":"#) })
        #expect(lines.count == 3 && lines[1].contains(#""error":"#) && lines[1].contains(#""exit_code":65"#), "the bad file is a line of its own")
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 1 && errors[0].hasPrefix("signalpath: \(bad): "))
    }

    @Test(
        "a stream of many chunks, measured by 1, 2 or 3 workers while its one reader reads on, gives the file's analysis exactly",
        arguments: [PCMFileBuilder.Encoding.signed24, .signed16])
    func streamedChunksInParallel(encoding: PCMFileBuilder.Encoding) throws {
        // 16-bit: the chunks go from the stream's buffer into the workers' rows, each starting with
        // the frames the one before it ended with; 24-bit: through a window of Floats.
        // 12 s of stereo: ~2 M samples, several chunks of ~0.5 M, with a tone and noise so every
        // measure (levels, loudness gating, true peak, spectrum, stereo image) has work to do.
        let rate = 48_000, seconds = 12.0
        let tone = sine(997, dbfs: -12, seconds: seconds, sampleRate: rate)
        let noise = Signals.noise(count: tone.count * 2, amplitude: 0.05, seed: 31)
        var samples = noise
        for index in samples.indices { samples[index] += tone[index / 2] * (index % 2 == 0 ? 1 : 0.5) }
        let builder = PCMFileBuilder(container: .wav, encoding: encoding, channels: 2, sampleRate: rate)
        let path = scratch.write("long-\(encoding).wav", builder.file(samples: samples))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // What may differ between a file and a stream: the name, and the length a stream does not declare.
        func measures(_ json: String) throws -> String {
            var text = json.replacingOccurrences(of: path, with: "-")
            for key in ["frames", "duration_s"] {
                text = text.replacingOccurrences(of: #""\#(key)"\s*:\s*[0-9.e+null]+"#, with: "\"\(key)\": _", options: .regularExpression)
            }
            return text
        }
        let fromFile = try signalpath("analyze", path, "--format", "json", "--jobs", "1")
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        for jobs in ["1", "2", "3"] {
            let fromPipe = try signalpath(["analyze", "-", "--format", "json", "--jobs", jobs], input: bytes)
            #expect(fromPipe.status == 0, "\(fromPipe.stderr)")
            #expect(try measures(fromPipe.stdout) == measures(fromFile.stdout), "--jobs \(jobs)")
        }
    }

    @Test("standard input analyses like the file; options are validated")
    func standardInputAndValidation() throws {
        let path = sample("tone-step-500-1k-48k-s16.wav")
        let fromFile = try signalpath("analyze", path, "--format", "csv")
        let fromPipe = try signalpath(["analyze", "-", "--format", "csv"], input: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(fromPipe.status == 0, "\(fromPipe.stderr)")
        let fields = { (text: String) in text.components(separatedBy: "\n")[1].split(separator: ",", omittingEmptySubsequences: false).dropFirst() }
        #expect(fields(fromPipe.stdout) == fields(fromFile.stdout))
        let bad = try signalpath("analyze", path, "--silence-threshold", "5")
        #expect(bad.status == 64 && bad.stderr.contains("--silence-threshold"))
    }

    @Test("reading a pipe, it widens the pipe's buffer to 1 MiB (the kernel reports it to the writer), and the result is the file's")
    func widensPipe() throws {
        let path = sample("tone-step-500-1k-48k-s16.wav")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let getPipeSize: Int32 = 1024 + 8  // F_GETPIPE_SZ
        let input = Pipe(), output = Pipe()
        let writer = input.fileHandleForWriting.fileDescriptor
        let before = fcntl(writer, getPipeSize)
        #expect(before == 65_536, "Linux's default pipe buffer")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: signalpath)
        process.arguments = ["analyze", "-", "--format", "csv"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The header first; the size is set when the stream is opened, before the samples are read.
        try input.fileHandleForWriting.write(contentsOf: bytes.prefix(44))
        var widened = before
        for _ in 0..<500 where widened == before {
            Thread.sleep(forTimeInterval: 0.01)
            widened = fcntl(writer, getPipeSize)
        }
        #expect(widened == 1 << 20, "pipe buffer \(widened) (fs.pipe-max-size is 1 MiB by default)")
        try input.fileHandleForWriting.write(contentsOf: bytes.dropFirst(44))
        try input.fileHandleForWriting.close()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fromFile = try signalpath("analyze", path, "--format", "csv")
        let fields = { (text: String) in text.components(separatedBy: "\n")[1].split(separator: ",", omittingEmptySubsequences: false).dropFirst() }
        #expect(process.terminationStatus == 0)
        #expect(fields(String(decoding: result, as: UTF8.self)) == fields(fromFile.stdout))
    }

    @Test(
        "espeak-ng speech copied to the right channel 3.2737 and -0.4183 samples late (numpy's exact shift, 16-bit): the stereo delay reads so to the fourth decimal in JSON, CSV and text alike"
    )
    func fractionalDelayToTheFourthDecimal() throws {
        let espeak = try #require(which("espeak-ng"), "espeak-ng is missing: run `make setup`")
        let speech = scratch.file("delay-speech.wav")
        let spoken = try run(espeak, ["-w", speech, "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background."])
        try #require(spoken.status == 0, "\(spoken.stderr)")
        for (delay, printed) in [(3.2737, "3.2737"), (-0.4183, "-0.4183")] {
            let pair = scratch.file("delay\(printed).wav")
            let made = try run(try #require(which("python3")), [repositoryRoot + "/Tests/Reference/fractional_delay.py", speech, printed, pair])
            try #require(made.status == 0, "\(made.stderr)")
            let document = try json(try signalpath("analyze", pair, "--format", "json"))
            let stereo = try #require((document["files"] as? [[String: Any]])?.first?["stereo"] as? [String: Any])
            let read = try #require(stereo["delay_samples"] as? Double)
            #expect(abs(read - delay) < 1e-9, "read \(read) for \(delay)")
            let milliseconds = try #require(stereo["delay_ms"] as? Double)
            #expect(abs(milliseconds - (delay * 1000 / 22_050 * 1e6).rounded() / 1e6) < 1e-12, "\(milliseconds)")
            let csv = try signalpath("analyze", pair, "--format", "csv").stdout.split(whereSeparator: \.isNewline)
            let header = try #require(csv.first).split(separator: ",", omittingEmptySubsequences: false)
            let column = try #require(header.firstIndex(of: "stereo_delay_samples"))
            #expect(csv.dropFirst().first?.split(separator: ",", omittingEmptySubsequences: false)[column] == Substring(printed), "\(csv)")
            let text = try signalpath("analyze", pair).stdout
            #expect(text.contains("\(printed) samples"), "\(text)")
        }
    }
}
