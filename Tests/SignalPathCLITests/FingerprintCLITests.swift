import Foundation
import SignalPathTestSupport
import Testing

/// `analyze --fingerprint` against `fpcalc` (Chromaprint's own tool, FFmpeg's decode) on files that
/// sox, flac and lame make: the compressed fingerprint and the raw sub-fingerprints must be fpcalc's.
@Suite("analyze --fingerprint (Chromaprint, as fpcalc computes it)")
struct FingerprintCLITests {
    let scratch = ScratchDirectory("fingerprint")

    func make(_ tool: String, _ arguments: [String]) throws {
        let result = try run(try #require(which(tool), "\(tool) is missing: run `make setup`"), arguments, timeout: 120)
        try #require(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
    }

    /// 150 s of two sweeps and noise (sox): longer than fpcalc's default 120 s.
    func source(bits: Int) throws -> String {
        let wav = scratch.file("sweeps-\(bits).wav")
        try make(
            "sox", ["-R", "-n", "-r", "44100", "-c", "2", "-b", "\(bits)", wav, "synth", "150", "sine", "200-2000", "sine", "300-500", "pinknoise", "vol", "0.4"])
        return wav
    }

    /// fpcalc's compressed fingerprint and raw sub-fingerprints of `file`.
    func fpcalc(_ file: String, length: Int? = nil) throws -> (compressed: String, raw: [UInt32]) {
        let fpcalc = try #require(which("fpcalc"), "fpcalc is missing: run `make setup` (libchromaprint-tools)")
        let extra = length.map { ["-length", "\($0)"] } ?? []
        let compressed = try run(fpcalc, ["-json"] + extra + [file])
        let raw = try run(fpcalc, ["-json", "-raw"] + extra + [file])
        try #require(compressed.status == 0 && raw.status == 0, "\(compressed.stderr)")
        let value = try #require(try json(compressed)["fingerprint"] as? String)
        let numbers = try #require(try json(raw)["fingerprint"] as? [NSNumber])
        return (value, numbers.map { $0.uint32Value })
    }

    /// analyze's fingerprint object of `file`.
    func analyze(_ file: String, _ options: [String] = []) throws -> [String: Any] {
        let result = try run(signalpath, ["analyze", "--fingerprint", "--format", "json"] + options + [file], timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        let report = try #require((try json(result)["files"] as? [[String: Any]])?.first)
        return try #require(report["fingerprint"] as? [String: Any], "\(report.keys)")
    }

    func expectEqual(_ found: [String: Any], _ expected: (compressed: String, raw: [UInt32]), _ what: String) {
        #expect(found["value"] as? String == expected.compressed, "\(what)")
        let raw = (found["raw"] as? [NSNumber])?.map { $0.uint32Value }
        #expect(raw == expected.raw, "\(what): \(raw?.count ?? 0) against \(expected.raw.count) sub-fingerprints")
    }

    @Test("16-bit WAV, its FLAC and its 24-bit twin: fpcalc's fingerprint, compressed and raw, over the first 120 s")
    func losslessAgainstFpcalc() throws {
        let wav = try source(bits: 16)
        let flac = scratch.file("sweeps-16.flac")
        try make("flac", ["-s", "-f", wav, "-o", flac])
        let twentyFour = try source(bits: 24)
        for file in [wav, flac, twentyFour] {
            let found = try analyze(file)
            expectEqual(found, try fpcalc(file), file)
            #expect(found["seconds"] as? Double == 120, "\(file)")
        }
    }

    @Test("an MP3 (lame, 128 kb/s): fpcalc's fingerprint from FFmpeg's decode")
    func mp3AgainstFpcalc() throws {
        let wav = try source(bits: 16)
        let mp3 = scratch.file("sweeps.mp3")
        try make("lame", ["--silent", "-b", "128", wav, mp3])
        expectEqual(try analyze(mp3), try fpcalc(mp3), mp3)
    }

    @Test("16-bit Wave64 and RF64 (fed from the file's bytes), AIFF and float WAV (decoded): fpcalc's; CSV carries it")
    func containersAgainstFpcalc() throws {
        let wav = scratch.file("short.wav")
        try make("sox", ["-R", "-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "35", "sine", "300-3000", "pinknoise", "vol", "0.4"])
        let w64 = scratch.file("short.w64"), rf64 = scratch.file("short-rf64.wav"), aiff = scratch.file("short.aiff")
        let float = scratch.file("short-float.wav")
        try make("sox", [wav, w64])
        try make("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", "pcm_s16le", "-rf64", "always", rf64])
        try make("sox", [wav, aiff])
        try make("sox", ["-R", "-n", "-r", "44100", "-c", "1", "-e", "floating-point", "-b", "32", float, "synth", "35", "sine", "200-900", "vol", "0.5"])
        for file in [w64, rf64, aiff, float] {
            expectEqual(try analyze(file, ["--fingerprint-length", "30"]), try fpcalc(file, length: 30), file)
        }
        let csv = try run(signalpath, ["analyze", "--fingerprint", "--fingerprint-length", "30", "--format", "csv", w64], timeout: 120)
        try #require(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(lines.first)
        let column = try #require(header.firstIndex(of: "fingerprint"), "\(header)")
        #expect(header.last == "fingerprint_duration_s" && lines.count == 3)
        let expected = try fpcalc(w64, length: 30).compressed
        for row in lines.dropFirst() {
            #expect(row.count == header.count && row[column] == expected && row.last == "30.000000")
        }
    }

    @Test("--fingerprint-length 30 is fpcalc -length 30's")
    func length() throws {
        let wav = try source(bits: 16)
        let found = try analyze(wav, ["--fingerprint-length", "30"])
        expectEqual(found, try fpcalc(wav, length: 30), wav)
        #expect(found["seconds"] as? Double == 30)
        let text = try run(signalpath, ["analyze", "--fingerprint", wav], timeout: 120)
        #expect(text.status == 0 && text.stdout.contains("Fingerprint") && text.stdout.contains("first 120.0 s"), "\(text.stdout)")
        let refused = try run(signalpath, ["analyze", "--fingerprint-length", "30", wav])
        #expect(refused.status == 64 && refused.stderr.contains("--fingerprint-length applies to --fingerprint"), "\(refused.stderr)")
    }
}
