import Foundation
import Testing
import SignalPathTestSupport

/// The messages a new user meets: a command left out or misspelt, a format signalpath cannot
/// read, a recording target without an extension, no sound card, a terminal as standard input.
@Suite("Messages a new user meets")
struct MessagesCLITests {
    let scratch = ScratchDirectory("messages")

    @Test(
        "a missing or misspelt command: one line naming what was probably meant, exit 64",
        arguments: [
            (["take.wav"], "signalpath: take.wav: a command comes first; did you mean 'signalpath info take.wav' or 'signalpath analyze take.wav'?"),
            (["analyse", "take.wav"], "signalpath: analyse: unknown command; did you mean 'signalpath analyze take.wav'?"),
            (["anaylze", "a.wav", "--format", "json"], "signalpath: anaylze: unknown command; did you mean 'signalpath analyze a.wav --format json'?"),
            (["spec", "x.flac"], "signalpath: spec: unknown command; did you mean 'signalpath spectrum x.flac' or 'signalpath spectrogram x.flac'?"),
            (["lufs", "x.wav"], "signalpath: lufs: unknown command; did you mean 'signalpath loudness x.wav'?"),
            (["my take.m4a"], "signalpath: my take.m4a: a command comes first; did you mean 'signalpath info \"my take.m4a\"' or 'signalpath analyze \"my take.m4a\"'?"),
            (["help", "analyse"], "signalpath: analyse: unknown command; did you mean 'signalpath help analyze'?"),
            (
                ["help", "nosuch"],
                "signalpath: nosuch: unknown command; the commands are info, analyze, loudness, check, compare, events, "
                    + "spectrum, spectrogram, waveform, scan, export, merge, duplicates, replay, record, replaygain (see 'signalpath --help')"
            ),
            (
                ["frobnicate"],
                "signalpath: frobnicate: unknown command; the commands are info, analyze, loudness, check, compare, events, "
                    + "spectrum, spectrogram, waveform, scan, export, merge, duplicates, replay, record, replaygain (see 'signalpath --help')"
            ),
        ])
    func mistypedCommand(arguments: [String], line: String) throws {
        let result = try signalpath(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == line + "\n")
        #expect(result.stdout.isEmpty)
    }

    @Test("an existing file named first is taken for a file whatever its name; a terminal escape in it is shown escaped")
    func existingFileFirst() throws {
        let path = scratch.write("notes\u{1B}[31m", Array("hello".utf8))
        let result = try signalpath(path)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("signalpath: \(scratch.path)/notes\\e[31m: a command comes first; did you mean 'signalpath info "))
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test("commands and help for them still work; `signalpath` alone shows the help")
    func commandsUnaffected() throws {
        #expect(try signalpath("help", "analyze").status == 0)
        #expect(try signalpath("info", sample("sine-1k-48k-s16-mono.wav")).status == 0)
        let bare = try signalpath([])
        #expect(bare.status == 0 && bare.stdout.contains("SUBCOMMANDS"))
    }

    @Test("a file libsndfile cannot read goes to FFmpeg: the voice memo a new user tries first is analysed")
    func foreignFormatDecoded() throws {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let m4a = scratch.file("voice.m4a")
        let made = try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.5:sample_rate=44100", "-c:a", "aac", m4a])
        #expect(made.status == 0)
        let result = try signalpath("analyze", m4a, "--format", "json")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let info = try signalpath("info", m4a, "--format", "json")
        #expect(info.stdout.contains("\"decoder\": \"ffmpeg\""), "\(info.stdout)")
    }

    @Test(
        "record: the extension picks the container, and a target without one (or with another) says so and lists them, before any device is opened",
        arguments: [
            ("take", "no extension, and the extension picks the container: one of .wav (RF64 past 4 GB), .rf64, .w64, .flac, .caf or .aiff, as in take.wav"),
            ("take.d/take", "no extension, and the extension picks the container: one of .wav (RF64 past 4 GB), .rf64, .w64, .flac, .caf or .aiff, as in take.wav"),
            ("take.mp3", "cannot write '.mp3' files: the extension picks the container, one of .wav (RF64 past 4 GB), .rf64, .w64, .flac, .caf or .aiff"),
        ])
    func recordExtension(name: String, reason: String) throws {
        let path = scratch.file(name)
        // A device that does not exist: the name is checked first, so its error is the one shown.
        let result = try signalpath("record", path, "--device", "no-such-device")
        #expect(result.status == 64)
        #expect(result.stderr == "signalpath: \(path): \(reason)\n")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("an ALSA device that cannot be opened is named as one, with where to look")
    func alsaDevice() throws {
        let result = try signalpath("record", scratch.file("x.wav"), "--device", "no-such-device", "--duration", "0.1")
        #expect(result.status == 66)
        #expect(
            result.stderr == "signalpath: ALSA device 'no-such-device': cannot open: No such file or directory (no sound card? list devices with arecord -L)\n")
        let replay = try signalpath("replay", sample("sine-1k-48k-s16-mono.wav"), "--play", "--device", "no-such-device")
        #expect(replay.status == 66 && replay.stderr.hasSuffix("(no sound card? list devices with aplay -L)\n"), "\(replay.stderr)")
    }

    /// Runs signalpath in a real pseudo-terminal with a plan of keys (Tests/Reference/pty_drive.py).
    func inPseudoTerminal(_ plan: String, _ arguments: [String]) throws -> [String: Any] {
        let result = try run(
            try #require(which("python3")), [repositoryRoot + "/Tests/Reference/pty_drive.py", "300", "10", plan, "--", signalpath] + arguments, timeout: 60)
        return try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stderr)")
    }

    @Test("a command reading `-` from a terminal says so at once, and Ctrl-D ends it with a plain reason")
    func standardInputIsTerminal() throws {
        // Moments scaled for the sanitizers' slower start (TEST_TIMEOUT_SCALE).
        let report = try inPseudoTerminal(#"[[\#(timeoutScale),null,"waiting"],[\#(1.1 * timeoutScale),"\u0004",null]]"#, ["analyze", "-"])
        let screen = try #require((report["snapshots"] as? [String: [String]])?["waiting"]).joined()
        #expect(
            screen.contains(
                "signalpath: -: reading audio from standard input, which is this terminal: pipe or redirect a file into it (signalpath analyze - < take.wav), or press Ctrl-D to end"
            ), "\(screen)")
        #expect(report["status"] as? Int == 65)
        #expect((report["raw_tail"] as? String)?.contains("signalpath: -: empty (0 bytes)") == true)
        // record would store the keys typed as samples: it refuses, and creates nothing.
        let typed = scratch.file("typed.wav")
        let record = try inTerminal("\(signalpath) record \(typed) --input -")
        #expect(record.status == 64)
        #expect(
            record.stdout.contains(
                "signalpath: -: standard input is this terminal, not raw audio: pipe the audio in (arecord -t raw -f S16_LE -r 48000 -c 2 | signalpath record \(typed) --input - --raw s16le)"
            ), "\(record.stdout)")
        #expect(!FileManager.default.fileExists(atPath: typed))
        // Piped or redirected, nothing is said.
        let piped = try signalpath(["info", "-"], input: try Data(contentsOf: URL(fileURLWithPath: sample("sine-1k-48k-s16-mono.wav"))))
        #expect(piped.status == 0 && piped.stderr.isEmpty)
    }
}
