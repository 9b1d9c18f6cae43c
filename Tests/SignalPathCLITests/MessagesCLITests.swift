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
            (["loudness", "x.wav"], "signalpath: loudness: unknown command; did you mean 'signalpath analyze x.wav'?"),
            (["my take.m4a"], "signalpath: my take.m4a: a command comes first; did you mean 'signalpath info \"my take.m4a\"' or 'signalpath analyze \"my take.m4a\"'?"),
            (["help", "analyse"], "signalpath: analyse: unknown command; did you mean 'signalpath help analyze'?"),
            (["help", "nosuch"], "signalpath: nosuch: unknown command; the commands are info, analyze, spectrum, spectrogram, replay, record (see 'signalpath --help')"),
            (["frobnicate"], "signalpath: frobnicate: unknown command; the commands are info, analyze, spectrum, spectrogram, replay, record (see 'signalpath --help')"),
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

    @Test("a file libsndfile cannot read names what it looks like, and the ffmpeg command it suggests works")
    func foreignFormatConversion() throws {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let m4a = scratch.file("voice.m4a")
        let made = try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.5:sample_rate=44100", "-c:a", "aac", m4a])
        #expect(made.status == 0)
        let result = try signalpath("analyze", m4a)
        #expect(result.status == 65)
        let prefix = "signalpath: \(m4a): not a recognised audio format: looks like MP4/M4A, AAC or ALAC audio; signalpath cannot read it yet, convert with: "
        #expect(result.stderr.hasPrefix(prefix) && result.stderr.hasSuffix("\n") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        // Pasted as it is (with the output put in the scratch directory), the command converts it.
        var command = result.stderr.dropFirst(prefix.count).dropLast().split(separator: " ").map(String.init)
        #expect(command.first == "ffmpeg" && command.last == "out.wav")
        command[command.count - 1] = scratch.file("out.wav")
        let converted = try run(ffmpeg, ["-v", "error"] + command.dropFirst())
        #expect(converted.status == 0, "\(converted.stderr)")
        let info = try signalpath("info", scratch.file("out.wav"))
        #expect(info.status == 0 && info.stdout.contains("32-bit float"), "\(info.stdout)")
    }
}
