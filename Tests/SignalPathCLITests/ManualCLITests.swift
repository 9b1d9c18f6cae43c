import Foundation
import Testing
import SignalPathTestSupport

/// The man pages `make install` installs: made by swift-argument-parser's manual generator from
/// the binary under test (scripts/manual.py), rendered by groff as man(1) would.
@Suite("Man pages and completions")
struct ManualCLITests {
    let scratch = ScratchDirectory("manual")

    /// The generator, built by `swift package plugin generate-manual` (`make man`) as a debug
    /// build: next to the binary, or in the default build folder when the binary is elsewhere
    /// (the sanitizers' builds).
    var generator: String {
        let beside = URL(fileURLWithPath: signalpath).deletingLastPathComponent().appendingPathComponent("generate-manual-tool").path
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : repositoryRoot + "/.build/debug/generate-manual-tool"
    }

    static let commands = [
        "info", "analyze", "loudness", "check", "compare", "events", "spectrum", "spectrogram", "waveform", "scan", "export", "merge", "duplicates", "replay", "record",
        "replaygain",
    ]

    /// The pages, generated into the scratch directory: file name → rendered text.
    func pages() throws -> [String: String] {
        try #require(
            FileManager.default.isExecutableFile(atPath: generator),
            "the manual generator is not built: run `make man MAN_CONFIG=debug` (make test does)")
        let made = try run(try #require(which("python3")), [repositoryRoot + "/scripts/manual.py", generator, signalpath, scratch.path])
        #expect(made.status == 0, "\(made.stderr)")
        var rendered: [String: String] = [:]
        let groff = try #require(which("groff"), "groff is missing: run `make setup`")
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.path) where name.hasSuffix(".1") {
            // -ww: every warning; the page must render without one.
            let check = try run(groff, ["-mandoc", "-Tutf8", "-ww", "-z", scratch.file(name)])
            #expect(check.status == 0 && check.stderr.isEmpty, "\(name): \(check.stderr)")
            let page = try run(groff, ["-mandoc", "-Tutf8", "-rLL=100n", "-P-cbou", scratch.file(name)], environment: ["LANG": "C.UTF-8"])
            rendered[name] = page.stdout
        }
        return rendered
    }

    @Test("one page per command and one for signalpath, each with its options, rendered by groff without a warning")
    func pagePerCommand() throws {
        let pages = try pages()
        #expect(Set(pages.keys) == Set(["signalpath.1"] + Self.commands.map { "signalpath.\($0).1" }), "\(pages.keys.sorted())")
        for command in Self.commands {
            let page = try #require(pages["signalpath.\(command).1"])
            #expect(page.contains("NAME") && page.contains("SYNOPSIS") && page.contains("DESCRIPTION") && page.contains("signalpath \(command)"))
            // Every option --help lists is in the page.
            let help = try signalpath(command, "--help").stdout
            let options = Set(help.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" }).filter { $0.hasPrefix("--") && $0.count > 3 })
            for option in options { #expect(page.contains(option), "\(command): \(option)") }
        }
        let main = try #require(pages["signalpath.1"])
        for command in Self.commands { #expect(main.contains("signalpath.\(command)(1)"), "SEE ALSO names \(command)") }
        #expect(!main.contains("signalpath.help"), "no page about the help subcommand")
    }

    @Test("what the generator would lose is kept: non-ASCII characters, paragraphs, and examples whole on one line each")
    func repairedText() throws {
        let pages = try pages()
        let record = try #require(pages["signalpath.record.1"])
        // Words as a reader sees them, whatever the line breaks.
        let words = record.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("s16le → 16-bit, s24le → 24-bit"), "the generator alone drops the arrows")
        // The two lines of a continued example, each whole, as groff renders them.
        let exampleLines = ["arecord -t raw -f S16_LE -r 48000 -c 2 \\", "| signalpath record take.wav --input - --raw s16le --rate 48000 --channels 2"]
        let recordLines = record.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let first = recordLines.firstIndex(of: exampleLines[0])
        #expect(first.map { recordLines[$0 + 1] == exampleLines[1] } == true, "an example is not wrapped or filled")
        let replay = try #require(pages["signalpath.replay.1"])
        #expect(replay.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("(0.25× … 8×)"))
    }

    @Test("--help names the man pages and the completion scripts, and the completion scripts are generated for bash, zsh and fish")
    func helpAndCompletions() throws {
        let help = try signalpath("--help").stdout
        #expect(help.contains("man signalpath") && help.contains("--generate-completion-script"))
        for shell in ["bash", "zsh", "fish"] {
            let script = try signalpath("--generate-completion-script", shell)
            #expect(script.status == 0 && script.stdout.contains("spectrogram") && script.stdout.contains("--fft-size"), "\(shell)")
        }
        let bash = try run("/bin/bash", ["-n", "-c", try signalpath("--generate-completion-script", "bash").stdout])
        #expect(bash.status == 0, "bash parses its completion script: \(bash.stderr)")
    }
}
