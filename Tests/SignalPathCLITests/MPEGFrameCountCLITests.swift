import Foundation
import Testing
import SignalPathTestSupport

/// MP3s whose first frame holds no encoder's table (Xing, Info, VBRI; `lame -t`), whose length only
/// their frames tell: read to their last frame, against ffmpeg's decode of the same files.
@Suite("MP3 without a frame table")
struct MPEGFrameCountCLITests {
    let scratch = ScratchDirectory("mpeg-frames")

    /// 3 s of near silence, then 5 s of a loud 440 Hz tone in noise: a VBR encoder's first frames
    /// are its smallest, so an estimate from them falls far short; the peak lies in the last part.
    func source(rate: Int) throws -> String {
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        let path = scratch.file("source-\(rate).wav")
        let made = try run(
            sox,
            [
                "-R", "-n", "-r", "\(rate)", "-c", "2", "-b", "16", path, "synth", "8", "sine", "440", "synth", "8", "whitenoise", "amod", "0.3",
                "fade", "h", "3", "8", "0", "gain", "-n", "-1",
            ])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    /// `source` encoded by lame with `options` and no frame table (`-t`).
    func encode(_ source: String, _ name: String, _ options: [String]) throws -> String {
        let path = scratch.file(name)
        let made = try run(try #require(which("lame"), "lame is missing: run `make setup`"), ["--quiet", "-t"] + options + [source, path])
        try #require(made.status == 0, "\(name): \(made.stderr)")
        return path
    }

    /// ffmpeg's decode of `path` as interleaved Float samples.
    func ffmpegSamples(_ path: String) throws -> [Float] {
        let decoded = try run(try #require(which("ffmpeg")), ["-v", "error", "-nostdin", "-i", path, "-f", "f32le", "-"])
        try #require(decoded.status == 0, "\(decoded.stderr)")
        return decoded.stdoutData.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test("VBR, CBR and MPEG-2 MP3s without a table: info's frames and analyze's duration and peak are ffmpeg's decode's")
    func readToTheLastFrame() throws {
        let cases: [(name: String, rate: Int, options: [String])] = [
            ("vbr.mp3", 44100, ["-V", "2"]), ("cbr.mp3", 44100, ["-b", "128"]), ("mpeg2-vbr.mp3", 22050, ["-V", "5"]),
        ]
        for (name, rate, options) in cases {
            let path = try encode(try source(rate: rate), name, options)
            let reference = try ffmpegSamples(path)
            let frames = reference.count / 2
            let info = try #require((try json(try signalpath("info", path, "--format", "json"))["files"] as? [[String: Any]])?.first)
            #expect(info["frames"] as? Int == frames, "\(name): info \(info["frames"] ?? "none"), ffmpeg \(frames)")
            #expect(info["truncated"] as? Bool == false, "\(name)")
            let analyzed = try signalpath("analyze", path, "--format", "json")
            #expect(analyzed.status == 0, "\(name): \(analyzed.stderr)")
            let file = try #require((try json(analyzed)["files"] as? [[String: Any]])?.first, "\(name): \(analyzed.stderr)")
            let range = try #require(file["range"] as? [String: Any], "\(name)")
            #expect(range["end_frame"] as? Int == frames, "\(name): analyze read to \(range["end_frame"] ?? "none"), ffmpeg \(frames)")
            let channels = try #require(file["channels"] as? [[String: Any]], "\(name)")
            let peak = try #require(channels.first?["peak_dbfs"] as? Double, "\(name)")
            let left = stride(from: 0, to: reference.count, by: 2).map { abs(reference[$0]) }.max() ?? 0
            // Two decimals in JSON; mpg123 and ffmpeg's decoders agree to far less than that.
            #expect(abs(peak - 20 * log10(Double(left))) <= 0.006, "\(name): peak \(peak) dBFS, ffmpeg's decode \(20 * log10(Double(left)))")
            // The last seconds are there to ask for.
            let tail = try signalpath("analyze", path, "--range", "6s..7s", "--format", "json")
            #expect(tail.status == 0, "\(name): \(tail.stderr)")
        }
    }
}
