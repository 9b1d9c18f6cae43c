import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// Where the audio of MPEG audio files lies, on files made by ffmpeg's encoders: the frames are
/// walked by the lengths their headers give, from the first audio frame to the end found.
@Suite("Compressed layouts")
struct CompressedLayoutTests {
    let scratch = ScratchDirectory("compressed-layout")

    /// `seconds` of a tone encoded by ffmpeg with `options`; an MP3 with an ID3v1 tag at the end
    /// (ffmpeg writes MP2 raw, without tags).
    func encode(_ name: String, _ options: [String], seconds: Int = 1) throws -> String {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let path = scratch.file(name)
        let made = try run(
            ffmpeg,
            ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds):sample_rate=48000"] + options
                + (name.hasSuffix(".mp3") ? ["-metadata", "title=Tone", "-write_id3v1", "1"] : []) + [path])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    @Test(
        "frame lengths chain from the first audio frame to the tags: MPEG-1, 2 and 2.5, Layer II and III, mono and stereo",
        arguments: [
            ("l3-mpeg1-stereo.mp3", ["-ac", "2", "-ar", "44100", "-c:a", "libmp3lame", "-b:a", "192k"], 44100, 1, 3),
            ("l3-mpeg1-vbr-mono.mp3", ["-ac", "1", "-ar", "32000", "-c:a", "libmp3lame", "-q:a", "6"], 32000, 1, 3),
            ("l3-mpeg2.mp3", ["-ac", "2", "-ar", "22050", "-c:a", "libmp3lame", "-b:a", "64k"], 22050, 2, 3),
            ("l3-mpeg25-mono.mp3", ["-ac", "1", "-ar", "8000", "-c:a", "libmp3lame", "-b:a", "16k"], 8000, 25, 3),
            ("l2.mp2", ["-ac", "2", "-ar", "48000", "-c:a", "mp2", "-b:a", "160k"], 48000, 1, 2),
        ])
    func framesChain(name: String, options: [String], rate: Int, version: Int, layer: Int) throws {
        let path = try encode(name, options)
        let file = try CachedFile(path: path)
        let layout = try #require(CompressedLayout.read(FileCursor(file: file), size: file.size, container: .mpeg), "\(name)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The ID3v1 tag that ends an MP3 is not audio.
        let tag = name.hasSuffix(".mp3") ? 128 : 0
        #expect(layout.audio.upperBound == Int64(bytes.count - tag))
        #expect(tag == 0 || bytes[bytes.count - 128..<bytes.count - 125].elementsEqual("TAG".utf8))
        var offset = Int(layout.audio.lowerBound), frames = 0
        while offset < Int(layout.audio.upperBound) {
            let frame = try #require(CompressedLayout.MPEGFrame(bytes[offset...]), "\(name): no frame header at \(offset)")
            #expect(frame.sampleRate == rate && frame.version == version && frame.layer == layer, "\(name): \(frame)")
            offset += frame.length
            frames += 1
        }
        #expect(offset == Int(layout.audio.upperBound), "\(name): the last frame ends at \(offset), the audio at \(layout.audio.upperBound)")
        // A second of audio, give or take the encoder's delay and padding, in frames of this size.
        let samples = try #require(CompressedLayout.MPEGFrame(bytes[Int(layout.audio.lowerBound)...])).samples
        #expect(abs(frames * samples - rate) <= 3 * samples, "\(name): \(frames) frames")
    }

    /// ffprobe's packets of the file's audio stream: (byte position, size), in order.
    func packets(_ path: String) throws -> [(position: Int, size: Int)] {
        let probe = try run(
            try #require(which("ffprobe"), "ffprobe is missing: run `make setup`"),
            ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos,size", "-of", "csv=p=0", path])
        try #require(probe.status == 0, "\(probe.stderr)")
        return try probe.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: ",").compactMap { Int($0) }
            try #require(fields.count == 2, "\(line)")
            return (fields[1], fields[0])
        }
    }

    @Test("an MP3 without a table: its frames counted as ffmpeg's demuxer finds them, past 3000 bytes of junk between two; nil, at once, for a file cut while it is walked")
    func untabledWalk() throws {
        // 80 s at 128 kb/s (1.3 MB, past the walk's first 1 MiB read) without a Xing or Info frame
        // (-write_xing 0): frames of 1152 samples.
        let path = try encode("untabled.mp3", ["-ac", "2", "-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0"], seconds: 80)
        let walked = { (path: String) in CompressedLayout.untabledMPEGSamples(FileCursor(file: try CachedFile(path: path)), size: try CachedFile(path: path).size) }
        let clean = try packets(path)
        try #require(clean.count > 300, "\(clean.count) packets")
        #expect(try walked(path) == Int64(clean.count * 1152))
        // Seeded junk before the middle frame, without 0xFF (no false frame in it for either to
        // take): the demuxer resyncs past it, and so does the walk.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var generator = SeededGenerator(seed: 7)
        bytes.insert(contentsOf: (0..<3000).map { _ in UInt8.random(in: 0...0xFE, using: &generator) }, at: clean[clean.count / 2].position)
        let junk = scratch.file("junk.mp3")
        try Data(bytes).write(to: URL(fileURLWithPath: junk))
        let resynced = try packets(junk)
        #expect(resynced.count == clean.count && resynced.contains { $0.size > 3000 }, "ffprobe: \(resynced.count) packets")
        #expect(try walked(junk) == Int64(resynced.count * 1152))
        // Cut 50 kB short after its size was taken: the walk's second read comes back short, and
        // the walk gives up rather than count what is left.
        let file = try CachedFile(path: junk)
        #expect(truncate(junk, off_t(bytes.count - 50_000)) == 0)
        #expect(CompressedLayout.untabledMPEGSamples(FileCursor(file: file), size: Int64(bytes.count)) == nil)
    }
}
