import Foundation
import Testing
import SignalPathTestSupport

@Suite("signalpath check")
struct CheckCLITests {
    let scratch = ScratchDirectory("check-cli")

    /// A 1 s stereo 1 kHz sine whose peak is `level` dBFS, as 32-bit float: EBU Tech 3341 (cases 1
    /// and 2) has it read `level` LUFS (every gating block holds the steady tone), and its true peak
    /// is `level` dBTP.
    func sineFile(_ name: String, level: Double, dc: Double = 0) -> String {
        let builder = PCMFileBuilder(container: .wav, encoding: .float32, channels: 2, sampleRate: 48_000)
        return scratch.write(name, builder.file(samples: stereo(sine(1000, dbfs: level, seconds: 1).map { $0 + dc })))
    }

    /// A file that is not usable audio (exit 65).
    var brokenFile: String { scratch.write("broken.wav", Array("RIFF\u{10}\0\0\0WAVEjunkjunkjunk".utf8)) }

    /// The published limits of each profile (EBU R 128 v4.0 and v3.0, ATSC A/85, Apple Podcasts
    /// and Spotify): target, tolerance, the largest true peak that passes (R 128 v4.0's QC reading
    /// adds its ±0.3 dB measurement tolerance to −1 dBTP).
    static let published: [String: (target: Double, tolerance: Double, truePeak: Double)] = [
        "ebu-r128": (-23, 0.2, -0.7), "ebu-r128-production": (-23, 1, -1), "ebu-r128-live": (-23, 1, -1), "ebu-r128-v3": (-23, 0.5, -1),
        "atsc-a85": (-24, 2, -2), "podcast": (-16, 1, -1), "streaming": (-14, 1, -1),
    ]

    /// Real material made once for the suite by Tests/Reference/check_material.py: espeak-ng speech
    /// and fluidsynth music brought to known loudness by a sox gain and read again by ffmpeg's
    /// ebur128, and the music clipped by sox (+12 dB into 16-bit) with its clipping counted by numpy.
    static let madeMaterial: (scratch: ScratchDirectory, json: Data?, failure: String) = {
        let scratch = ScratchDirectory("check-material")
        guard let python = which("python3") else { return (scratch, nil, "python3 is missing: run `make setup`") }
        guard let result = try? run(python, [repositoryRoot + "/Tests/Reference/check_material.py", scratch.file("material")], timeout: 180),
            result.status == 0
        else { return (scratch, nil, "check_material.py failed (it needs espeak-ng, fluidsynth, sox, ffmpeg, mido: `make setup`)") }
        return (scratch, result.stdoutData, "")
    }()

    /// The material's description (Tests/Reference/check_material.py).
    func materialFacts() throws -> [String: Any] {
        let data = try #require(Self.madeMaterial.json, "\(Self.madeMaterial.failure)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A file of the material: its path and ffmpeg's reading of its loudness.
    func material(_ name: String) throws -> (path: String, lufs: Double) {
        let made = try materialFacts()
        let file = try #require((made["files"] as? [String: [String: Any]])?[name], "\(name)")
        return (try #require(file["path"] as? String), try #require(file["ffmpeg_lufs"] as? Double))
    }

    func files(_ result: ProcessResult) throws -> [[String: Any]] {
        try #require(try json(result)["files"] as? [[String: Any]], "\(result.stdout)")
    }

    func rule(_ file: [String: Any], _ name: String) -> [String: Any]? {
        (file["rules"] as? [[String: Any]])?.first { $0["rule"] as? String == name }
    }

    @Test("every profile: a file at its target passes (exit 0), one 3 LU over fails (exit 1), a broken file among them exits 65 with the others still checked")
    func profiles() throws {
        for (name, limits) in Self.published.sorted(by: { $0.key < $1.key }) {
            let passing = sineFile("\(name)-pass.wav", level: limits.target)
            let failing = sineFile("\(name)-fail.wav", level: limits.target + 3)
            let pass = try signalpath("check", "--profile", name, passing, "--format", "json")
            #expect(pass.status == 0, "\(name): \(pass.stderr)")
            let passed = try #require(try files(pass).first)
            #expect(passed["passed"] as? Bool == true && passed["profile"] as? String == name)
            let loudness = try #require(rule(passed, "integrated_loudness"))
            #expect(loudness["min"] as? Double == limits.target - limits.tolerance && loudness["max"] as? Double == limits.target + limits.tolerance, "\(name)")
            #expect(rule(passed, "true_peak")?["max"] as? Double == limits.truePeak, "\(name)")
            #expect(abs((passed["gain_db"] as? Double ?? 99)) <= 0.1, "\(name): at the target, no gain")
            #expect(passed["gain_breaks_true_peak"] as? Bool == false && passed["limiting_db"] as? Double == 0)

            let fail = try signalpath("check", "--profile", name, failing, "--format", "json")
            #expect(fail.status == 1, "\(name): \(fail.stderr)")
            #expect(fail.stderr.isEmpty, "a failed check is not an error message")
            let failed = try #require(try files(fail).first)
            #expect(failed["passed"] as? Bool == false)
            #expect(rule(failed, "integrated_loudness")?["passed"] as? Bool == false && rule(failed, "true_peak")?["passed"] as? Bool == true)
            #expect(abs((failed["gain_db"] as? Double ?? 99) + 3) <= 0.1, "\(name): 3 dB down to the target")

            let mixed = try signalpath("check", "--profile", name, passing, brokenFile, failing, "--format", "json")
            #expect(mixed.status == 65, "\(name): the error's code wins over a failed check")
            #expect(mixed.stderr.split(separator: "\n").count == 1 && mixed.stderr.hasPrefix("signalpath: \(brokenFile): "))
            let entries = try files(mixed)
            #expect(entries.count == 3)
            #expect(entries[0]["passed"] as? Bool == true && entries[2]["passed"] as? Bool == false, "the other files are still checked")
            #expect(entries[1]["exit_code"] as? Int == 65)
        }
    }

    @Test("the true-peak rule: a −23 LUFS sine with one 0.99 sample fails ebu-r128 on its true peak only, and the gain says it needs limiting")
    func truePeakFailure() throws {
        var samples = sine(1000, dbfs: -23, seconds: 1)
        samples[24_000] = 0.99
        let builder = PCMFileBuilder(container: .wav, encoding: .float32, channels: 2, sampleRate: 48_000)
        let path = scratch.write("click.wav", builder.file(samples: stereo(samples)))
        let result = try signalpath("check", "--profile", "ebu-r128", path, "--format", "json")
        #expect(result.status == 1)
        let file = try #require(try files(result).first)
        #expect(rule(file, "integrated_loudness")?["passed"] as? Bool == true)
        let peak = try #require(rule(file, "true_peak"))
        #expect(peak["passed"] as? Bool == false)
        // Never below the sample peak: 20·log10(0.99).
        #expect((peak["measured"] as? Double ?? -99) >= 20 * log10(0.99) - 0.005)
        #expect(file["gain_breaks_true_peak"] as? Bool == true)
    }

    @Test("gain and limiting: sox applies the gain check names, and pyloudnorm and a 16× scipy interpolation read the target and the true peak check predicted")
    func gainAgainstIndependentMeasurement() throws {
        let espeak = try #require(which("espeak-ng"), "espeak-ng is missing: run `make setup`")
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        let speech = scratch.file("speech.wav")
        let made = try run(
            espeak,
            [
                "-w", speech,
                "Delivery checks ask whether a programme meets its loudness target and its true peak limit. This sentence is long enough to give more than ten seconds of speech, with pauses between the phrases.",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        // 48 kHz stereo float, peak-normalised to −20 dBFS: about −36 LUFS, so reaching −16 needs
        // +20 dB, which puts the true peak near 0 dBTP: over podcast's −1.
        let input = scratch.file("speech48.wav")
        let converted = try run(sox, [speech, "-r", "48000", "-c", "2", "-e", "floating-point", input, "gain", "-n", "-20"])
        #expect(converted.status == 0, "\(converted.stderr)")
        let result = try signalpath("check", "--profile", "podcast", input, "--format", "json")
        let file = try #require(try files(result).first)
        let gain = try #require(file["gain_db"] as? Double)
        let predictedPeak = try #require(file["true_peak_after_gain_dbtp"] as? Double)
        let limiting = try #require(file["limiting_db"] as? Double)
        #expect(file["gain_breaks_true_peak"] as? Bool == true)

        let reference = try run(
            try #require(which("python3")), [repositoryRoot + "/Tests/Reference/gain_reference.py", input, String(gain), scratch.file("gained.wav")],
            timeout: 120)
        #expect(reference.status == 0, "\(reference.stderr)")
        let measured = try #require(JSONSerialization.jsonObject(with: reference.stdoutData) as? [String: Double])
        // pyloudnorm reads 0.04–0.09 LU below BS.1770's exact filter (docs/ANALYZE.md).
        #expect(abs(measured["integrated_lufs"]! - -16) <= 0.15, "after the gain: \(measured)")
        #expect(abs(measured["true_peak_dbtp"]! - predictedPeak) <= 0.15, "predicted \(predictedPeak), measured \(measured)")
        #expect(abs(limiting - (measured["true_peak_dbtp"]! - -1)) <= 0.15, "limiting \(limiting), measured \(measured)")
    }

    @Test("rules from the analyze pass: --max-clipped counts the runs of full-scale codes, --max-dc the largest offset, --max-lra the loudness range")
    func analyzeRules() throws {
        // 16-bit: a 1 kHz sine at 1.2 × full scale, clipped to the codes ±32767 / −32768.
        let values = sine(1000, dbfs: 20 * log10(1.2), seconds: 1)
        let codes = values.map { max(-32768, min(32767, ($0 * 32768).rounded())) }
        var expected = 0, run = 0
        for code in codes + [0] {
            if abs(code) >= 32767 {
                run += 1
            } else {
                if run >= 3 { expected += run }
                run = 0
            }
        }
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 48_000)
        let clipped = scratch.write("clipped.wav", builder.file(samples: codes.map { $0 / 32768 }))
        let strict = try signalpath("check", clipped, "--max-clipped", "0", "--format", "json")
        #expect(strict.status == 1)
        let clip = try #require(rule(try files(strict)[0], "clipped_samples"))
        #expect(clip["measured"] as? Double == Double(expected), "expected \(expected) samples in runs of 3 or more")
        #expect(try signalpath("check", clipped, "--max-clipped", String(expected)).status == 0)
        let offset = sineFile("dc.wav", level: -20, dc: 0.02)
        let dc = try signalpath("check", offset, "--max-dc", "1", "--format", "json")
        #expect(dc.status == 1)
        #expect(abs((rule(try files(dc)[0], "dc_offset")?["measured"] as? Double ?? 0) - 2) < 0.01)
        #expect(try signalpath("check", offset, "--max-dc", "3%").status == 0)

        // EBU Tech 3342 case 1, shortened to 4 s + 4 s: −20 then −30 dBFS, a range of 10 ± 1 LU.
        let builder2 = PCMFileBuilder(container: .wav, encoding: .float32, channels: 2, sampleRate: 48_000)
        let steps = scratch.write("steps.wav", builder2.file(samples: stereo(sine(1000, dbfs: -20, seconds: 4) + sine(1000, dbfs: -30, seconds: 4))))
        let lra = try signalpath("check", steps, "--max-lra", "5", "--format", "json")
        #expect(lra.status == 1)
        let range = try #require(rule(try files(lra)[0], "loudness_range")?["measured"] as? Double)
        #expect(abs(range - 10) <= 1, "\(range)")
    }

    @Test("CSV: one row per file and rule; NDJSON: a line per file with the schema; the report names each rule")
    func formats() throws {
        let a = sineFile("a.wav", level: -23), b = sineFile("b.wav", level: -16)
        let csv = try signalpath("check", "--profile", "ebu-r128", a, b, "--max-dc", "1", "--format", "csv")
        #expect(csv.status == 1)
        let rows = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(
            rows.first == [
                "path", "profile", "rule", "measured", "unit", "min", "max", "passed", "file_passed", "gain_db", "limiting_db", "finding", "target_lufs",
                "clipped_samples", "clip_events",
            ])
        #expect(rows.count == 1 + 2 * 3, "\(csv.stdout)")
        #expect(rows.dropFirst().map { $0[2] } == ["integrated_loudness", "true_peak", "dc_offset", "integrated_loudness", "true_peak", "dc_offset"])
        #expect(rows[1][0] == a && rows[1][8] == "true" && rows[4][8] == "false" && rows[4][7] == "false")

        let ndjson = try signalpath("check", "--profile", "ebu-r128", a, b, "--format", "ndjson")
        let lines = try ndjson.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(lines.count == 3 && lines.allSatisfy { $0["schema"] as? String == "signalpath.check/1" })
        #expect(lines[2]["summary"] as? [String: Int] == ["files": 2, "passed": 1, "failed": 1, "unreadable": 0], "the last line: the summary")
        #expect(
            Set(lines[0].keys).isSuperset(of: [
                "path", "profile", "profile_document", "passed", "target_lufs", "gain_db", "limiting_db", "rules", "conventions", "integrated_lufs",
                "true_peak_dbtp", "clipped_samples", "clip_events",
            ]))

        // Piped without --format: the report (check's view is a report), a block per file.
        let report = try signalpath("check", "--profile", "ebu-r128", a, b)
        #expect(report.stdout.hasPrefix(a + " · ebu-r128 · passed\n"))
        #expect(report.stdout.contains("\n\n" + b + " · ebu-r128 · FAILED\n"))
        #expect(report.stdout.contains("integrated loudness") && report.stdout.contains("gain to target"))
    }

    @Test("the report uses ✓ and ✗ where the locale is UTF-8, and plain ASCII words where it is not")
    func asciiFallback() throws {
        // −16 LUFS: its loudness fails ebu-r128 and its true peak passes, so both marks show.
        let b = sineFile("b.wav", level: -16)
        var environment = ProcessInfo.processInfo.environment
        for key in ["LC_ALL", "LC_CTYPE", "LANG"] { environment[key] = nil }
        environment["LANG"] = "C"
        let ascii = try run(signalpath, ["check", "--profile", "ebu-r128", b], environment: environment)
        #expect(ascii.status == 1)
        #expect(ascii.stdout.utf8.allSatisfy { $0 < 0x80 || "·".utf8.contains($0) }, "\(ascii.stdout)")
        #expect(ascii.stdout.contains("pass") && ascii.stdout.contains("FAIL") && ascii.stdout.contains("+-"))
        environment["LC_ALL"] = "C.UTF-8"
        let utf8 = try run(signalpath, ["check", "--profile", "ebu-r128", b], environment: environment)
        #expect(utf8.stdout.contains("✓ pass") && utf8.stdout.contains("✗ FAIL") && utf8.stdout.contains("±"))
    }

    @Test("--max-silence: a 1.5 s gap of digital silence between two tones is the longest silence, by the events pass")
    func longestSilence() throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .float32, channels: 2, sampleRate: 48_000)
        let tone = sine(1000, dbfs: -20, seconds: 1)
        let path = scratch.write("gap.wav", builder.file(samples: stereo(tone + [Double](repeating: 0, count: 72_000) + tone)))
        let failing = try signalpath("check", "--max-silence", "1", path, "--format", "json")
        #expect(failing.status == 1, "\(failing.stderr)")
        let file = try #require(try files(failing).first)
        let silence = try #require(rule(file, "longest_silence"))
        #expect(abs((silence["measured"] as? Double ?? 0) - 1.5) <= 0.001 && silence["passed"] as? Bool == false, "\(silence)")
        #expect(try signalpath("check", "--max-silence", "2", path).status == 0)
    }

    @Test(
        "ebu-r128 follows EBU R 128 v4.0's QC tolerance: speech and music at -23.35 LUFS (ffmpeg) fail -23 ± 0.2, at -23.1 pass; ebu-r128-v3 (±0.5) and ebu-r128-production (±1.0) pass both"
    )
    func ebuR128Version4() throws {
        for material in ["speech", "music"] {
            for (name, level) in [("-23.35", -23.35), ("-23.1", -23.1)] {
                let file = try self.material(material + name)
                #expect(abs(file.lufs - level) <= 0.005, "the material is at its level by ffmpeg: \(file)")
                let result = try signalpath("check", "--profile", "ebu-r128", file.path, "--format", "json")
                let checked = try #require(try files(result).first)
                let measured = try #require(checked["integrated_lufs"] as? Double)
                #expect(abs(measured - file.lufs) <= 0.03, "signalpath \(measured), ffmpeg \(file.lufs)")
                let fails = level < -23.2
                #expect(result.status == (fails ? 1 : 0) && checked["passed"] as? Bool == !fails, "\(material) at \(level): \(result.stdout)")
                let loudness = try #require(rule(checked, "integrated_loudness"))
                #expect(loudness["min"] as? Double == -23.2 && loudness["max"] as? Double == -22.8)
                #expect((checked["profile_document"] as? String)?.hasPrefix("EBU R 128 v4.0 (August 2020)") == true)
                for wider in ["ebu-r128-v3", "ebu-r128-production", "ebu-r128-live"] {
                    #expect(try signalpath("check", "--profile", wider, file.path).status == 0, "\(wider), \(material) at \(level)")
                }
            }
        }
    }

    @Test(
        "the true-peak measurement tolerance of R 128 v4.0 (±0.3 dB): a sine whose true peak is -0.85 dBTP (scipy) passes ebu-r128 and fails ebu-r128-production and an explicit --max-true-peak -1"
    )
    func truePeakTolerance() throws {
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        let sine = scratch.file("sine-085.wav")
        let made = try run(sox, ["-n", "-r", "48000", "-c", "2", "-e", "floating-point", sine, "synth", "2", "sine", "997", "gain", "-n", "-0.85"])
        #expect(made.status == 0, "\(made.stderr)")
        let reference = try run(
            try #require(which("python3")), [repositoryRoot + "/Tests/Reference/gain_reference.py", sine, "0", scratch.file("sine-copy.wav")], timeout: 120)
        let peak = try #require((try JSONSerialization.jsonObject(with: reference.stdoutData) as? [String: Double])?["true_peak_dbtp"], "\(reference.stderr)")
        #expect(abs(peak - -0.85) <= 0.02, "scipy's 16x true peak \(peak)")
        let qc = try #require(try files(try signalpath("check", "--profile", "ebu-r128", sine, "--format", "json")).first)
        #expect(rule(qc, "true_peak")?["passed"] as? Bool == true && rule(qc, "true_peak")?["max"] as? Double == -0.7)
        for strict in [["--profile", "ebu-r128-production"], ["--profile", "ebu-r128", "--max-true-peak", "-1"]] {
            let checked = try #require(try files(try signalpath(["check", sine, "--format", "json"] + strict)).first)
            #expect(rule(checked, "true_peak")?["passed"] as? Bool == false && rule(checked, "true_peak")?["max"] as? Double == -1, "\(strict)")
        }
        let report = try signalpath("check", "--profile", "ebu-r128", sine)
        #expect(report.stdout.contains("(-1.0 dBTP + 0.3 dB measurement tolerance)"), "\(report.stdout)")
    }

    @Test(
        "podcast judges a mono file at -19 LUFS: mono speech at -19 (ffmpeg) passes, the same speech in stereo at -19 fails the stereo -16, mono at -16.5 fails; every output shows the target used"
    )
    func podcastMono() throws {
        let mono = try material("speech-mono-19"), stereo = try material("speech-stereo-19"), loud = try material("speech-mono-16.5")
        for file in [mono, stereo] { #expect(abs(file.lufs - -19) <= 0.005, "\(file)") }
        #expect(abs(loud.lufs - -16.5) <= 0.005, "\(loud)")
        let result = try signalpath("check", "--profile", "podcast", mono.path, stereo.path, loud.path, "--format", "json")
        #expect(result.status == 1)
        let checked = try files(result)
        #expect(checked.map { $0["passed"] as? Bool } == [true, false, false])
        #expect(checked.map { $0["target_lufs"] as? Double } == [-19, -16, -19])
        #expect(checked.map { $0["channels"] as? Int } == [1, 2, 1])
        #expect(rule(checked[0], "integrated_loudness")?["min"] as? Double == -20 && rule(checked[0], "integrated_loudness")?["max"] as? Double == -18)
        #expect(abs((checked[0]["gain_db"] as? Double ?? 99) - 0) <= 0.05, "a mono file at -19 needs no gain")
        let csv = try signalpath("check", "--profile", "podcast", mono.path, stereo.path, "--format", "csv")
        let rows = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = try #require(rows.first?.firstIndex(of: "target_lufs"))
        #expect(rows.dropFirst().map { $0[column] } == ["-19", "-19", "-16", "-16"], "\(csv.stdout)")
        let report = try signalpath("check", "--profile", "podcast", mono.path)
        #expect(report.stdout.contains("-19.0 ± 1.0 LUFS") && report.stdout.contains("(mono target)"), "\(report.stdout)")
        // An explicit target is every file's target, mono ones too.
        let overridden = try #require(try files(try signalpath("check", "--profile", "podcast", "--target-lufs", "-16", loud.path, "--format", "json")).first)
        #expect(overridden["target_lufs"] as? Double == -16 && rule(overridden, "integrated_loudness")?["passed"] as? Bool == true)
    }

    @Test(
        "clipping: music clipped by sox (+12 dB into 16-bit) has the clipped samples and clip events numpy counts (runs of 3 or more at full scale, runs under 10 ms apart one event), events lists as many; the advice says gain does not undo it"
    )
    func clippingReported() throws {
        let made = try materialFacts()
        let clipped = try #require(made["clipped"] as? [String: Any])
        let path = try #require(clipped["path"] as? String)
        let samples = try #require(clipped["samples"] as? Int), events = try #require(clipped["events"] as? Int)
        #expect(samples > 10_000 && events > 10 && (clipped["runs"] as? Int ?? 0) > events, "sox clipped the music in bursts: \(clipped)")
        let result = try signalpath("check", "--profile", "ebu-r128", path, "--format", "json")
        let checked = try #require(try files(result).first)
        #expect(checked["clipped_samples"] as? Int == samples && checked["clip_events"] as? Int == events, "numpy: \(clipped)")
        // Turned down to the target it would pass the true-peak rule; the clipping stays.
        #expect(checked["gain_breaks_true_peak"] as? Bool == false && rule(checked, "true_peak")?["passed"] as? Bool == false)
        let listed = try signalpath("events", path, "--format", "csv")
        #expect(listed.stdout.split(separator: "\n").filter { $0.split(separator: ",").dropFirst().first == "clipping" }.count == events)
        let report = try signalpath("check", "--profile", "ebu-r128", path)
        #expect(report.stdout.contains("gain does not undo clipping"), "\(report.stdout)")
        #expect(report.stdout.contains("clipping") && report.stdout.contains(" events\n"))
        let csv = try signalpath("check", "--profile", "ebu-r128", path, "--format", "csv")
        #expect(csv.stdout.split(separator: "\n").dropFirst().allSatisfy { $0.hasSuffix(",\(samples),\(events)") }, "\(csv.stdout)")
        // Clean material: no clipping, and no word about it.
        let clean = try signalpath("check", "--profile", "ebu-r128", try material("music-23.1").path)
        let cleanLines = clean.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        #expect(cleanLines.contains(["clipping", "none"]) && !clean.stdout.contains("does not undo"), "\(clean.stdout)")
    }

    @Test("several files end with \"N of M passed, F failed, K unreadable\" on standard output, the counts in JSON and as NDJSON's last line; one file has no closing line")
    func closingLine() throws {
        let pass1 = try material("speech-23.1").path, fail = try material("speech-23.35").path, pass2 = try material("music-23.1").path
        let names = [pass1, fail, brokenFile, pass2]
        let report = try signalpath(["check", "--profile", "ebu-r128"] + names)
        #expect(report.status == 65, "the unreadable file's code wins")
        #expect(report.stdout.hasSuffix("\n\n2 of 4 passed, 1 failed, 1 unreadable\n"), "\(report.stdout)")
        #expect(!report.stderr.contains("passed"), "the closing line is part of the report")
        let document = try json(try signalpath(["check", "--profile", "ebu-r128", "--format", "json"] + names))
        #expect(document["summary"] as? [String: Int] == ["files": 4, "passed": 2, "failed": 1, "unreadable": 1])
        let ndjson = try signalpath(["check", "--profile", "ebu-r128", "--format", "ndjson"] + names)
        let last = try #require(ndjson.stdout.split(separator: "\n").last.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(last?["summary"] as? [String: Int] == ["files": 4, "passed": 2, "failed": 1, "unreadable": 1])
        let single = try signalpath("check", "--profile", "ebu-r128", fail)
        #expect(single.status == 1 && !single.stdout.contains(" of 1 passed"))
    }

    @Test("refused (exit 64): no rule, a target without a tolerance, an unknown profile")
    func refusals() throws {
        let a = sineFile("a.wav", level: -23)
        for (arguments, says) in [
            ([a], "--profile"), ([a, "--target-lufs", "-18"], "--tolerance"),
            ([a, "--profile", "ebu"], "ebu-r128"),
        ] {
            let result = try signalpath(["check"] + arguments)
            #expect(result.status == 64 && result.stderr.contains(says), "\(arguments): \(result.stderr)")
        }
        // A target of one's own with a tolerance needs no profile.
        #expect(try signalpath("check", a, "--target-lufs", "-23", "--tolerance", "0.2").status == 0)
    }
}
