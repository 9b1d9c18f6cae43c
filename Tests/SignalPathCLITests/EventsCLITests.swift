import Foundation
import Testing
import SignalPathTestSupport

@Suite("signalpath events")
struct EventsCLITests {
    let scratch = ScratchDirectory("events-cli")

    /// espeak-ng speech (22.05 kHz, 16-bit) with, put in at known samples: 0.8 s of digital
    /// silence from 2.0 s, a 5-sample clipped run at frame 30 007, then 3 s of noise.
    func speechWithEvents() throws -> String {
        let speech = scratch.file("speech.wav"), path = scratch.file("speech-events.wav")
        let espeak = try #require(which("espeak-ng"), "espeak-ng is missing: run `make setup`")
        let made = try run(espeak, ["-s", "150", "-w", speech, "Archivists check transfers for dropouts and clipping, one file after another."])
        try #require(made.status == 0, "\(made.stderr)")
        let script = """
            import sys, numpy as np, soundfile as sf
            x, r = sf.read(sys.argv[1], dtype='int16')
            x = x.astype(np.int32)
            x[int(2.0 * r):int(2.8 * r)] = 0
            x[30007:30012] = 32767
            noise = np.random.default_rng(5).integers(-3000, 3000, 3 * r)
            sf.write(sys.argv[2], np.concatenate([x, noise]).astype(np.int16), r, subtype='PCM_16')
            """
        let python = try run(try #require(which("python3")), ["-c", script, speech, path])
        try #require(python.status == 0, "\(python.stderr)")
        return path
    }

    @Test("silences equal ffmpeg silencedetect's to 10 ms; the inserted clipping is found to the sample")
    func againstSilenceDetect() throws {
        let path = try speechWithEvents()
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let detected = try run(ffmpeg, ["-hide_banner", "-nostats", "-i", path, "-af", "silencedetect=noise=-60dB:d=0.5", "-f", "null", "-"])
        func values(_ key: String) -> [Double] {
            detected.stderr.split(separator: "\n").compactMap { line in
                guard let range = line.range(of: key + ": ") else { return nil }
                return Double(line[range.upperBound...].split(separator: " ")[0])
            }
        }
        let starts = values("silence_start"), ends = values("silence_end")
        #expect(!starts.isEmpty && starts.contains { abs($0 - 2.0) < 0.01 }, "ffmpeg: \(detected.stderr)")
        let result = try signalpath("events", path, "--format", "json")
        #expect(result.status == 0, "\(result.stderr)")
        let file = try #require((try json(result)["files"] as? [[String: Any]])?.first)
        let events = try #require(file["events"] as? [[String: Any]])
        let silences = events.filter { $0["type"] as? String == "silence" }
        #expect(silences.count == starts.count, "signalpath: \(silences); ffmpeg: \(starts) \(ends)")
        for (silence, start) in zip(silences, starts) { #expect(abs((silence["start_s"] as! Double) - start) <= 0.01) }
        for (silence, end) in zip(silences, ends) { #expect(abs((silence["end_s"] as! Double) - end) <= 0.01) }
        #expect(silences.allSatisfy { $0["channel"] as? String == "all" })
        let clipping = events.filter { $0["type"] as? String == "clipping" }
        #expect(clipping.count == 1)
        if let clip = clipping.first {
            #expect(abs((clip["start_s"] as! Double) * 22_050 - 30_007) < 0.01 && abs((clip["end_s"] as! Double) * 22_050 - 30_012) < 0.01, "\(clip)")
            #expect(clip["channel"] as? String == "mono" && (clip["detail"] as? String)?.hasPrefix("5 full-scale samples") == true)
        }
        let conventions = try #require(file["conventions"] as? [String: Any])
        #expect(conventions["silence_threshold_dbfs"] as? Double == -60 && conventions["dropout"] is String)
    }

    /// Real recorded speech: the nine voice prompts alsa-utils installs (48 kHz, one voice saying
    /// "Front Center" …), one after another. Its quiet parts hold the room's noise, as recordings do.
    func recordedSpeech() throws -> String {
        let prompts = try FileManager.default.contentsOfDirectory(atPath: "/usr/share/sounds/alsa").filter { $0.hasSuffix(".wav") && $0 != "Noise.wav" }.sorted()
        try #require(prompts.count >= 8, "alsa-utils' voice prompts are missing: run `make setup`")
        let path = scratch.file("recorded.wav")
        let script = """
            import sys, numpy as np, soundfile as sf
            parts = [sf.read(p, dtype='float32')[0] for p in sys.argv[2:]]
            sf.write(sys.argv[1], np.concatenate(parts), 48000, subtype='FLOAT')
            """
        let python = try run(try #require(which("python3")), ["-c", script, path] + prompts.map { "/usr/share/sounds/alsa/" + $0 })
        try #require(python.status == 0, "\(python.stderr)")
        return path
    }

    func eventList(_ path: String) throws -> [[String: Any]] {
        let result = try signalpath("events", path, "--format", "json")
        try #require(result.status == 0, "\(result.stderr)")
        let file = try #require((try json(result)["files"] as? [[String: Any]])?.first)
        return try #require(file["events"] as? [[String: Any]])
    }

    @Test("recorded speech: nothing but pauses found; gaps, a held value, falls and an offset put into it found where they are")
    func recordedSpeechEvents() throws {
        let clean = try recordedSpeech()
        let found = try eventList(clean).filter { $0["type"] as? String != "silence" }
        #expect(found.isEmpty, "\(found)")
        // Put in at seeded places where the 10 ms on both sides is sound (≥ −40 dBFS RMS, the
        // rule's premise), 0.3 s apart: six gaps of zero (1–150 ms) and a 20 ms run of one
        // value, to the sample; three 60 dB falls (5–100 ms) where the 1 ms levels of the speech
        // under them and 10 ms around stay within 15 dB of the level before (a fall below
        // "the sound around" needs sound around that holds its level), to 1 ms; +2 % DC over 4 s away from them.
        let path = scratch.file("recorded-events.wav")
        let script = """
            import sys, json, numpy as np, soundfile as sf
            x, r = sf.read(sys.argv[1], dtype='float64')
            rng = np.random.default_rng(14)
            f = r // 100
            level = lambda a: 10 * np.log10(np.mean(a ** 2) + 1e-30)
            placed = []
            dc = (int(5.0 * r), int(9.0 * r))
            def free(s, e): return all(e + 0.3 * r < a or s > b + 0.3 * r for a, b, _ in placed + [dc + ('dc',)])
            def sound(s, e): return level(x[s - f:s]) >= -40 and level(x[e:e + f]) >= -40
            def steady(s, e):
                ref = level(x[s - f:s])
                return all(abs(level(x[k:k + r // 1000]) - ref) <= 15 for k in range(s - f, e + f, r // 1000))
            want = [('zero', rng.uniform(0.001, 0.150)) for _ in range(6)] + [('held', 0.020)] + [('fall', rng.uniform(0.005, 0.100)) for _ in range(3)]
            for kind, seconds in want:
                for attempt in range(20000):
                    n = int(seconds * r); s = int(rng.integers(f + 1, len(x) - n - f - 1)); e = s + n
                    if free(s, e) and sound(s, e) and (kind != 'fall' or steady(s, e)): break
                else: sys.exit('no place for ' + kind)
                placed.append((s, e, kind))
            y = x.copy()
            for s, e, kind in placed:
                if kind == 'zero': y[s:e] = 0
                if kind == 'held': y[s:e] = 0.01
                if kind == 'fall': y[s:e] *= 1e-3
            y[dc[0]:dc[1]] += 0.02
            sf.write(sys.argv[2], y.astype(np.float32), r, subtype='FLOAT')
            print(json.dumps({'rate': r, 'placed': placed, 'dc': dc}))
            """
        let python = try run(try #require(which("python3")), ["-c", script, clean, path])
        try #require(python.status == 0, "\(python.stderr)")
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any])
        let rate = try #require(truth["rate"] as? Double)
        let placed = try #require(truth["placed"] as? [[Any]])
        let events = try eventList(path)
        let dropouts = events.filter { $0["type"] as? String == "dropout" }.map { ($0["start_s"] as! Double * rate, $0["end_s"] as! Double * rate) }
        for entry in placed {
            let start = Double(entry[0] as! Int), end = Double(entry[1] as! Int), kind = entry[2] as! String
            let tolerance = kind == "fall" ? rate / 1000 : 0.5
            #expect(dropouts.contains { abs($0.0 - start) <= tolerance && abs($0.1 - end) <= tolerance }, "\(kind) \(start)..<\(end) not in \(dropouts)")
        }
        #expect(dropouts.count == placed.count, "\(dropouts)")
        let dc = try #require(truth["dc"] as? [Int])
        let offsets = events.filter { $0["type"] as? String == "dc_offset" }
        #expect(offsets.count == 1, "\(offsets)")
        if let span = offsets.first {
            #expect(abs(span["start_s"] as! Double - Double(dc[0]) / rate) <= 0.1 && abs(span["end_s"] as! Double - Double(dc[1]) / rate) <= 0.1, "\(span)")
        }
    }

    /// The gap corpus (Tests/Reference/gap_corpus.py): fluidsynth music and recorded speech in 16
    /// and 24 bits, with gaps of digital zero, of dither at the format's last bits and of the
    /// programme 60 dB down, 1 ms to 1.5 s long, at seeded places with sound around them.
    @Test("every gap inside sound is one row of the right kind, starting and ending within 1 ms; programme without gaps gives none")
    func gapsOfEveryLength() throws {
        let corpus = scratch.file("gaps")
        let made = try run(try #require(which("python3")), ["\(repositoryRoot)/Tests/Reference/gap_corpus.py", "--out", corpus], timeout: 300)
        try #require(made.status == 0, "\(made.stderr)")
        let truth = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: corpus + "/truth.json"))) as? [String: Any])
        let files = try #require(truth["files"] as? [[String: Any]])
        var gapsChecked = 0
        var lengths = Set<Int>()
        for file in files {
            let name = try #require(file["file"] as? String), rate = try #require(file["rate"] as? Double)
            let gaps = try #require(file["gaps"] as? [[String: Any]])
            var events = try eventList(corpus + "/" + name)
            for gap in gaps {
                let start = Double(gap["start"] as! Int) / rate, end = Double(gap["end"] as! Int) / rate
                let expected = gap["expect"] as! String, kind = gap["kind"] as! String
                let rows = events.indices.filter { abs((events[$0]["start_s"] as! Double) - start) <= 0.001 }
                #expect(rows.count == 1, "\(name): \(kind) gap \(start)..<\(end) s: \(rows.map { events[$0] })")
                if let row = rows.first {
                    let event = events[row]
                    #expect(event["type"] as? String == expected && abs((event["end_s"] as! Double) - end) <= 0.001, "\(name): \(kind) \(start)..<\(end) s: \(event)")
                    // A gap in both channels of a stereo file is one row of both.
                    let mono = (file["channels"] as! Int) == 1 && expected == "dropout"
                    #expect(event["channel"] as? String == (mono ? "mono" : "all"), "\(name): \(event)")
                }
                for row in rows.reversed() { events.remove(at: row) }
                gapsChecked += 1
                lengths.insert(Int(((end - start) * 1000).rounded()))
            }
            #expect(events.isEmpty, "\(name): rows for nothing put in: \(events)")
        }
        // The corpus's premise: every length from 1 ms to beyond the silence rule, of each kind.
        #expect(gapsChecked >= 120 && lengths.isSuperset(of: [1, 5, 190, 250, 400, 490, 700, 1500]), "\(gapsChecked) gaps of \(lengths.sorted()) ms")
    }

    @Test("espeak-ng's speech: every dropout listed is a run of exact zero the synthesiser wrote, none elsewhere")
    func synthesizedClosures() throws {
        // espeak-ng writes the closure of a stop as an abrupt cut to digital zero, the voice
        // resuming in phase after it: by its samples a dropout (docs/EVENTS.md). So the fact
        // tested is that each one listed is such a run in the file, to the sample.
        let speech = scratch.file("closures.wav")
        let made = try run(try #require(which("espeak-ng")), ["-w", speech, "Stop, pick, tackle, kettle; but the top cat got a bad pet."])
        try #require(made.status == 0, "\(made.stderr)")
        let script = """
            import sys, json, numpy as np, soundfile as sf
            x, r = sf.read(sys.argv[1], dtype='int16')
            z = np.concatenate([[0], (x == 0).astype(np.int8), [0]]); d = np.diff(z)
            print(json.dumps({'rate': r, 'runs': [[int(a), int(b)] for a, b in zip(np.where(d == 1)[0], np.where(d == -1)[0])]}))
            """
        let python = try run(try #require(which("python3")), ["-c", script, speech])
        try #require(python.status == 0, "\(python.stderr)")
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any])
        let rate = try #require(truth["rate"] as? Double), runs = try #require(truth["runs"] as? [[Int]])
        let events = try eventList(speech)
        #expect(events.allSatisfy { ["silence", "dropout"].contains($0["type"] as? String) }, "\(events)")
        for dropout in events where dropout["type"] as? String == "dropout" {
            let start = Int(((dropout["start_s"] as! Double) * rate).rounded()), end = Int(((dropout["end_s"] as! Double) * rate).rounded())
            #expect(runs.contains([start, end]), "\(dropout)")
        }
    }

    @Test("gaps cut into espeak-ng's speech are found to the sample, besides its closures")
    func gapsInSynthesizedSpeech() throws {
        let speech = scratch.file("gaps-source.wav"), path = scratch.file("gaps.wav")
        let made = try run(try #require(which("espeak-ng")), ["-w", speech, "Archivists check transfers for dropouts and clipping, one file after another."])
        try #require(made.status == 0, "\(made.stderr)")
        // Three gaps of zero (2, 25 and 120 ms) at seeded places with sound (≥ −40 dBFS RMS) in
        // the 10 ms on both sides and no zero within 10 ms of them.
        let script = """
            import sys, json, numpy as np, soundfile as sf
            x, r = sf.read(sys.argv[1], dtype='int16'); x = x.astype(np.int32)
            rng = np.random.default_rng(8); f = r // 100; placed = []
            level = lambda a: 10 * np.log10(np.mean((a / 32768.0) ** 2) + 1e-30)
            for seconds in (0.002, 0.025, 0.120):
                n = int(seconds * r)
                while True:
                    s = int(rng.integers(f + 1, len(x) - n - f - 1)); e = s + n
                    if level(x[s - f:s]) >= -40 and level(x[e:e + f]) >= -40 and not (x[s - f:e + f] == 0).any() \\
                        and all(e + r // 5 < a or s > b + r // 5 for a, b in placed): break
                placed.append((s, e))
            for s, e in placed: x[s:e] = 0
            sf.write(sys.argv[2], x.astype(np.int16), r, subtype='PCM_16')
            print(json.dumps({'rate': r, 'placed': placed}))
            """
        let python = try run(try #require(which("python3")), ["-c", script, speech, path])
        try #require(python.status == 0, "\(python.stderr)")
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any])
        let rate = try #require(truth["rate"] as? Double), placed = try #require(truth["placed"] as? [[Int]])
        let dropouts = try eventList(path).filter { $0["type"] as? String == "dropout" }.map {
            [Int((($0["start_s"] as! Double) * rate).rounded()), Int((($0["end_s"] as! Double) * rate).rounded())]
        }
        for gap in placed { #expect(dropouts.contains(gap), "\(gap) not in \(dropouts)") }
    }

    @Test("a loudness jump's loudness is in level_lufs, equal to ffmpeg ebur128's short-term loudness where it ends; level_dbfs stays empty")
    func loudnessJumpInLUFS() throws {
        let path = scratch.file("jump.wav")
        let script = """
            import sys, numpy as np, soundfile as sf
            r = 48000; g = np.random.default_rng(1)
            x = np.concatenate([g.normal(0, 10 ** (-40 / 20), 5 * r), g.normal(0, 10 ** (-15 / 20), 5 * r)])
            sf.write(sys.argv[1], np.stack([x, x], 1).astype(np.float32), r, subtype='FLOAT')
            """
        let made = try run(try #require(which("python3")), ["-c", script, path])
        try #require(made.status == 0, "\(made.stderr)")
        let jumps = try eventList(path).filter { $0["type"] as? String == "loudness_jump" }
        try #require(jumps.count == 1, "\(jumps)")
        let jump = jumps[0], end = try #require(jump["end_s"] as? Double), lufs = try #require(jump["level_lufs"] as? Double)
        #expect(jump["level_dbfs"] is NSNull, "\(jump)")
        // ffmpeg's frame at pts_time t carries the short-term loudness of the 3 s ending at t + 0.1 s.
        let meter = scratch.file("meter.txt")
        let ffmpeg = try run(
            try #require(which("ffmpeg")), ["-v", "error", "-i", path, "-af", "ebur128=metadata=1,ametadata=print:file=\(meter)", "-f", "null", "-"])
        try #require(ffmpeg.status == 0, "\(ffmpeg.stderr)")
        var time = -1.0, shortTerm: Double? = nil
        for line in try String(contentsOfFile: meter, encoding: .utf8).split(separator: "\n") {
            if let range = line.range(of: "pts_time:") { time = Double(line[range.upperBound...]) ?? -1 }
            if line.hasPrefix("lavfi.r128.S="), abs(time + 0.1 - end) < 0.001 { shortTerm = Double(line.dropFirst("lavfi.r128.S=".count)) }
        }
        let reference = try #require(shortTerm, "no ffmpeg frame ends at \(end) s")
        #expect(abs(lufs - reference) <= 0.01, "signalpath \(lufs) LUFS, ffmpeg \(reference) LUFS at \(end) s")
        let csv = try signalpath("events", path, "--format", "csv")
        let row = try #require(csv.stdout.split(separator: "\n").last.map { $0.split(separator: ",", omittingEmptySubsequences: false) })
        #expect(row[6].isEmpty && Double(row[7]) == (lufs * 100).rounded() / 100, "\(row)")
    }

    @Test("text, CSV, TSV and NDJSON carry the same events; a broken file among them is an entry and exit 65")
    func formats() throws {
        let path = try speechWithEvents()
        let broken = scratch.write("broken.wav", Array("RIFF\u{10}\0\0\0WAVEfmt ".utf8))
        let csv = try signalpath("events", path, "--format", "csv")
        #expect(csv.status == 0)
        let rows = csv.stdout.split(separator: "\n")
        #expect(rows.first == "path,type,channel,start_s,end_s,duration_s,level_dbfs,level_lufs,detail")
        let ndjson = try signalpath("events", path, "--format", "ndjson")
        let lines = ndjson.stdout.split(separator: "\n")
        #expect(lines.count == rows.count && lines.allSatisfy { $0.contains("\"schema\":\"signalpath.events/2\"") })
        #expect(lines.last?.contains("\"summary\":{\"events\":\(rows.count - 1),") == true, "\(lines.last ?? "")")
        let text = try signalpath("events", path)
        #expect(text.stdout.contains("type") && text.stdout.contains("silence") && text.stdout.contains("rules:"))
        #expect(text.stdout.split(separator: "\n").count == rows.count - 1 + 4, "\(text.stdout)")
        let mixed = try signalpath("events", path, broken, "--format", "json")
        #expect(mixed.status == 65, "\(mixed.stderr)")
        let files = try #require(try json(mixed)["files"] as? [[String: Any]])
        #expect(files.count == 2 && files[1]["error"] != nil && files[0]["events"] != nil)
    }
}
