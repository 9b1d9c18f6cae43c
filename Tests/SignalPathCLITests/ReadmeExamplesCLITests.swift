import Foundation
import Testing
import SignalPathTestSupport

/// Every command the README shows, run as a shell at a terminal would run it: in a temporary directory holding
/// the bundled samples and, for the names the examples make up (`take.wav`, `takes/*.flac`,
/// `archive/`), audio files of those names made from the samples. Each must exit 0, or with the
/// status the README prints after it (`$ echo $?`).
@Suite("README examples", .serialized)
struct ReadmeExamplesCLITests {
    let scratch = ScratchDirectory("readme")

    /// A command the README shows, with the exit status it shows (0 unless an `echo $?` follows).
    struct Example: CustomStringConvertible {
        var line: Int
        var command: String
        var status: Int32
        var description: String { "README.md:\(line): \(command)" }
    }

    /// Lines of code blocks that start with the `$ ` prompt, or that start with `signalpath` in a
    /// block without prompts; trailing `# comments` dropped.
    static func examples(_ readme: String) -> [Example] {
        var examples: [Example] = []
        var inBlock = false
        var block: [(Int, String)] = []
        func flush() {
            let prompted = block.contains { $0.1.hasPrefix("$ ") }
            for (index, (number, text)) in block.enumerated() {
                guard let command = prompted ? (text.hasPrefix("$ ") ? String(text.dropFirst(2)) : nil) : (text.hasPrefix("signalpath ") ? text : nil),
                    !command.hasPrefix("echo $?")
                else { continue }
                // The status printed by an `echo $?` that is the next command.
                var status: Int32 = 0
                if let next = block.indices.first(where: { $0 > index && block[$0].1.hasPrefix("$ ") }), block[next].1 == "$ echo $?",
                    next + 1 < block.count
                {
                    status = Int32(block[next + 1].1) ?? 0
                }
                examples.append(Example(line: number, command: Self.withoutComment(command), status: status))
            }
            block = []
        }
        for (number, text) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if text.hasPrefix("```") {
                if inBlock { flush() }
                inBlock.toggle()
            } else if inBlock {
                block.append((number + 1, String(text)))
            }
        }
        return examples
    }

    /// The command without a trailing `# comment` (outside quotes).
    static func withoutComment(_ command: String) -> String {
        var quote: Character? = nil
        var previous: Character = " "
        for (offset, character) in command.enumerated() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" && previous == " " {
                return String(command.prefix(offset)).trimmingCharacters(in: .whitespaces)
            }
            previous = character
        }
        return command
    }

    /// What an example needs that only a device gives: left out, with the reason.
    static func needsDevice(_ command: String) -> Bool {
        command.hasPrefix("signalpath record ") || command.contains("arecord ")
    }

    /// Audio files of the names the examples give inputs: each word with an audio extension that is
    /// not an output (after `--output`, `-o`, `--db`, `--into`, `>`) nor a bundled sample; a glob
    /// gets two files; a directory scanned gets a few.
    func makeInputs(for examples: [Example], in directory: String) throws {
        let extensions = ["wav", "flac", "mp3", "m4a", "ogg", "opus", "aiff", "rf64", "w64", "mkv", "mp4"]
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        // Each name once, as long as its longest use needs.
        var wanted: [String: Double] = [:]
        func make(_ name: String, seconds: Double = 3) { wanted[name] = max(wanted[name] ?? 0, seconds) }
        func write(_ name: String, seconds: Double) throws {
            let path = directory + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            // Two channels of tones and noise; the file's extension picks sox's format.
            let result = try run(
                sox, ["-n", "-r", "48000", "-c", "2", "-b", "16", path, "synth", String(seconds), "sine", "440", "pinknoise", "gain", "-12"])
            try #require(result.status == 0, "sox \(name): \(result.stderr)")
        }
        for example in examples {
            let words = example.command.split(separator: " ").map(String.init)
            for (index, word) in words.enumerated() {
                let previous = index > 0 ? words[index - 1] : ""
                guard !["--output", "-o", "--db", "--into", ">"].contains(previous), !word.hasPrefix("Samples/"), !word.hasPrefix("-"), !word.contains("{")
                else { continue }
                let name = word.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
                if words.first == "signalpath", words.count > 1, words[1] == "scan", index == 2 {
                    // A directory to scan: a few files in it.
                    for file in ["one.wav", "two.flac", "sub/three.wav"] { make(name + "/" + file) }
                    continue
                }
                guard let dot = name.lastIndex(of: "."), extensions.contains(String(name[name.index(after: dot)...]).lowercased()) else { continue }
                if name.contains("*") {
                    for stem in ["a", "b"] { make(name.replacingOccurrences(of: "*", with: stem)) }
                } else {
                    // --from 1:30 needs a file longer than 90 s.
                    make(name, seconds: example.command.contains("--from") ? 92 : 3)
                }
            }
        }
        for (name, seconds) in wanted { try write(name, seconds: seconds) }
    }

    @Test("every command the README shows runs as shown: exit 0, or the status it prints after it")
    func everyExample() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let examples = Self.examples(readme)
        #expect(examples.count >= 25, "found \(examples.count) examples")
        let directory = scratch.file("session")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/Samples", withDestinationPath: repositoryRoot + "/Samples")
        let runnable = examples.filter { !Self.needsDevice($0.command) }
        try makeInputs(for: runnable, in: directory)
        let bin = (signalpath as NSString).deletingLastPathComponent
        let environment = [
            "PATH": bin + ":/usr/local/bin:/usr/bin:/bin", "HOME": directory, "LC_ALL": "C.UTF-8", "SHELL": try #require(which("bash")), "TERM": "xterm-256color",
        ]
        // At a terminal, as a reader copying the line would be (util-linux script: a pseudo-terminal,
        // -e for the command's own status). Replay's full screen waits for a key: `q` a while after
        // it starts (a key typed before it takes the terminal is flushed with the line discipline).
        let bash = try #require(which("bash"))
        _ = try #require(which("script"), "script (util-linux) is missing")
        for (index, example) in runnable.enumerated() {
            let file = directory + "/example-\(index).sh"
            try ("cd '\(directory)' && " + example.command + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let keys = example.command.hasPrefix("signalpath replay") && !example.command.contains("|") ? "(sleep 2; printf q)" : "true"
            let result = try run(bash, ["-c", "\(keys) | script -qec 'bash \(file)' /dev/null"], environment: environment, timeout: 120)
            #expect(result.status == example.status, "\(example): exit \(result.status)\n\(result.stdout.suffix(600))")
        }
        // The examples left out are the ones that need a sound card.
        #expect(examples.filter { Self.needsDevice($0.command) }.count <= 2)
    }

    @Test("the example finder reads prompts, comments and a following echo $?")
    func finder() {
        let readme = """
            ```
            $ signalpath check a.wav
            some output
            $ echo $?
            1
            $ signalpath scan dir --db x.db   # a comment
            ```
            ```sh
            signalpath spectrum 'x # y.wav' --output out.png
            ```
            """
        let found = Self.examples(readme)
        #expect(found.map(\.command) == ["signalpath check a.wav", "signalpath scan dir --db x.db", "signalpath spectrum 'x # y.wav' --output out.png"])
        #expect(found.map(\.status) == [1, 0, 0])
        #expect(found.map(\.line) == [2, 6, 9])
    }
}
