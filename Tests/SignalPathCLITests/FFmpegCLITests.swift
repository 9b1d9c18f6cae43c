import Foundation
import Testing
import SignalPathTestSupport

/// The FFmpeg backend from the command line: `--stream`, the stream list of `info`, a video
/// without sound, and a compressed container on standard input.
@Suite("FFmpeg backend from the command line")
struct FFmpegCLITests {
    let scratch = ScratchDirectory("ffmpeg-cli")

    /// A Matroska file with two audio streams: 0 is a 440 Hz mono AAC stream (English), 1 a
    /// stereo Opus stream of 1 kHz left and 3 kHz right (titled "Commentary").
    func twoStreams() throws -> String {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let path = scratch.file("two.mkv")
        let made = try run(
            ffmpeg,
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:duration=1:sample_rate=48000", "-f", "lavfi", "-i",
                "sine=frequency=1000:duration=1:sample_rate=48000", "-f", "lavfi", "-i", "sine=frequency=3000:duration=1:sample_rate=48000",
                "-filter_complex", "[1:a][2:a]join=inputs=2:channel_layout=stereo[s]", "-map", "0:a", "-map", "[s]", "-c:a:0", "aac",
                "-c:a:1", "libopus", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "title=Commentary", path,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    @Test("--stream 1 analyses the second audio stream (ffmpeg's 0:a:1); info lists both with their tags")
    func streamSelection() throws {
        let path = try twoStreams()
        let first = try signalpath("analyze", path, "--format", "json", "--tones", "1")
        let second = try signalpath("analyze", path, "--format", "json", "--tones", "1", "--stream", "1")
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        let channelsFirst = try #require(jsonFile(first.stdoutData)?["channels"] as? [[String: Any]])
        let channelsSecond = try #require(jsonFile(second.stdoutData)?["channels"] as? [[String: Any]])
        #expect(channelsFirst.count == 1 && channelsSecond.count == 2)
        let info = try signalpath("info", path)
        #expect(info.stdout.contains("stream 0") && info.stdout.contains("eng") && info.stdout.contains("\"Commentary\""), "\(info.stdout)")
        let json = try #require(jsonFile(try signalpath("info", path, "--format", "json", "--stream", "1").stdoutData))
        let streams = try #require(json["streams"] as? [[String: Any]])
        #expect(json["stream"] as? Int == 1 && streams.count == 2 && streams[1]["codec"] as? String == "opus" && streams[0]["language"] as? String == "eng")
        let missing = try signalpath("analyze", path, "--stream", "2")
        #expect(missing.status == 64 && missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("2 audio streams"), "\(missing.stderr)")
    }

    @Test("a video without sound: one line, exit 65")
    func videoOnly() throws {
        let ffmpeg = try #require(which("ffmpeg"))
        let path = scratch.file("video.mp4")
        #expect(try run(ffmpeg, ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=32x24:rate=5:duration=0.4", "-c:v", "mpeg4", path]).status == 0)
        let result = try signalpath("analyze", path)
        #expect(result.status == 65 && result.stderr == "signalpath: \(path): no audio stream (video only)\n", "\(result.stderr)")
    }

    @Test("an M4A on standard input is spooled and read like the file")
    func standardInput() throws {
        let ffmpeg = try #require(which("ffmpeg"))
        let path = scratch.file("memo.m4a")
        #expect(try run(ffmpeg, ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.5:sample_rate=44100", "-c:a", "aac", path]).status == 0)
        let direct = try signalpath("info", path, "--format", "csv")
        let piped = try signalpath(["info", "-", "--format", "csv"], input: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(piped.status == 0, "\(piped.stderr)")
        // The same row but for the path.
        #expect(direct.stdout.split(separator: "\n").last?.split(separator: ",").dropFirst() == piped.stdout.split(separator: "\n").last?.split(separator: ",").dropFirst())
    }

    /// The first file's object of a JSON document.
    func jsonFile(_ data: Data) -> [String: Any]? {
        ((try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["files"] as? [[String: Any]])?.first
    }
}
