import Foundation
import Testing
import SignalPathTestSupport

/// The built `signalpath` binary, next to this test bundle.
let signalpath: String = {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("signalpath").path
}()

func sample(_ name: String) -> String { "\(repositoryRoot)/Samples/\(name)" }

func signalpath(_ arguments: String..., input: Data? = nil) throws -> ProcessResult {
    try signalpath(arguments, input: input)
}

func signalpath(_ arguments: [String], input: Data? = nil) throws -> ProcessResult {
    try run(signalpath, arguments, input: input, timeout: 120)
}

func json(_ result: ProcessResult) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "not a JSON object: \(result.stdout)")
}

@Suite("signalpath command line")
struct CLITests {
    let scratch = ScratchDirectory("cli")

    @Test("--help and --version print to stdout and exit 0")
    func helpAndVersion() throws {
        let help = try signalpath("--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("info") && help.stdout.contains("Exit codes"))
        let infoHelp = try signalpath("info", "--help")
        #expect(infoHelp.status == 0 && infoHelp.stdout.contains("--format"))
        let version = try signalpath("--version")
        #expect(version.status == 0)
        #expect(version.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test(
        "a command named first, parsed on its own, still answers as ArgumentParser's root does: its --help and -h are `help COMMAND`, a usage error names `signalpath COMMAND`, --version is the root's",
        arguments: [
            "info", "analyze", "loudness", "check", "compare", "events", "spectrum", "spectrogram", "waveform", "scan", "export", "merge", "duplicates", "replay", "record",
            "replaygain",
        ])
    func commandParsedOnItsOwnAnswersAsTheRoot(command: String) throws {
        let fromRoot = try signalpath("help", command)
        #expect(fromRoot.status == 0 && fromRoot.stdout.contains("signalpath \(command) "))
        for flag in ["--help", "-h"] {
            let help = try signalpath(command, flag)
            #expect(help.status == 0 && help.stdout == fromRoot.stdout, "\(command) \(flag)")
        }
        let bad = try signalpath(command, "--no-such-option")
        #expect(bad.status == 64 && bad.stderr.contains("see 'signalpath \(command) --help'"), "\(command): \(bad.stderr)")
        let invalid = try signalpath(command)
        #expect(invalid.status == 64 && invalid.stderr.contains("Usage: signalpath \(command) "), "\(command): \(invalid.stderr)")
        let version = try signalpath(command, "--version"), rootVersion = try signalpath("--version")
        #expect(version.status == 0 && version.stdout == rootVersion.stdout, "\(command) --version")
    }

    @Test(
        "every command's examples survive copy and paste on an 80-column terminal: none is reflowed, and each runs as a shell command",
        arguments: [
            "info", "analyze", "loudness", "check", "compare", "events", "spectrum", "spectrogram", "waveform", "scan", "export", "merge", "duplicates", "replay", "record",
            "replaygain",
        ])
    func examplesSurviveCopyAndPaste(command: String) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        let help = try run(signalpath, [command, "--help"], environment: environment)
        let lines = help.stdout.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "Examples:"), "\(command) --help has no examples")
        let examples = lines[(start + 1)...].prefix { !$0.isEmpty }
        #expect(examples.count >= 2)
        var continued = false
        var commands: [String] = []
        for line in examples {
            // ArgumentParser reflows text to the width: a wrapped example would start a line at column 0.
            #expect(line.hasPrefix(continued ? "    " : "  ") && line.count <= 80, "\(command): reflowed or too long: '\(line)'")
            if continued { commands[commands.count - 1] += " " + line } else { commands.append(line) }
            continued = line.hasSuffix("\\")
        }
        for example in commands { #expect(example.contains("signalpath \(command) "), "'\(example)' runs signalpath \(command)") }
        // The shell parses them (sh -n: syntax only), continuation lines and all.
        let script = examples.map { String($0.drop { $0 == " " }) }.joined(separator: "\n") + "\n"
        let check = try run("/bin/sh", ["-n"], input: Data(script.utf8))
        #expect(check.status == 0, "\(command): \(check.stderr)")
    }

    @Test("info describes WAV, FLAC, Ogg and RF64 files in aligned text")
    func infoText() throws {
        let result = try signalpath(
            "info", sample("sine-1k-48k-s16-mono.wav"), sample("chirp-log-20-20k-48k-s24.flac"),
            sample("chord-a-major-44k1-stereo.ogg"), sample("sine-1k-48k-s16-mono.rf64"))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let blocks = result.stdout.components(separatedBy: "\n\n")
        #expect(blocks.count == 4)
        #expect(blocks[0].contains("container      WAV") && blocks[0].contains("2.000 s (96 000 frames)"))
        #expect(blocks[0].contains("title          1 kHz sine, -6.02 dBFS"))
        #expect(blocks[1].contains("FLAC") && blocks[1].contains("24-bit signed integer PCM"))
        #expect(blocks[2].contains("Vorbis") && blocks[2].contains("2 (stereo)") && blocks[2].contains("132 300 frames"))
        #expect(blocks[3].contains("RF64") && blocks[3].contains("12 000 frames"))
    }

    @Test("info --format json gives the documented keys with numbers as numbers")
    func infoJSON() throws {
        let result = try signalpath("info", "--format", "json", sample("sine-1k-48k-s16-mono.wav"), sample("tone-a4-48k.opus"))
        #expect(result.status == 0)
        let document = try json(result)
        #expect(document["schema"] as? String == "signalpath.info/1")
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.count == 2)
        let wav = files[0]
        #expect(wav["path"] as? String == sample("sine-1k-48k-s16-mono.wav"))
        #expect(wav["container"] as? String == "wav")
        #expect(wav["sample_format"] as? String == "pcm_s16")
        #expect(wav["bit_depth"] as? Int == 16)
        #expect(wav["sample_rate"] as? Int == 48_000)
        #expect(wav["channels"] as? Int == 1)
        #expect(wav["frames"] as? Int == 96_000)
        #expect(wav["duration_s"] as? Double == 2.0)
        #expect((wav["metadata"] as? [String: String])?["title"] == "1 kHz sine, -6.02 dBFS")
        let opus = files[1]
        #expect(opus["sample_format"] as? String == "opus")
        #expect(opus["bit_depth"] is NSNull)
    }

    @Test("info --format ndjson writes one object per line")
    func infoNDJSON() throws {
        let result = try signalpath("info", "--format", "ndjson", sample("sine-1k-48k-s16-mono.wav"), sample("silence-48k-f32-stereo.wav"))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["schema"] as? String == "signalpath.info/1")
        }
    }

    @Test("bad paths give one line on stderr and the documented exit code")
    func badPaths() throws {
        let missing = scratch.file("missing.wav")
        let notAudio = scratch.write("notes.wav", Array("hello, this is not audio\n".utf8))
        let cases: [(String, String, Int32)] = [
            (missing, "no such file", 66),
            (scratch.path, "is a directory", 66),
            (notAudio, "not a recognised audio format", 65),
            (scratch.write("empty.wav", []), "", 65),
        ]
        for (path, reason, status) in cases {
            let result = try signalpath("info", path)
            #expect(result.status == status, "\(path): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty, "exactly one line: \(result.stderr)")
            #expect(result.stderr.hasPrefix("signalpath: \(path): \(reason)"))
        }
    }

    @Test("with several files, the good ones are reported and the exit code is the first failure's")
    func mixedFiles() throws {
        let missing = scratch.file("gone.flac")
        let notAudio = scratch.write("text.wav", Array("plain text".utf8))
        let result = try signalpath(
            "info", "--format", "json", sample("sine-1k-48k-s16-mono.wav"), notAudio, missing,
            sample("stereo-440L-880R-44k1-s16.wav"))
        #expect(result.status == 65)
        let files = try #require(try json(result)["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == [sample("sine-1k-48k-s16-mono.wav"), notAudio, missing, sample("stereo-440L-880R-44k1-s16.wav")])
        #expect(files.map { $0["error"] as? String } == [nil, "not a recognised audio format", "no such file", nil], "failed files are entries with the error")
        #expect(files.map { $0["exit_code"] as? Int } == [nil, 65, 66, nil])
        #expect(result.stderr == "signalpath: \(notAudio): not a recognised audio format\nsignalpath: \(missing): no such file\n")
    }

    @Test("standard input is read as a stream, also when its header does not state the length")
    func standardInput() throws {
        let wav = try Data(contentsOf: URL(fileURLWithPath: sample("sine-1k-48k-s16-mono.wav")))
        let piped = try signalpath("info", "--format", "json", "-", input: wav)
        #expect(piped.status == 0, "\(piped.stderr)")
        let file = try #require((try json(piped)["files"] as? [[String: Any]])?.first)
        #expect(file["path"] as? String == "-" && file["frames"] as? Int == 96_000)
        // A pipe writer's WAV header says 0xFFFFFFFF bytes of data; the frames are counted instead.
        var streamed = wav
        streamed.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let dataTag = streamed.range(of: Data("data".utf8))!
        streamed.replaceSubrange(dataTag.upperBound..<dataTag.upperBound + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let unknownLength = try signalpath("info", "--format", "json", "-", input: streamed)
        let counted = try #require((try json(unknownLength)["files"] as? [[String: Any]])?.first)
        #expect(counted["frames"] as? Int == 96_000)
        let flac = try Data(contentsOf: URL(fileURLWithPath: sample("chirp-log-20-20k-48k-s24.flac")))
        let flacResult = try signalpath("info", "-", input: flac)
        #expect(flacResult.status == 0 && flacResult.stdout.contains("96 000 frames"))
    }

    @Test("usage errors exit with 64")
    func usageErrors() throws {
        #expect(try signalpath("info").status == 64)
        #expect(try signalpath("info", "--format", "yaml", sample("sine-1k-48k-s16-mono.wav")).status == 64)
        #expect(try signalpath("info", "-", "-").status == 64)
        #expect(try signalpath("frobnicate").status == 64)
    }

    @Test("file names with escape sequences are shown escaped, never raw")
    func hostileFileName() throws {
        let name = scratch.file("evil\u{1B}]0;owned\u{07}\u{1B}[2J.wav")
        let result = try signalpath("info", name)
        #expect(result.status == 66)
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"))
        #expect(result.stderr.contains("evil\\e]0;owned\\x07\\e[2J.wav"))
    }

    @Test(
        "an unreadable file gives permission denied (run as an unprivileged user)",
        .enabled(if: geteuid() == 0 && which("setpriv") != nil, "needs root to drop privileges with setpriv"))
    func unreadableFile() throws {
        let locked = scratch.write("locked.wav", Array(try Data(contentsOf: URL(fileURLWithPath: sample("sine-1k-48k-s16-mono.wav")))))
        chmod(locked, 0)
        chmod(scratch.path, 0o755)
        let result = try run(which("setpriv")!, ["--reuid=65534", "--regid=65534", "--clear-groups", signalpath, "info", locked])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr == "signalpath: \(locked): permission denied\n")
    }
}
