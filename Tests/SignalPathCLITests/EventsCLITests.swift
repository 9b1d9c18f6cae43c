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

    @Test("text, CSV, TSV and NDJSON carry the same events; a broken file among them is an entry and exit 65")
    func formats() throws {
        let path = try speechWithEvents()
        let broken = scratch.write("broken.wav", Array("RIFF\u{10}\0\0\0WAVEfmt ".utf8))
        let csv = try signalpath("events", path, "--format", "csv")
        #expect(csv.status == 0)
        let rows = csv.stdout.split(separator: "\n")
        #expect(rows.first == "path,type,channel,start_s,end_s,duration_s,level_dbfs,detail")
        let ndjson = try signalpath("events", path, "--format", "ndjson")
        let lines = ndjson.stdout.split(separator: "\n")
        #expect(lines.count == rows.count && lines.allSatisfy { $0.contains("\"schema\":\"signalpath.events/1\"") })
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
