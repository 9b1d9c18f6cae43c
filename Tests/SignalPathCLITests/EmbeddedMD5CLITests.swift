import Foundation
import SignalPathTestSupport
import Testing

/// The MD5 a file carries against its audio: flac's STREAMINFO (patched by a byte to make it
/// wrong, or left unset with `flac --no-md5-sum`), and a BWF `MD5 ` chunk that Python appends
/// with hashlib's MD5 of the data chunk (or of something else).
@Suite("embedded MD5: analyze --md5 and check --require-md5")
struct EmbeddedMD5CLITests {
    let scratch = ScratchDirectory("embedded-md5")

    func make(_ tool: String, _ arguments: [String]) throws {
        let result = try run(try #require(which(tool), "\(tool) is missing: run `make setup`"), arguments, timeout: 120)
        try #require(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
    }

    /// A 2 s stereo noise WAV of `bits` bits made by sox.
    func noise(_ name: String, bits: Int = 16) throws -> String {
        let wav = scratch.file(name)
        try make("sox", ["-R", "-n", "-r", "48000", "-c", "2", "-b", "\(bits)", wav, "synth", "2", "pinknoise", "vol", "0.6"])
        return wav
    }

    /// analyze --md5's report of `file`.
    func report(_ file: String) throws -> [String: Any] {
        let result = try run(signalpath, ["analyze", "--md5", "--format", "json", file])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require((try json(result)["files"] as? [[String: Any]])?.first)
    }

    /// check --require-md5's exit status and the rule's finding.
    func check(_ file: String) throws -> (status: Int32, finding: String?) {
        let result = try run(signalpath, ["check", "--require-md5", "--format", "json", file])
        let rules = (try? json(result)["files"] as? [[String: Any]])?.first?["rules"] as? [[String: Any]]
        return (result.status, rules?.first { $0["rule"] as? String == "embedded_md5" }?["finding"] as? String)
    }

    /// Python writes a copy of `wav` with an `MD5 ` chunk after the data: hashlib's MD5 of the data
    /// chunk's bytes, or of `wrongBy` flipped in its first byte.
    func withMD5Chunk(_ wav: String, _ name: String, wrong: Bool) throws -> (path: String, md5: String) {
        let out = scratch.file(name)
        let script = """
            import hashlib, struct, sys
            raw = bytearray(open(sys.argv[1], 'rb').read())
            at = raw.find(b'data'); size = struct.unpack('<I', raw[at + 4:at + 8])[0]
            digest = bytearray(hashlib.md5(raw[at + 8:at + 8 + size]).digest())
            if sys.argv[3] == 'wrong': digest[0] ^= 1
            raw += b'MD5 ' + struct.pack('<I', 16) + digest
            raw[4:8] = struct.pack('<I', len(raw) - 8)
            open(sys.argv[2], 'wb').write(raw)
            print(hashlib.md5(raw[at + 8:at + 8 + size]).hexdigest() if sys.argv[3] == 'right' else bytes(digest).hex())
            """
        let result = try run(try #require(which("python3")), ["-c", script, wav, out, wrong ? "wrong" : "right"])
        try #require(result.status == 0, "\(result.stderr)")
        return (out, result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("a FLAC's STREAMINFO MD5: metaflac's value matches and passes; one byte patched is a mismatch and fails (exit 1)")
    func flacStreamInfo() throws {
        let wav = try noise("flac-source.wav", bits: 24)
        let flac = scratch.file("right.flac")
        try make("flac", ["-s", "-f", wav, "-o", flac])
        let md5 = try run(try #require(which("metaflac")), ["--show-md5sum", flac]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let embedded = try #require(try report(flac)["embedded_md5"] as? [String: Any])
        #expect(embedded["source"] as? String == "flac_streaminfo" && embedded["value"] as? String == md5 && embedded["matches"] as? Bool == true)
        #expect(try check(flac) == (0, "matches"))

        // STREAMINFO's MD5 is bytes 26..<42 of a native FLAC file (after `fLaC` and the block header).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: flac))
        try #require(bytes.prefix(4) == Data("fLaC".utf8))
        bytes[30] ^= 0x40
        let patched = scratch.file("patched.flac")
        try bytes.write(to: URL(fileURLWithPath: patched))
        let patchedMD5 = try run(try #require(which("metaflac")), ["--show-md5sum", patched]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(patchedMD5 != md5)
        let mismatch = try #require(try report(patched)["embedded_md5"] as? [String: Any])
        #expect(mismatch["value"] as? String == patchedMD5 && mismatch["matches"] as? Bool == false)
        #expect(try check(patched) == (1, "mismatch"))
        let text = try run(signalpath, ["check", "--require-md5", patched])
        #expect(text.status == 1 && text.stdout.contains("mismatch"), "\(text.stdout)")
    }

    @Test("a FLAC encoded without an MD5 (all zeros) and a WAV without a chunk pass, saying unset and none")
    func unsetAndNone() throws {
        let wav = try noise("plain.wav")
        let flac = scratch.file("no-md5.flac")
        try make("flac", ["-s", "-f", "--no-md5-sum", wav, "-o", flac])
        let embedded = try #require(try report(flac)["embedded_md5"] as? [String: Any])
        #expect(embedded["value"] is NSNull && embedded["matches"] is NSNull)
        #expect(try check(flac) == (0, "unset"))
        #expect(try report(wav)["embedded_md5"] is NSNull)
        #expect(try check(wav) == (0, "none"))
        let text = try run(signalpath, ["check", "--require-md5", wav])
        #expect(text.status == 0 && text.stdout.contains("none"), "\(text.stdout)")
    }

    @Test("a BWF MD5 chunk: hashlib's MD5 of the data matches and passes; a wrong one fails (exit 1)", arguments: [16, 24])
    func bwfChunk(bits: Int) throws {
        let wav = try noise("bwf-\(bits).wav", bits: bits)
        let right = try withMD5Chunk(wav, "right-\(bits).wav", wrong: false)
        let embedded = try #require(try report(right.path)["embedded_md5"] as? [String: Any])
        #expect(embedded["source"] as? String == "bwf_md5_chunk" && embedded["value"] as? String == right.md5)
        #expect(embedded["matches"] as? Bool == true)
        #expect(try check(right.path) == (0, "matches"))
        let wrong = try withMD5Chunk(wav, "wrong-\(bits).wav", wrong: true)
        let mismatch = try #require(try report(wrong.path)["embedded_md5"] as? [String: Any])
        #expect(mismatch["value"] as? String == wrong.md5 && mismatch["matches"] as? Bool == false)
        #expect(try check(wrong.path) == (1, "mismatch"))
    }

    @Test("a range cannot verify a whole file's checksum: not compared, and check fails it")
    func range() throws {
        let wav = try noise("ranged.wav")
        let right = try withMD5Chunk(wav, "ranged-md5.wav", wrong: false)
        let result = try run(signalpath, ["check", "--require-md5", "--range", "0.5..1", "--format", "json", right.path])
        #expect(result.status == 1)
        let rules = try #require((try json(result)["files"] as? [[String: Any]])?.first?["rules"] as? [[String: Any]])
        #expect(rules.first?["finding"] as? String == "not compared")
    }
}
