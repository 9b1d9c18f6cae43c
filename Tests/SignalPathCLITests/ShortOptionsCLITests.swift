import Foundation
import Testing
import SignalPathTestSupport

/// The short options people type without thinking, one meaning per letter in every command.
@Suite("Short options")
struct ShortOptionsCLITests {
    let scratch = ScratchDirectory("short")

    static let meanings = ["o": "output", "f": "format", "j": "jobs", "r": "range", "h": "help"]

    @Test("-o, -f, -j, -r and -h in every command that has the long option, each letter one option everywhere")
    func oneMeaningPerLetter() throws {
        var seen: [String: Set<String>] = [:]
        var problems: [String] = []
        for command in try declaredCommands() {
            for option in try declaredOptions(command) {
                for letter in option.short { seen[letter, default: []].formUnion(option.long) }
                for (letter, long) in Self.meanings where option.long.contains(long) && !option.short.contains(letter) {
                    problems.append("\(command) --\(long) has no -\(letter)")
                }
            }
        }
        for (letter, longs) in seen where longs.count != 1 || Self.meanings[letter].map({ !longs.contains($0) }) ?? false {
            problems.append("-\(letter) means \(longs.sorted())")
        }
        #expect(Set(seen.keys) == Set(Self.meanings.keys), "\(seen)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("the short spelling does what the long one does: spectrum FILE -f csv -r 1s..2s -o out.csv, -j, -h")
    func shortAsLong() throws {
        let input = sample("sine-1k-48k-s16-mono.wav")
        let short = scratch.file("short.csv"), long = scratch.file("long.csv")
        let shortRun = try signalpath("spectrum", input, "-f", "csv", "-r", "1s..2s", "-o", short, "-j", "2")
        let longRun = try signalpath("spectrum", input, "--format", "csv", "--range", "1s..2s", "--output", long, "--jobs", "2")
        #expect(shortRun.status == 0 && longRun.status == 0, "\(shortRun.stderr) \(longRun.stderr)")
        let written = try #require(FileManager.default.contents(atPath: short))
        #expect(!written.isEmpty && written == FileManager.default.contents(atPath: long))
        // The whole file gives another spectrum: -r took effect.
        #expect(try signalpath("spectrum", input, "--format", "csv").stdoutData != written)
        let json = try signalpath("analyze", input, "-f", "json", "-r", "0.5..1")
        #expect(json.status == 0 && json.stdout.hasPrefix("{"), "\(json.stderr)")
        #expect(try signalpath("analyze", input, "--format", "json", "--range", "0.5..1").stdout == json.stdout)
        let replay = try signalpath("replay", input, "--no-realtime", "-f", "csv")
        let replayLong = try signalpath("replay", input, "--no-realtime", "--format", "csv")
        #expect(replay.status == 0 && replay.stdout.hasPrefix("time_s") && replay.stdout == replayLong.stdout, "\(replay.stderr)")
        #expect(try signalpath("events", "-h").stdout == (try signalpath("events", "--help")).stdout)
    }
}
