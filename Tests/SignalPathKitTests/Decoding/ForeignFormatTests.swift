import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// Files libsndfile cannot read, made by ffmpeg's own encoders and muxers: libsndfile's refusal
/// says what they look like (the error when FFmpeg's libraries are missing), and FFmpeg reads them.
@Suite("Foreign formats: what an unreadable file looks like")
struct ForeignFormatTests {
    let scratch = ScratchDirectory("foreign")

    /// A 0.3 s tone encoded by ffmpeg with `arguments` (codec and muxer options) into `name`.
    func encode(_ name: String, _ arguments: [String]) throws -> String {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let path = scratch.file(name)
        let result = try run(
            ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=1000:duration=0.3:sample_rate=48000"] + arguments + ["-y", path])
        #expect(result.status == 0, "ffmpeg: \(result.stderr)")
        return path
    }

    /// The reason libsndfile's decoder gives for `path`.
    func openingFailure(_ path: String) -> SignalPathError? {
        do {
            _ = try SndFile(cursor: FileCursor(file: try CachedFile(path: path)), path: path)
            return nil
        } catch {
            return error
        }
    }

    static let encodings: [(file: String, arguments: [String], looksLike: ForeignFormat)] = [
        ("aac.m4a", ["-c:a", "aac"], .isoMedia(brand: "M4A ")),
        ("alac.m4a", ["-c:a", "alac"], .isoMedia(brand: "M4A ")),
        ("aac.mov", ["-c:a", "aac"], .isoMedia(brand: "qt  ")),
        ("aac.mp4", ["-c:a", "aac"], .isoMedia(brand: "isom")),
        ("vorbis.mka", ["-c:a", "libvorbis"], .matroska),
        ("opus.webm", ["-c:a", "libopus"], .webm),
        ("adts.aac", ["-c:a", "aac", "-f", "adts"], .adts),
        ("tone.ac3", ["-c:a", "ac3"], .ac3),
        ("tone.eac3", ["-c:a", "eac3"], .eac3),
        ("tone.wma", ["-c:a", "wmav2"], .asf),
        ("tone.wv", ["-c:a", "wavpack"], .wavPack),
        ("tone.dts", ["-c:a", "dca", "-strict", "-2", "-ar", "48000"], .dts),
    ]

    @Test("files made by ffmpeg are named by what they look like, and FFmpeg decodes them", arguments: encodings.indices)
    func madeByFFmpeg(index: Int) throws {
        let (name, arguments, looksLike) = Self.encodings[index]
        let path = try encode(name, arguments)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)).prefix(ForeignFormat.prefixLength))
        #expect(ForeignFormat.sniff(bytes) == looksLike, "\(name)")
        let expected = "not a recognised audio format: " + looksLike.explanation(path: path)
        #expect(openingFailure(path) == .unrecognizedFormat(path: path, reason: expected))
        #expect(expected.contains("ffmpeg -i \(path) -c:a pcm_f32le out.wav"), "a path that pastes as it is goes into the command")
        let file = try AudioFile.open(path)
        #expect(file.usesFFmpeg && (file.format.frames ?? 0) > 0, "\(name)")
    }

    @Test("the conversion command of the message works as pasted")
    func conversionCommand() throws {
        let path = try encode("pasted.m4a", ["-c:a", "aac"])
        let explanation = ForeignFormat.isoMedia(brand: "M4A ").explanation(path: path)
        var command = try #require(explanation.split(separator: ": ").last).split(separator: " ").map(String.init)
        #expect(command.first == "ffmpeg" && command.last == "out.wav")
        command[command.count - 1] = scratch.file("out.wav")
        let ffmpeg = try #require(which("ffmpeg"))
        #expect(try run(ffmpeg, ["-v", "error"] + command.dropFirst()).status == 0)
        #expect(try AudioFile.open(scratch.file("out.wav")).format.sampleFormat == .float(bits: 32))
    }

    @Test("an ID3 tag in front of ADTS frames is looked behind")
    func id3InFront() throws {
        let adts = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try encode("tagged.aac", ["-c:a", "aac", "-f", "adts"]))))
        // ID3v2.4 header (id3.org, section 3.1): "ID3", version 4.0, no flags, syncsafe size 300.
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 2, 44] + [UInt8](repeating: 0, count: 300)
        #expect(ForeignFormat.sniff(tag + adts) == .adts)
        let path = scratch.write("tagged-id3.aac", tag + adts)
        #expect(openingFailure(path)?.reason.contains("looks like AAC in ADTS frames") == true)
    }

    @Test("signatures from the specifications: AMR (RFC 4867), MIDI (SMF 1.0), Monkey's Audio, HEIF, QuickTime without ftyp")
    func signatures() {
        #expect(ForeignFormat.sniff(Array("#!AMR\n".utf8) + [0x3C, 0x91]) == .amr)
        #expect(ForeignFormat.sniff(Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, 2, 0, 96]) == .midi)
        #expect(ForeignFormat.sniff(Array("MAC ".utf8) + [0x96, 0x0F, 0, 0]) == .monkeysAudio)
        #expect(ForeignFormat.sniff([0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0]) == .isoMedia(brand: "heic"))
        #expect(ForeignFormat.sniff([0, 0, 0, 8] + Array("wide".utf8) + [0, 0, 0, 8] + Array("mdat".utf8)) == .quickTime)
        #expect(ForeignFormat.midi.explanation(path: "song.mid").contains("notes, not sound"))
        #expect(!ForeignFormat.isoMedia(brand: "heic").explanation(path: "p.heic").contains("ffmpeg"))
    }

    @Test("the ffmpeg command names the file only when it pastes as it is; standard input is INPUT")
    func pastablePaths() {
        #expect(ForeignFormat.webm.explanation(path: "dir/take-2.webm").hasSuffix("ffmpeg -i dir/take-2.webm -c:a pcm_f32le out.wav"))
        #expect(ForeignFormat.webm.explanation(path: "my take.webm").hasSuffix("ffmpeg -i FILE -c:a pcm_f32le out.wav"))
        #expect(ForeignFormat.webm.explanation(path: "$(rm x).webm").hasSuffix("ffmpeg -i FILE -c:a pcm_f32le out.wav"))
        #expect(ForeignFormat.webm.explanation(path: "-rf.webm").hasSuffix("ffmpeg -i FILE -c:a pcm_f32le out.wav"))
        #expect(ForeignFormat.webm.explanation(path: "-").hasSuffix("ffmpeg -i INPUT -c:a pcm_f32le out.wav"))
    }

    @Test("random bytes, text and truncated signatures look like nothing")
    func noFalsePositives() {
        var generator = SeededGenerator(seed: 4096)
        var recognised = 0
        for _ in 0..<2000 {
            let bytes = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if ForeignFormat.sniff(bytes) != nil { recognised += 1 }
        }
        #expect(recognised == 0, "\(recognised) of 2000 random buffers recognised")
        #expect(ForeignFormat.sniff(Array("time_s,left_rms_dbfs\n0.1,-20\n".utf8)) == nil)
        #expect(ForeignFormat.sniff([]) == nil && ForeignFormat.sniff([0xFF]) == nil && ForeignFormat.sniff(Array("ID3".utf8)) == nil)
        // An ADTS sync whose frame length points at something that is not the next header.
        #expect(ForeignFormat.sniff([0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC] + [UInt8](repeating: 0, count: 64)) == nil)
    }
}
