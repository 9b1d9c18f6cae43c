import Foundation
import Testing
import SignalPathTestSupport

/// Files shorter than their headers say: used as far as they go, with one line on stderr and the
/// promise in the reports, as sox's "premature EOF" and ffmpeg's partial decode.
@Suite("truncated files: analysed as far as they go, said once")
struct TruncationTests {
    let scratch = ScratchDirectory("truncated")

    /// A header that promises 2 s of 48 kHz stereo 16-bit (96 000 frames) over 1000 bytes of data.
    func truncatedFile(_ container: PCMFileBuilder.Container = .wav) -> (path: String, promised: Int, present: Int) {
        let rate = 48_000
        let builder = PCMFileBuilder(container: container, encoding: .signed16, channels: 2, sampleRate: rate)
        let tone = (0..<500).map { 0.5 * sin(Double($0 / 2) * 2 * .pi * 1000 / Double(rate)) }
        let bytes = builder.header(dataBytes: UInt64(2 * rate * builder.bytesPerFrame)) + builder.sampleBytes(tone)
        return (scratch.write("cut-\(container).\(container.fileExtension)", bytes), 2 * rate, 500 / 2)
    }

    @Test("sox reads the same frames and calls it a premature EOF: the fact the tests below rest on")
    func soxAgrees() throws {
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        let file = truncatedFile()
        let result = try run(sox, [file.path, "-t", "raw", "-"])
        #expect(result.stdoutData.count == file.present * 4)
        #expect(result.stderr.contains("Premature EOF"))
    }

    @Test("every command: exit 0, one line naming the frames promised and present", arguments: ["info", "analyze", "loudness", "spectrum", "spectrogram", "replay"])
    func oneLine(command: String) throws {
        let file = truncatedFile()
        let arguments = command == "replay" ? ["replay", "--no-realtime", file.path] : [command, "--format", "json", file.path]
        let result = try signalpath(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let use = ["info": "", "replay": "; replaying those"][command] ?? "; analysing those"
        #expect(result.stderr == "signalpath: \(file.path): truncated: the header promises 96 000 frames, 250 are present\(use)\n")
        #expect(!result.stdout.isEmpty)
    }

    @Test("info and analyze state it in JSON: truncated, frames_promised, and the frames that are there")
    func jsonReports() throws {
        let file = truncatedFile()
        let info = try firstFile(signalpath("info", "--format", "json", file.path))
        #expect(info?["truncated"] as? Bool == true)
        #expect(info?["frames_promised"] as? Int == file.promised)
        #expect(info?["frames"] as? Int == file.present)
        let analysis = try firstFile(signalpath("analyze", "--format", "json", file.path))
        let format = try #require(analysis?["format"] as? [String: Any])
        #expect(format["truncated"] as? Bool == true)
        #expect(format["frames_promised"] as? Int == file.promised)
        #expect(format["frames"] as? Int == file.present)
        #expect((analysis?["range"] as? [String: Any])?["end_frame"] as? Int == file.present)
        // A whole file says so too.
        let whole = try firstFile(signalpath("info", "--format", "json", sample("sine-1k-48k-s16-mono.wav")))
        #expect(whole?["truncated"] as? Bool == false)
        #expect(whole?["frames_promised"] is NSNull)
    }

    @Test("the text reports of info and analyze say it")
    func text() throws {
        let file = truncatedFile()
        let info = try signalpath("info", file.path)
        #expect(info.stdout.contains("truncated      the header promises 96 000 frames"))
        let analysis = try signalpath("analyze", "--format", "text", file.path)
        #expect(analysis.stdout.contains("truncated: the header promises 96 000 frames, 250 are present"))
    }

    @Test("every PCM container: the promise is the data chunk's size (AIFF: COMM's frame count)", arguments: PCMFileBuilder.Container.allCases)
    func containers(container: PCMFileBuilder.Container) throws {
        let file = truncatedFile(container)
        let result = try signalpath("info", "--format", "json", file.path)
        #expect(result.status == 0)
        let info = try firstFile(result)
        #expect(info?["frames_promised"] as? Int == file.promised, "\(container)")
        #expect(info?["frames"] as? Int == file.present, "\(container)")
    }

    @Test("a FLAC file cut in half: the frames ffmpeg and sox decode, not 'lost sync' (exit 65)")
    func flac() throws {
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        let whole = scratch.file("tone.flac")
        _ = try run(sox, ["-n", "-r", "48000", "-c", "2", "-b", "16", whole, "synth", "2", "sine", "1000", "vol", "0.5"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        let cut = scratch.write("cut.flac", Array(bytes.prefix(bytes.count / 2)))
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let decoded = try run(ffmpeg, ["-v", "quiet", "-i", cut, "-f", "s16le", "-"]).stdoutData.count / 4
        #expect(decoded > 0 && decoded < 96_000)
        for command in ["info", "analyze", "loudness", "events", "spectrum", "spectrogram"] {
            let result = try signalpath(command, "--format", "json", cut)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("signalpath: \(cut): truncated: the header promises 96 000 frames, \(grouped(decoded)) are present"), "\(command): \(result.stderr)")
        }
        let analysis = try firstFile(signalpath("analyze", "--format", "json", cut))
        #expect((analysis?["range"] as? [String: Any])?["end_frame"] as? Int == decoded)
        // The whole file is not truncated.
        let info = try signalpath("info", whole)
        #expect(info.stderr.isEmpty && !info.stdout.contains("  truncated "))
    }

    @Test("a header whose data is all missing: info describes it, the analysing commands refuse it in one line")
    func nothingPresent() throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: 48_000)
        let path = scratch.write("empty.wav", builder.header(dataBytes: 192_000))
        let info = try signalpath("info", "--format", "json", path)
        #expect(info.status == 0)
        #expect(info.stderr == "signalpath: \(path): truncated: the header promises 48 000 frames, 0 are present\n")
        for command in ["analyze", "spectrum", "spectrogram"] {
            let result = try signalpath(command, "--format", "json", path)
            #expect(result.status == 65, "\(command)")
            #expect(result.stderr == "signalpath: \(path): truncated: the header promises 48 000 frames, none are present\n", "\(command)")
        }
    }

    /// The first entry of a JSON document's `files`.
    private func firstFile(_ result: ProcessResult) throws -> [String: Any]? {
        try #require(json(result)["files"] as? [[String: Any]]).first
    }

    /// 96000 → "96 000", as the messages group digits.
    private func grouped(_ value: Int) -> String {
        var text = String(value)
        var index = text.count - 3
        while index > 0 {
            text.insert(" ", at: text.index(text.startIndex, offsetBy: index))
            index -= 3
        }
        return text
    }
}
