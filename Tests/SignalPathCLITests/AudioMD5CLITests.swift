import Foundation
import SignalPathTestSupport
import Testing

/// `analyze --md5` against `metaflac --show-md5sum`: sox makes the noise, flac the FLAC, sox the
/// AIFF and Wave64, ffmpeg the RF64; the same samples must give flac's MD5 in every container.
@Suite("analyze --md5 (the audio MD5 as FLAC defines it)")
struct AudioMD5CLITests {
    let scratch = ScratchDirectory("audio-md5")

    /// `tool` with `arguments`, required to succeed.
    func make(_ tool: String, _ arguments: [String]) throws {
        let result = try run(try #require(which(tool), "\(tool) is missing: run `make setup`"), arguments, timeout: 120)
        try #require(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
    }

    /// A 3 s stereo noise WAV of `bits` bits (sox, seeded with -R), its copies in the other
    /// containers, and metaflac's MD5 of its FLAC.
    func copies(bits: Int) throws -> (files: [String], md5: String) {
        let wav = scratch.file("noise-\(bits).wav")
        try make("sox", ["-R", "-n", "-r", "44100", "-c", "2", "-b", "\(bits)", wav, "synth", "3", "pinknoise", "vol", "0.7"])
        let flac = scratch.file("noise-\(bits).flac"), aiff = scratch.file("noise-\(bits).aiff"), w64 = scratch.file("noise-\(bits).w64")
        let rf64 = scratch.file("noise-\(bits)-rf64.wav")
        try make("flac", ["-s", "-f", wav, "-o", flac])
        try make("sox", [wav, aiff])
        try make("sox", [wav, w64])
        try make("ffmpeg", ["-v", "error", "-y", "-i", wav, "-c:a", bits == 8 ? "pcm_u8" : "pcm_s\(bits)le", "-rf64", "always", rf64])
        let md5 = try run(try #require(which("metaflac")), ["--show-md5sum", flac])
        try #require(md5.status == 0)
        return ([wav, flac, aiff, w64, rf64], md5.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// analyze's `audio_md5` of each file.
    func audioMD5s(_ files: [String]) throws -> [String?] {
        let result = try run(signalpath, ["analyze", "--md5", "--format", "json"] + files)
        try #require(result.status == 0, "\(result.stderr)")
        let reports = try #require(try json(result)["files"] as? [[String: Any]])
        return reports.map { $0["audio_md5"] as? String }
    }

    @Test("16-, 24- and 8-bit: the same MD5 as metaflac's in WAV, FLAC, AIFF, Wave64 and RF64", arguments: [16, 24, 8])
    func againstMetaflac(bits: Int) throws {
        let (files, md5) = try copies(bits: bits)
        try #require(md5.count == 32 && md5 != String(repeating: "0", count: 32))
        for (file, found) in zip(files, try audioMD5s(files)) {
            #expect(found == md5, "\(file)")
        }
    }

    /// numpy's noise of `validBits` bits in a WAVE_FORMAT_EXTENSIBLE of `wordBits`-bit words (valid
    /// bits stated, the low bits zero unless `lowBitsUsed`), as a recorder writes it; full scale
    /// in the first frame.
    func validBitsWAV(_ name: String, wordBits: Int, validBits: Int, lowBitsUsed: Bool = false) throws -> String {
        let wav = scratch.file(name)
        let write = """
            import struct, sys, numpy as np
            word, valid, low = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
            codes = np.random.default_rng(20).integers(-2**(valid - 1), 2**(valid - 1), size=(88200, 2)).astype(np.int64)
            codes[0] = 2**(valid - 1) - 1
            codes = codes << (word - valid)
            if low: codes[1::2] |= 1
            width = word // 8
            data = np.stack([(codes.ravel() >> (8 * i)) & 0xFF for i in range(width)], axis=1).astype(np.uint8).tobytes()
            subformat = struct.pack('<IHH', 1, 0, 0x10) + bytes([0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71])
            fmt = struct.pack('<HHIIHHHHI', 0xFFFE, 2, 44100, 44100 * 2 * width, 2 * width, word, 22, valid, 3) + subformat
            body = b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data
            open(sys.argv[1], 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)
            """
        try make("python3", ["-c", write, wav, "\(wordBits)", "\(validBits)", lowBitsUsed ? "1" : "0"])
        return wav
    }

    /// flac encodes the valid bits; libsndfile reads no 20-bit FLAC.
    @Test("20 valid bits in 24-bit words: the WAV and flac's 20-bit FLAC of it (read by FFmpeg) give metaflac's MD5")
    func twentyValidBits() throws {
        let wav = try validBitsWAV("noise-20-in-24.wav", wordBits: 24, validBits: 20), flac = scratch.file("noise-20.flac")
        try make("flac", ["-s", "-f", wav, "-o", flac])
        let metaflac = try #require(which("metaflac"))
        #expect(try run(metaflac, ["--show-bps", flac]).stdout == "20\n", "flac encodes the valid bits")
        let md5 = try run(metaflac, ["--show-md5sum", flac]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(md5.count == 32)
        #expect(try audioMD5s([wav, flac]) == [md5, md5])
    }

    @Test("valid bits that the samples contradict (flac refuses them) or in 32-bit words: no MD5, said why, no crash")
    func validBitsWithout() throws {
        let used = try validBitsWAV("low-bits-used.wav", wordBits: 24, validBits: 20, lowBitsUsed: true)
        let refused = try run(try #require(which("flac")), ["-s", "-f", used, "-o", scratch.file("low-bits-used.flac")])
        #expect(refused.status != 0, "flac encodes no file whose low bits are in use")
        // 16 valid bits of full scale in 32-bit words: 1.0 as a Float, no 16-bit code.
        let wide = try validBitsWAV("16-in-32.wav", wordBits: 32, validBits: 16)
        #expect(try audioMD5s([used, wide]) == [nil, nil])
        let text = try run(signalpath, ["analyze", "--md5", used])
        #expect(text.status == 0 && text.stdout.contains("none: the samples use bits below the valid bits the header states"), "\(text.stdout)")
    }

    @Test("the text report has an Identity section with the MD5; a float file has none and says why")
    func textAndFloat() throws {
        let (files, md5) = try copies(bits: 16)
        let text = try run(signalpath, ["analyze", "--md5", files[1]])
        #expect(text.status == 0)
        #expect(text.stdout.contains("  Identity\n") && text.stdout.contains("Audio MD5") && text.stdout.contains(md5), "\(text.stdout)")
        let float = scratch.file("noise-float.wav")
        try make("sox", [files[0], "-e", "floating-point", "-b", "32", float])
        #expect(try audioMD5s([float]) == [nil])
        let floatText = try run(signalpath, ["analyze", "--md5", float])
        #expect(floatText.stdout.contains("none: float samples"), "\(floatText.stdout)")
        let without = try run(signalpath, ["analyze", "--format", "json", files[1]])
        #expect(!without.stdout.contains("audio_md5"))
    }

    @Test("CSV: audio_md5 and the embedded MD5's value, source and verdict on each channel's row with --md5; no such columns without")
    func csv() throws {
        let (files, md5) = try copies(bits: 16)
        func table(_ options: [String]) throws -> [[String]] {
            let result = try run(signalpath, ["analyze", "--format", "csv"] + options + [files[1]])
            try #require(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        }
        let with = try table(["--md5"]), without = try table([])
        let header = try #require(with.first)
        #expect(Array(header.suffix(4)) == ["audio_md5", "embedded_md5", "embedded_md5_source", "embedded_md5_matches"])
        #expect(Array(header.dropLast(4)) == without.first && !(without.first ?? []).contains { $0.contains("md5") })
        #expect(with.count == 3 && without.count == 3)
        for (row, plain) in zip(with.dropFirst(), without.dropFirst()) {
            #expect(Array(row.suffix(4)) == [md5, md5, "flac_streaminfo", "true"])
            #expect(Array(row.dropLast(4)) == plain)
        }
        // A WAV carries none: the embedded fields are empty.
        let wav = try run(signalpath, ["analyze", "--md5", "--format", "csv", files[0]])
        let row = try #require(wav.stdout.split(separator: "\n").dropFirst().first?.split(separator: ",", omittingEmptySubsequences: false))
        #expect(row.suffix(4).map(String.init) == [md5, "", "", ""], "\(wav.stdout)")
    }

    @Test("any number of workers gives the same MD5 (the digest takes the chunks in order)")
    func workers() throws {
        // 60 s: many chunks, so that they finish out of order with four workers.
        let wav = scratch.file("long.wav"), flac = scratch.file("long.flac")
        try make("sox", ["-R", "-n", "-r", "48000", "-c", "2", "-b", "24", wav, "synth", "60", "pinknoise", "vol", "0.5"])
        try make("flac", ["-s", "-f", wav, "-o", flac])
        let md5 = try run(try #require(which("metaflac")), ["--show-md5sum", flac]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for jobs in ["1", "4"] {
            let result = try run(signalpath, ["analyze", "--md5", "--jobs", jobs, "--format", "json", wav])
            let report = try #require((try json(result)["files"] as? [[String: Any]])?.first)
            #expect(report["audio_md5"] as? String == md5, "--jobs \(jobs)")
        }
    }
}
