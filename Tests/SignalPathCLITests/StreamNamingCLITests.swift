import Foundation
import Testing
import SignalPathTestSupport

/// Every report names the stream it measured: with `--stream 1`, or in a file of several audio
/// streams, the text head, the chart title and the JSON say which (`path · stream 1 (codec,
/// language, "title")`, `"stream": {index, codec, language, title}`), and the figures are those of
/// that stream, as ffmpeg extracts it. A file of one stream read without `--stream` is named as
/// before: by its path alone.
@Suite("the measured stream is named")
struct StreamNamingCLITests {
    let scratch = ScratchDirectory("stream-naming")

    /// The second stream's title, with an escape sequence that would turn a terminal red.
    static let hostileTitle = "Kommentar \u{1B}[31mrot"
    /// How the reports show that title: escaped, never the escape itself.
    static let shownTitle = #""Kommentar \e[31mrot""#

    /// A Matroska file of two audio streams of different content: 0 is AAC, a 440 Hz tone at
    /// -27 dBFS, English, titled "Main"; 1 is Opus, 1 kHz at -21 dBFS with a 0.4 s gap of silence
    /// in the middle, German, with `hostileTitle`. `extracted` is stream 1 as ffmpeg decodes it,
    /// in a float WAV: the samples signalpath's FFmpeg decoder gives for `--stream 1`.
    func twoStreams() throws -> (path: String, extracted: String) {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let path = scratch.file("two streams.mkv"), extracted = scratch.file("stream1.wav")
        let made = try run(
            ffmpeg,
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:duration=4:sample_rate=48000", "-f", "lavfi", "-i",
                "sine=frequency=1000:duration=4:sample_rate=48000", "-filter_complex",
                "[0:a]volume=-8.97dB[a];[1:a]volume=-2.95dB,volume=enable='between(t,1.8,2.2)':volume=0[b]", "-map", "[a]", "-map", "[b]",
                "-c:a:0", "aac", "-b:a:0", "96k", "-c:a:1", "libopus", "-b:a:1", "96k", "-metadata:s:a:0", "language=eng", "-metadata:s:a:0",
                "title=Main", "-metadata:s:a:1", "language=deu", "-metadata:s:a:1", "title=\(Self.hostileTitle)", path,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let extract = try run(ffmpeg, ["-v", "error", "-nostdin", "-i", path, "-map", "0:a:1", "-c:a", "pcm_f32le", extracted])
        try #require(extract.status == 0, "\(extract.stderr)")
        return (path, extracted)
    }

    /// The first file's object of a JSON document.
    func firstFile(_ result: ProcessResult) throws -> [String: Any] {
        try #require(((try json(result))["files"] as? [[String: Any]])?.first, "\(result.stdout)\(result.stderr)")
    }

    /// The `stream` object a JSON entry names stream 1 with.
    func namesStreamOne(_ object: [String: Any]) -> Bool {
        guard let stream = object["stream"] as? [String: Any] else { return false }
        return stream["index"] as? Int == 1 && stream["codec"] as? String == "opus" && stream["language"] as? String == "deu"
            && stream["title"] as? String == Self.hostileTitle
    }

    /// The object without the members that name the source, and without where the channel layout
    /// was read (the Matroska stream's, the WAV's channel mask).
    func measurements(_ object: [String: Any]) -> [String: Any] {
        var kept = object.filter { $0.key != "path" && $0.key != "stream" }
        if var conventions = kept["conventions"] as? [String: Any] {
            conventions["channel_layout"] = nil
            kept["conventions"] = conventions
        }
        return kept
    }

    @Test("text heads name the stream, its title escaped; JSON carries it as an object; the figures are stream 1's")
    func everyCommand() throws {
        let (path, extracted) = try twoStreams()
        let head = "\(path) · stream 1 (opus, deu, \(Self.shownTitle))"

        // Text reports: the head names the stream; no escape byte reaches the terminal.
        let texts: [(command: [String], line: String)] = [
            (["info"], head), (["analyze"], head), (["check", "--profile", "ebu-r128"], head + " · ebu-r128 · FAILED"),
            (["events"], head + "  ("), (["spectrum", "--format", "text"], head),
        ]
        for (command, line) in texts {
            let result = try signalpath(command + [path, "--stream", "1"])
            let first = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
            #expect(line.hasSuffix("(") ? first.hasPrefix(line) : first == line, "\(command): \(result.stdout)\(result.stderr)")
            #expect(!result.stdout.contains("\u{1B}"), "\(command): an escape byte reached the terminal")
        }
        // Terminal pictures: the title, their first line (no colour when piped with --format plot).
        for command in [["loudness"], ["spectrum"], ["spectrogram"], ["waveform"]] {
            let result = try signalpath(command + [path, "--stream", "1", "--format", "plot", "--width", "300", "--color", "never"])
            let title = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
            #expect(title.hasPrefix(head + " · "), "\(command): \(title) \(result.stderr)")
            #expect(!result.stdout.contains("\u{1B}[31m"), "\(command): the title's escape sequence reached the terminal")
        }
        // A chart file: its title is the path, the stream opens the subtitle.
        if which("pdftotext") != nil {
            let chart = scratch.file("loudness.pdf")
            #expect(try signalpath("loudness", path, "--stream", "1", "--output", chart).status == 0)
            let text = try run(which("pdftotext")!, [chart, "-"]).stdout
            #expect(text.contains("stream 1 (opus, deu, \"Kommentar \\"), "\(text)")
        }

        // JSON: `stream` follows `path`, and the figures equal those of the extracted stream.
        for command in [
            ["analyze"], ["check", "--profile", "ebu-r128"], ["loudness"], ["events"], ["spectrum"], ["spectrogram"], ["waveform"],
        ] {
            let named = try firstFile(try signalpath(command + [path, "--stream", "1", "--format", "json"]))
            #expect(namesStreamOne(named), "\(command): \(named["stream"] ?? "no stream")")
            let reference = try firstFile(try signalpath(command + [extracted, "--format", "json"]))
            #expect(reference["stream"] == nil, "\(command): a WAV read without --stream is named by its path alone")
            var ours = measurements(named), theirs = measurements(reference)
            if command == ["analyze"] {
                // The container, codec and what follows from them (lossy origin) are the file's.
                for key in ["format", "authenticity", "channels"] {
                    ours[key] = nil
                    theirs[key] = nil
                }
            }
            #expect(NSDictionary(dictionary: ours) == NSDictionary(dictionary: theirs), "\(command): stream 1's figures differ from the extracted stream's")
        }
        // NDJSON lines are whole on their own: each names the stream.
        for command in [["loudness"], ["events"], ["spectrogram"]] {
            let result = try signalpath(command + [path, "--stream", "1", "--format", "ndjson"])
            let lines = result.stdout.split(separator: "\n")
            #expect(!lines.isEmpty && result.status == 0, "\(command): \(result.stderr)")
            for line in lines {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(namesStreamOne(object), "\(command): \(line)")
            }
        }
        // The measured values are stream 1's, not stream 0's: lavfi's tones are at 1/8 of full scale
        // (-18.06 dBFS), turned down by 2.95 and 8.97 dB (lossy coders move peaks by tenths of a dB).
        let second = try firstFile(try signalpath("analyze", path, "--stream", "1", "--format", "json"))
        let first = try firstFile(try signalpath("analyze", path, "--format", "json"))
        let peakSecond = try #require((second["levels"] as? [String: Any])?["peak_dbfs"] as? Double)
        let peakFirst = try #require((first["levels"] as? [String: Any])?["peak_dbfs"] as? Double)
        #expect(abs(peakSecond + 21.01) < 0.5 && abs(peakFirst + 27.03) < 0.8, "peaks \(peakSecond), \(peakFirst)")
        let stream0 = try #require(first["stream"] as? [String: Any])
        #expect(stream0["index"] as? Int == 0 && stream0["codec"] as? String == "aac" && stream0["title"] as? String == "Main")
    }

    @Test("a file of one stream is named by its path, unless --stream chose the stream")
    func singleStream() throws {
        let path = sample("sine-1k-48k-s16-mono.wav")
        let plain = try signalpath("analyze", path)
        #expect(plain.stdout.split(separator: "\n").first.map(String.init) == path)
        #expect(try firstFile(try signalpath("analyze", path, "--format", "json"))["stream"] == nil)
        let chosen = try signalpath("analyze", path, "--stream", "0")
        #expect(chosen.stdout.split(separator: "\n").first.map(String.init) == "\(path) · stream 0 (pcm_s16)", "\(chosen.stdout)")
        let object = try firstFile(try signalpath("analyze", path, "--stream", "0", "--format", "json"))
        #expect((object["stream"] as? [String: Any])?["index"] as? Int == 0)
    }

    @Test("scan's rows of a file of several streams name the one analysed (the first)")
    func scanRow() throws {
        let (path, _) = try twoStreams()
        let database = scratch.file("streams.db")
        let scanned = try signalpath("scan", path, "--db", database)
        #expect(scanned.status == 0, "\(scanned.stderr)")
        let exported = try signalpath("export", database)
        let line = try #require(exported.stdout.split(separator: "\n").first)
        let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let stream = try #require((row["result"] as? [String: Any])?["stream"] as? [String: Any], "\(line)")
        #expect(stream["index"] as? Int == 0 && stream["language"] as? String == "eng")
    }
}
