import Foundation
import Testing
import SignalPathTestSupport

/// An option a command does not have is named, with the option of that command it probably meant,
/// before anything else about the command line is judged (exit 64).
@Suite("Unknown options")
struct UnknownOptionCLITests {
    static let file = sample("sine-1k-48k-s16-mono.wav")

    @Test(
        "the issue's typos: each is named, with the option meant, in one line, exit 64",
        arguments: [
            // Without --profile, check's validate() would refuse the line ("Name a --profile").
            (["check", "--profle", "podcast", file], "signalpath: --profle: unknown option of check; did you mean '--profile'?"),
            (["spectrum", "--fft", "1024", file], "signalpath: --fft: unknown option of spectrum; did you mean '--fft-size'?"),
            (["spectrum", file, "--out", "x.csv"], "signalpath: --out: unknown option of spectrum; did you mean '--output'?"),
            (["events", "--silence", "-40", file], "signalpath: --silence: unknown option of events; did you mean '--silence-threshold' or '--min-silence'?"),
        ])
    func issueExamples(arguments: [String], line: String) throws {
        let result = try signalpath(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == line + "\n")
        #expect(result.stdout.isEmpty)
    }

    /// The options `line`'s message suggests, in order.
    func suggested(_ arguments: [String]) throws -> (status: Int32, options: [String], stderr: String) {
        let result = try signalpath(arguments)
        guard let range = result.stderr.range(of: "did you mean ") else { return (result.status, [], result.stderr) }
        let options = result.stderr[range.upperBound...].split(separator: "'").filter { $0.hasPrefix("--") }.map(String.init)
        return (result.status, options, result.stderr)
    }

    /// True when `typed` begins `option`, or each of its hyphen-separated words begins a word of
    /// `option` in order: `typed` reads as an abbreviation of that option.
    static func abbreviates(_ typed: String, _ option: String) -> Bool {
        if option.hasPrefix(typed) { return true }
        var words = option.split(separator: "-")[...]
        for word in typed.split(separator: "-") {
            guard let found = words.firstIndex(where: { $0.hasPrefix(word) }) else { return false }
            words = words[(found + 1)...]
        }
        return !typed.isEmpty
    }

    /// For each long option of each command (from the binary's own description of it): its first
    /// half, lengthened until no other option of the command begins so (or, for an option that
    /// begins another, such as --window and --window-size, all but its last letter), and a
    /// letter left out in the middle of it (moving outward past deletions that abbreviate
    /// another option: `max-c` is `--max-clipped` cut short more than `--max-dc` mistyped).
    /// Each must be met with that option, suggested first.
    @Test("every option of every command: cut short, or with a letter left out, it is suggested first", arguments: try declaredCommands())
    func everyOption(command: String) throws {
        let names = try declaredOptions(command).flatMap(\.long)
        try #require(!names.isEmpty)
        var problems: [String] = []
        for name in names {
            let others = names.filter { $0 != name }
            var cut = (name.count + 1) / 2
            while cut < name.count, others.contains(where: { $0.hasPrefix(name.prefix(cut)) }) { cut += 1 }
            if cut == name.count { cut = name.count - 1 }
            let letters = Array(name)
            let middle = letters.count / 2
            let positions = (0..<letters.count).sorted { abs($0 - middle) < abs($1 - middle) }.filter { letters[$0] != "-" }
            let deletions = positions.map { position in String(letters[..<position] + letters[(position + 1)...]) }
            guard let typo = deletions.first(where: { typo in !others.contains { $0 == typo || Self.abbreviates(typo, $0) } }) else {
                problems.append("--\(name): every deletion abbreviates another option")
                continue
            }
            for typed in [String(name.prefix(cut)), typo] {
                let result = try suggested([command, "--" + typed, Self.file])
                if result.status != 64 || result.options.first != "--" + name {
                    problems.append("\(command) --\(typed): \(result.status) \(result.stderr.trimmingCharacters(in: .newlines))")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("the unknown option is named whatever else is wrong, wherever it stands; --name=value names --name; the value of a level is not an option")
    func namedFirst() throws {
        for (arguments, named) in [
            // A missing file (66) and a --format that is not one (64 with another message) come later.
            (["analyze", "/nonexistent/take.wav", "--rms-referense", "sine"], "--rms-referense"),
            (["spectrum", Self.file, "--format", "nosuch", "--windw", "hann"], "--windw"),
            (["spectrum", "--fft=1024", Self.file], "--fft"),
            // -9 and -23 are values (levels are negative), not options (-9 is not a short option).
            (["spectrum", Self.file, "--floor", "-9", "--wieghting", "A"], "--wieghting"),
            (["loudness", Self.file, "--target", "-23", "--tolerence", "1"], "--tolerence"),
        ] {
            let result = try signalpath(arguments)
            #expect(result.status == 64 && result.stderr.hasPrefix("signalpath: \(named): unknown option of \(arguments[0])"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("an option far from every option is named with a pointer to the command's help; an unknown short option lists the command's")
    func noSuggestion() throws {
        let far = try signalpath("events", Self.file, "--frobnicate")
        #expect(far.status == 64 && far.stderr == "signalpath: --frobnicate: unknown option of events (see 'signalpath events --help')\n", "\(far.stderr)")
        let short = try signalpath("spectrum", Self.file, "-x")
        #expect(
            short.status == 64
                && short.stderr == "signalpath: -x: unknown option of spectrum; its short options are -f (--format), -h (--help), -j (--jobs), -o (--output), -r (--range)\n",
            "\(short.stderr)")
    }

    @Test("after --, arguments are files, not options; help is still help")
    func operandsAndHelp() throws {
        let operand = try signalpath("info", "--", "--fft")
        #expect(operand.status == 66 && operand.stderr.hasPrefix("signalpath: --fft: "), "\(operand.stderr)")
        let help = try signalpath("spectrum", "--help", "--fft")
        #expect(help.status == 0 && help.stdout.contains("--fft-size"))
    }
}
