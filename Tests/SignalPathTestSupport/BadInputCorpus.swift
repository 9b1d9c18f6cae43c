import Foundation

/// Inputs that are truncated, mislabelled or malformed, made by code: what signalpath meets in the
/// wild. Each says what a correct answer is.
public struct BadInput: Sendable {
    public enum Expectation: Sendable, Equatable {
        /// Refused with this exit code.
        case refused(Int32)
        /// Either analysed (exit 0) or refused cleanly (64, 65, 66 or 74): a file damaged in a way
        /// that leaves audio to read (a truncated stream, a size field past the end).
        case either
    }

    public var name: String
    /// The path to give signalpath.
    public var path: String
    public var expectation: Expectation
}

public enum BadInputCorpus {
    /// Makes the corpus in `directory`: files, a directory, a FIFO, a missing path.
    public static func make(in directory: String) throws -> [BadInput] {
        var corpus: [BadInput] = []
        func file(_ name: String, _ bytes: [UInt8], _ expectation: BadInput.Expectation) {
            let path = directory + "/" + name
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            corpus.append(BadInput(name: name, path: path, expectation: expectation))
        }
        let stereo = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: 48_000)
        let tone = (0..<9600).map { 0.5 * sin(Double($0) * 0.0654) }
        let wav = stereo.file(samples: tone)

        file("empty.wav", [], .refused(65))
        var generator = SeededGenerator(seed: 2026)
        for (index, size) in [1, 3, 7, 12, 44, 100, 512, 1000, 4096, 65536].enumerated() {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            file("random-\(index).wav", bytes, .refused(65))
            file("random-\(index).bin", bytes, .refused(65))
        }
        // Every truncation of the header (44 bytes), and the header with each byte set to 0xFF.
        for offset in 1..<44 { file("wav-truncated-at-\(offset).wav", Array(wav.prefix(offset)), .either) }
        for offset in 0..<44 {
            var bytes = wav
            bytes[offset] = 0xFF
            file("wav-byte-\(offset)-ff.wav", bytes, .either)
        }
        // Size fields: the data chunk claims more than the file holds, or 0xFFFFFFFF.
        var oversized = wav
        oversized.replaceSubrange(40..<44, with: [0x00, 0x00, 0x10, 0x00])
        file("wav-data-larger-than-file.wav", oversized, .either)
        var unknownLength = wav
        unknownLength.replaceSubrange(40..<44, with: [0xFF, 0xFF, 0xFF, 0xFF])
        file("wav-data-ffffffff.wav", unknownLength, .either)
        unknownLength.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        file("wav-riff-and-data-ffffffff.wav", unknownLength, .either)
        // fmt fields: channels 0, rate 0 and absurd, block alignment odd, an unknown format tag.
        func patched(_ name: String, _ offset: Int, _ bytes: [UInt8], _ expectation: BadInput.Expectation) {
            var copy = wav
            copy.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            file(name, copy, expectation)
        }
        patched("wav-zero-channels.wav", 22, [0, 0], .refused(65))
        patched("wav-zero-rate.wav", 24, [0, 0, 0, 0], .either)
        patched("wav-rate-1hz.wav", 24, [1, 0, 0, 0], .either)
        patched("wav-rate-4ghz.wav", 24, [0xFF, 0xFF, 0xFF, 0xFF], .either)
        patched("wav-odd-block-align.wav", 32, [3, 0], .either)
        patched("wav-bits-0.wav", 34, [0, 0], .either)
        patched("wav-bits-13.wav", 34, [13, 0], .either)
        patched("wav-unknown-format-tag.wav", 20, [0x34, 0x12], .refused(65))
        var extensible = PCMFileBuilder(container: .wavExtensible, encoding: .signed16, channels: 2, sampleRate: 48_000).file(samples: tone)
        if let guid = (0..<extensible.count - 4).first(where: { extensible[$0..<$0 + 4] == [0x01, 0x00, 0x00, 0x00] && $0 > 40 }) {
            extensible[guid] = 0x77
        }
        file("wavex-bad-guid.wav", extensible, .either)
        let many = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1024, sampleRate: 8000)
        file("wav-1024-channels.wav", many.file(samples: [Double](repeating: 0.25, count: 1024 * 64)), .either)
        // Float data with NaN and infinities.
        let float = PCMFileBuilder(container: .wav, encoding: .float32, channels: 1, sampleRate: 48_000)
        var floatSamples = (0..<9600).map { 0.5 * sin(Double($0) * 0.1) }
        for index in stride(from: 100, to: 9600, by: 997) { floatSamples[index] = [Double.nan, .infinity, -.infinity][index % 3] }
        file("float-nan-inf.wav", float.file(samples: floatSamples), .either)
        file("float-all-nan.wav", float.file(samples: [Double](repeating: .nan, count: 4800)), .either)
        // Other containers cut short: every truncation of an AIFF header, RF64 and Wave64 headers.
        let aiff = PCMFileBuilder(container: .aiff, encoding: .signed16, channels: 2, sampleRate: 44_100).file(samples: tone)
        for offset in stride(from: 1, to: 60, by: 1) { file("aiff-truncated-at-\(offset).aiff", Array(aiff.prefix(offset)), .either) }
        let rf64 = PCMFileBuilder(container: .rf64, encoding: .signed24, channels: 2, sampleRate: 48_000).file(samples: tone)
        for offset in stride(from: 4, to: 90, by: 6) { file("rf64-truncated-at-\(offset).wav", Array(rf64.prefix(offset)), .either) }
        let w64 = PCMFileBuilder(container: .w64, encoding: .signed16, channels: 2, sampleRate: 48_000).file(samples: tone)
        for offset in stride(from: 8, to: 130, by: 12) { file("w64-truncated-at-\(offset).w64", Array(w64.prefix(offset)), .either) }
        // FLAC and Ogg cut mid-stream (encoded by sox from the tone).
        let source = directory + "/source.wav"
        _ = FileManager.default.createFile(atPath: source, contents: Data(wav))
        for (suffix, arguments) in [("flac", [String]()), ("ogg", ["-C", "3"])] {
            let encoded = directory + "/source." + suffix
            let sox = Process()
            sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
            sox.arguments = [source] + arguments + [encoded]
            try sox.run()
            sox.waitUntilExit()
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: encoded)))
            for fraction in [0.05, 0.3, 0.5, 0.9, 0.99] {
                file("\(suffix)-truncated-\(Int(fraction * 100)).\(suffix)", Array(bytes.prefix(Int(Double(bytes.count) * fraction))), .either)
            }
            var corrupted = bytes
            for index in stride(from: bytes.count / 3, to: bytes.count, by: 97) { corrupted[index] ^= 0x5A }
            file("\(suffix)-corrupted.\(suffix)", corrupted, .either)
        }
        try ffmpegCases(source: source, directory: directory, file: file)
        // Not files, or not there; names with spaces, non-ASCII and escape sequences.
        let folder = directory + "/a directory.wav"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        corpus.append(BadInput(name: "directory", path: folder, expectation: .refused(66)))
        let fifo = directory + "/fifo.wav"
        mkfifo(fifo, 0o644)
        corpus.append(BadInput(name: "fifo without a writer", path: fifo, expectation: .either))
        corpus.append(BadInput(name: "missing", path: directory + "/no such file.wav", expectation: .refused(66)))
        file("spaces and ünïcödé ♪.wav", wav, .either)
        file("escape \u{1B}[31m red.wav", Array(wav.prefix(30)), .either)
        return corpus
    }

    /// What FFmpeg's backend meets (encoded by the ffmpeg CLI from the tone): MP4s whose `moov` is
    /// missing, cut or not yet written (a file being recorded), corrupt AAC frames mid-file, an
    /// MP4 whose audio stream holds no samples, a Matroska whose segment claims an enormous size,
    /// a video without sound (65: "no audio stream (video only)").
    static func ffmpegCases(source: String, directory: String, file: (String, [UInt8], BadInput.Expectation) -> Void) throws {
        func ffmpeg(_ arguments: [String]) throws -> [UInt8] {
            let output = arguments.last!
            let process = Process()
            process.executableURL = URL(fileURLWithPath: which("ffmpeg") ?? "/usr/bin/ffmpeg")
            process.arguments = ["-v", "error", "-nostdin", "-y"] + arguments
            try process.run()
            process.waitUntilExit()
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        // The index at the end (ffmpeg's default): cut anywhere before it, there is no index.
        let m4a = try ffmpeg(["-i", source, "-c:a", "aac", directory + "/source.m4a"])
        if let moov = (4..<m4a.count - 4).last(where: { m4a[$0..<$0 + 4] == Array("moov".utf8)[...] }) {
            for fraction in [0.1, 0.5, 0.9] {
                file("m4a-moov-missing-\(Int(fraction * 100)).m4a", Array(m4a.prefix(Int(Double(moov - 4) * fraction))), .refused(65))
            }
            for cut in [moov + 8, moov + 200, moov + (m4a.count - moov) / 2] where cut < m4a.count {
                file("m4a-moov-cut-at-\(cut).m4a", Array(m4a.prefix(cut)), .either)
            }
            // A file being written: `mdat` still open (size 0, "to the end of the file"), no `moov`.
            var recording = Array(m4a.prefix(moov - 4))
            if let mdat = (4..<recording.count - 4).first(where: { recording[$0..<$0 + 4] == Array("mdat".utf8)[...] }) {
                recording.replaceSubrange(mdat - 4..<mdat, with: [0, 0, 0, 0])
            }
            file("m4a-being-written.m4a", recording, .refused(65))
        }
        // The index in front: the samples cut short of what it lists, and corrupted mid-file.
        let faststart = try ffmpeg(["-i", source, "-c:a", "aac", "-movflags", "+faststart", directory + "/faststart.m4a"])
        file("m4a-data-truncated.m4a", Array(faststart.prefix(faststart.count * 2 / 3)), .either)
        var corrupted = faststart
        for index in stride(from: faststart.count / 2, to: faststart.count * 3 / 4, by: 31) { corrupted[index] ^= 0xA5 }
        file("m4a-corrupt-aac-frames.m4a", corrupted, .either)
        let adts = try ffmpeg(["-i", source, "-c:a", "aac", "-f", "adts", directory + "/source.aac"])
        var corruptADTS = adts
        for index in stride(from: adts.count / 3, to: adts.count, by: 53) { corruptADTS[index] ^= 0xFF }
        file("adts-corrupt.aac", corruptADTS, .either)
        file("mp4-zero-length-audio.m4a", try ffmpeg(["-i", source, "-t", "0", "-c:a", "aac", directory + "/zero.m4a"]), .either)
        // Matroska: the Segment's size (an 8-byte EBML number after its ID) set to 2⁵⁶ − 2.
        var mkv = try ffmpeg(["-i", source, "-c:a", "libopus", directory + "/source.mka"])
        if let segment = (0..<mkv.count - 12).first(where: { mkv[$0..<$0 + 4] == [0x18, 0x53, 0x80, 0x67] }) {
            mkv.replaceSubrange(segment + 4..<segment + 12, with: [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE])
            file("mkv-huge-segment-size.mka", mkv, .either)
        }
        file("mkv-truncated.mka", Array(mkv.prefix(mkv.count / 2)), .either)
        let video = try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=32x24:rate=5:duration=0.4", "-c:v", "mpeg4", directory + "/video.mp4"])
        file("video-only.mp4", video, .refused(65))
    }
}
