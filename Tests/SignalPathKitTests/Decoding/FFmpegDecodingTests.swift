import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// Files libsndfile does not read, encoded by the ffmpeg CLI from a known signal and decoded
/// through FFmpeg's libraries: lengths, rates, channels and samples must equal ffmpeg's own
/// decode (`ffmpeg -i F -map 0:a:N -f f32le -`), bit for bit.
@Suite("FFmpeg backend: decodes as ffmpeg does")
struct FFmpegDecodingTests {
    let scratch = ScratchDirectory("ffmpeg")

    /// Runs the ffmpeg CLI (from `make setup`) and returns its standard output.
    @discardableResult
    func ffmpeg(_ arguments: [String]) throws -> Data {
        let tool = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let result = try run(tool, ["-v", "error", "-nostdin"] + arguments)
        try #require(result.status == 0, "ffmpeg \(arguments): \(result.stderr)")
        return result.stdoutData
    }

    /// ffmpeg's decode of audio stream `stream` of `path` as interleaved Float.
    func reference(_ path: String, stream: Int = 0) throws -> [Float] {
        let bytes = try ffmpeg(["-i", path, "-map", "0:a:\(stream)", "-f", "f32le", "-"])
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// A stereo source: different tones and noise per channel, so a channel swap or a shift shows.
    func source(seconds: Double = 1, rate: Int = 48_000) -> String {
        let frames = Int(seconds * Double(rate))
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: rate)
        return scratch.write("source-\(rate)-\(frames).wav", builder.file(samples: testSignal(channels: 2, frames: frames, sampleRate: rate)))
    }

    static let encodings: [(name: String, arguments: [String], container: Container, codec: String)] = [
        ("aac.m4a", ["-c:a", "aac"], .mp4, "aac"),
        ("alac.m4a", ["-c:a", "alac"], .mp4, "alac"),
        ("opus.mkv", ["-c:a", "libopus"], .matroska, "opus"),
        ("vorbis.webm", ["-c:a", "libvorbis"], .webm, "vorbis"),
        ("tone.ac3", ["-c:a", "ac3"], .ac3, "ac3"),
        ("tone.eac3", ["-c:a", "eac3"], .eac3, "eac3"),
        ("tone.wma", ["-c:a", "wmav2"], .asf, "wmav2"),
    ]

    @Test("frames, rate, channels and samples equal ffmpeg's decode; a range read after a seek equals the same frames", arguments: encodings.indices)
    func decodesLikeFFmpeg(index: Int) throws {
        let (name, arguments, container, codec) = Self.encodings[index]
        let path = scratch.file(name)
        try ffmpeg(["-i", source(), "-y"] + arguments + [path])
        let expected = try reference(path)
        let file = try AudioFile.open(path)
        #expect(file.usesFFmpeg && file.format.container == container && file.streams.map(\.codec) == [codec], "\(name)")
        #expect(file.format.sampleRate == 48_000 && file.format.channels == 2)
        #expect(file.format.frames == Int64(expected.count / 2), "\(name): \(String(describing: file.format.frames)) frames, ffmpeg \(expected.count / 2)")
        #expect(firstBitDifference(try file.readFrames(0..<file.format.frames!), expected) == nil, "\(name)")
        #expect(file.format.channelLayout.names == ["left", "right"])
        let range: Range<Int64> = 30_000..<31_000
        #expect(firstBitDifference(try file.readFrames(range), Array(expected[60_000..<62_000])) == nil, "\(name) after a seek")
    }

    @Test("an M4A long enough to be counted from its end: its length and ranges anywhere are ffmpeg's, bit for bit")
    func indexedM4A() throws {
        let path = scratch.file("ten.m4a")
        try ffmpeg(["-i", source(seconds: 10), "-y", "-c:a", "aac", path])
        let expected = try reference(path)
        let file = try AudioFile.open(path)
        let frames = try #require(file.format.frames)
        #expect(frames == Int64(expected.count / 2))
        let starts: [Int64] = [0, 1, 1023, 1024, 30_000, 123_457, 300_000, frames - 5000]
        for start in starts {
            let range = start..<min(start + 4000, frames)
            let samples = try file.readFrames(range)
            #expect(firstBitDifference(samples, Array(expected[Int(range.lowerBound) * 2..<Int(range.upperBound) * 2])) == nil, "from \(start)")
        }
    }

    /// Workers take chunks in turn, each reader skipping the chunks the others took: one shared
    /// decode serves them, so with AAC's noise substitution (ffmpeg's default, which a seek
    /// re-draws) every chunk still equals ffmpeg's decode from the start. A reader sent back to
    /// the start, behind the blocks kept, decodes on its own and gets the same samples.
    @Test("readers taking chunks in turn, and one sent back to the start, get ffmpeg's decode of an AAC with PNS, bit for bit")
    func sharedDecode() throws {
        let path = scratch.file("chunks.m4a")
        try ffmpeg(["-i", source(seconds: 10), "-y", "-c:a", "aac", path])
        let expected = try reference(path)
        let file = try AudioFile.open(path)
        let frames = try #require(file.format.frames)
        let readers = try (0..<3).map { _ in try file.makeReader() }
        let chunk: Int64 = 70_001  // not a multiple of the blocks or of AAC's 1024-frame packets
        var decoded = [Float](repeating: 0, count: Int(frames) * 2)
        for (index, start) in stride(from: Int64(0), to: frames, by: Int(chunk)).enumerated() {
            let range = start..<min(frames, start + chunk)
            let samples = try readers[index % readers.count].readFrames(range)
            #expect(samples.count == range.count * 2)
            decoded.replaceSubrange(Int(start) * 2..<Int(start) * 2 + samples.count, with: samples)
        }
        #expect(firstBitDifference(decoded, expected) == nil)
        let again = try readers[0].readFrames(0..<48_000)
        #expect(firstBitDifference(again, Array(expected[0..<96_000])) == nil, "after going back to the start")
    }

    /// Reads 4000 frames from each of `starts` with a decoder that seeks by the index every time.
    func readByIndex(_ path: String, starts: [Int64]) throws -> [[Float]] {
        let decoder = try FFmpeg(cursor: FileCursor(file: try CachedFile(path: path)), path: path, stream: nil)
        decoder.forwardDecodeSeconds = 0
        return try starts.map { start in
            try decoder.seek(toFrame: start)
            let samples = SampleScratch(count: 8000)
            #expect(try decoder.read(into: samples.samples, frames: 4000) == 4000)
            return Array(samples.samples)
        }
    }

    /// Without noise substitution an AAC decoder's state is its last packet: 0.5 s of preroll
    /// gives the samples of a decode from the start. With PNS (ffmpeg's default), the noise of
    /// substituted bands is drawn again after a seek: the waveform differs (by up to 0.46 on this
    /// signal's noise), the level of the range does not, beyond the bound tested here.
    @Test("after a seek by the MP4 index: bit-identical without PNS; with PNS, the level of the range within 0.1 dB")
    func indexSeekBound() throws {
        let starts: [Int64] = [30_000, 123_457, 300_000, 470_000]
        let exact = scratch.file("no-pns.m4a"), noisy = scratch.file("pns.m4a")
        try ffmpeg(["-i", source(seconds: 10), "-y", "-c:a", "aac", "-aac_pns", "0", exact])
        try ffmpeg(["-i", source(seconds: 10), "-y", "-c:a", "aac", noisy])
        let exactReference = try reference(exact)
        for (start, samples) in zip(starts, try readByIndex(exact, starts: starts)) {
            #expect(firstBitDifference(samples, Array(exactReference[Int(start) * 2..<Int(start) * 2 + 8000])) == nil, "from \(start)")
        }
        let noisyReference = try reference(noisy)
        func level(_ samples: ArraySlice<Float>) -> Double { 10 * log10(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)) }
        for (start, samples) in zip(starts, try readByIndex(noisy, starts: starts)) {
            let difference = level(samples[...]) - level(noisyReference[Int(start) * 2..<Int(start) * 2 + 8000])
            #expect(abs(difference) < 0.1, "from \(start): \(difference) dB")
        }
    }

    @Test("AAC in an MP4 with a video track: the audio stream is found and decoded")
    func soundtrackOfVideo() throws {
        let path = scratch.file("video.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1", "-i", source(), "-y", "-c:v", "mpeg4", "-c:a", "aac", "-shortest", path])
        let expected = try reference(path)
        let file = try AudioFile.open(path)
        #expect(file.streams.count == 1 && file.format.frames == Int64(expected.count / 2))
        #expect(firstBitDifference(try file.readFrames(0..<file.format.frames!), expected) == nil)
    }

    @Test("a file with two audio streams: stream 1 is ffmpeg's 0:a:1, tags and layouts listed; a stream that is not there is refused")
    func twoStreams() throws {
        let path = scratch.file("two.mkv")
        try ffmpeg([
            "-i", source(), "-f", "lavfi", "-i", "sine=frequency=440:duration=1:sample_rate=44100", "-y", "-map", "1", "-map", "0",
            "-c:a:0", "aac", "-c:a:1", "libopus", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "title=Commentary", path,
        ])
        let first = try AudioFile.open(path)
        #expect(first.streams.count == 2 && first.streamNumber == 0 && first.format.channels == 1 && first.format.sampleRate == 44_100)
        #expect(first.streams[0].language == "eng" && first.streams[1].title == "Commentary" && first.streams[1].codec == "opus")
        let second = try AudioFile.open(path, stream: 1)
        let expected = try reference(path, stream: 1)
        #expect(second.format.channels == 2 && second.format.frames == Int64(expected.count / 2))
        #expect(firstBitDifference(try second.readFrames(0..<second.format.frames!), expected) == nil)
        #expect(throws: SignalPathError.self) { try AudioFile.open(path, stream: 2) }
        do {
            _ = try AudioFile.open(path, stream: 2)
        } catch {
            #expect(error.category == .usage && error.reason.hasSuffix("the file has 2 audio streams (0 to 1)"))
        }
    }

    @Test("a video without sound: one error, bad data")
    func videoOnly() throws {
        let path = scratch.file("silent.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1", "-y", "-c:v", "mpeg4", path])
        #expect(throws: SignalPathError.unrecognizedFormat(path: path, reason: "no audio stream (video only)")) { try AudioFile.open(path) }
    }

    @Test("5.1 AC-3: the stream's layout names the channels, as ffprobe names the layout (5.1(side))")
    func surroundLayout() throws {
        let path = scratch.file("surround.ac3")
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:duration=0.5:sample_rate=48000", "-y", "-af", "pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0", "-c:a", "ac3", path])
        let file = try AudioFile.open(path)
        #expect(file.format.channelLayout.names == ["FL", "FR", "FC", "LFE", "SL", "SR"] && file.format.channelLayout.source == .stream)
        #expect(file.format.channelLayout.name == "5.1(side)")
    }

    /// A 2-hour M4A built without a 2-hour encode: 10 s of ADTS frames repeated 720 times (their
    /// timestamps then run on without gaps), stream-copied into MP4 (the index at the end). Without
    /// noise substitution an AAC-LC decoder's state at a piece's start is the previous piece's last
    /// frame, so ffmpeg's decode of pieces 718–719 is its decode of pieces 1–2 of three: the
    /// reference for the range, bit for bit (with PNS, `indexSeekBound` holds the level).
    @Test("a range near the end of a 2-hour M4A reads the index and the bytes near it, not the file, and equals ffmpeg's decode")
    func longM4A() throws {
        let adts = scratch.file("ten.aac")
        try ffmpeg(["-i", source(seconds: 10), "-y", "-c:a", "aac", "-aac_pns", "0", "-b:a", "64k", "-f", "adts", adts])
        let piece = try Data(contentsOf: URL(fileURLWithPath: adts))
        let three = scratch.file("three.aac")
        try (piece + piece + piece).write(to: URL(fileURLWithPath: three))
        let long = scratch.file("long.aac")
        FileManager.default.createFile(atPath: long, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: long))
        for _ in 0..<720 { handle.write(piece) }
        try handle.close()
        let m4a = scratch.file("long.m4a")
        try ffmpeg(["-i", long, "-y", "-c", "copy", m4a])
        try FileManager.default.removeItem(atPath: long)

        let pieceFrames = Int64(try reference(adts).count / 2)
        let file = try AudioFile.open(m4a)
        let frames = try #require(file.format.frames)
        #expect(frames == 720 * pieceFrames, "ADTS frames decode one after another: 720 times the piece")
        let start = frames - 96_000
        let samples = try file.readFrames(start..<start + 48_000)
        #expect(samples.count == 96_000)
        let last = start - 719 * pieceFrames
        try #require(last >= 0)
        let expected = try reference(three)[Int(2 * pieceFrames + last) * 2..<Int(2 * pieceFrames + last) * 2 + 96_000]
        #expect(firstBitDifference(samples, Array(expected)) == nil, "the range against ffmpeg's decode of the same pieces")
        let size = try #require(file.source?.size)
        let read = file.source!.reader.statistics.bytesRead
        // The index (~2.8 MB of sample sizes and offsets), 1 MiB blocks around the range and read-ahead.
        #expect(read < 8 << 20 && read * 5 < size, "\(read) of \(size) bytes read")
    }
}
