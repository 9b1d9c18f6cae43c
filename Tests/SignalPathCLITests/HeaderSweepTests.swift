import Foundation
import Synchronization
import Testing
import SignalPathTestSupport

/// The property behind "no crash, no hang, no NaN" for extreme but well-formed headers: every
/// numeric field of every PCM container at its boundary values (`HeaderSweep`), through every
/// command. Each file is either refused with one line `signalpath: FILE: reason` (exit 64, 65 or
/// 66), or analysed: exit 0 and output that parses, with no NaN or infinity anywhere.
///
/// Cost: the commands that take several files get 32 per process (a process's start-up is most of
/// the work on a small file); `replay`, which takes one, gets each file alone, and its exit code is
/// the per-file check of the exit code. At most as many processes at once as there are cores.
@Suite("header sweep: boundary values of every header field, through every command")
struct HeaderSweepTests {
    let scratch = ScratchDirectory("sweep")

    /// What each command is run with; small FFTs keep a few hundred runs cheap.
    static let batchCommands: [[String]] = [
        ["info", "--format", "json"],
        ["analyze", "--format", "json", "--fft-size", "1024"],
        ["analyze", "--format", "text", "--fft-size", "1024", "--range", "1ms..4ms"],
        ["spectrum", "--format", "json", "--fft-size", "256", "--peaks", "3", "--weighting", "A"],
        ["spectrogram", "--format", "json", "--fft-size", "64"],
    ]
    static let replay = ["replay", "--no-realtime", "--fps", "1", "--fft-size", "64"]
    static let batchSize = 32
    /// Generous: the limit is there to catch a hang, not to time anything.
    static let timeout = 30.0
    /// Writable memory per process (`ulimit -d`), in KiB: a file of 240 frames needs ~25 MB, so
    /// work or memory that grows with a header's value (a K-filter settling over 4 × 10⁸ frames for
    /// a 2 GHz rate took 1.5 GB per worker) fails here as a crash, however fast the machine.
    /// Not address space (`ulimit -v`): glibc reserves 64 MB of it per malloc arena, one arena per
    /// busy thread up to 8 per core, and under load libdispatch runs ~20 threads, so an optimised
    /// build crashed there (an allocation failure in the JSON writer, seen in a core dump) with
    /// little memory in use. Not under the sanitizers (`TEST_TIMEOUT_SCALE` set), whose shadow
    /// memory needs terabytes.
    static let writableKiB = 1 << 20

    /// `arguments` for signalpath, run through `sh` with the memory limit when it applies.
    static func limited(_ arguments: [String]) -> (String, [String]) {
        guard timeoutScale == 1 else { return (signalpath, arguments) }
        return ("/bin/sh", ["-c", "ulimit -d \(writableKiB) && exec \"$0\" \"$@\"", signalpath] + arguments)
    }

    /// One run: a command over some files.
    struct Run {
        var command: [String]
        var files: [HeaderSweep.Case]
    }

    @Test("every field at 0, 1, small, typical, the signed limit, max−1 and max; AIFF rates 0, denormal, 1e300, ∞, NaN; float data; truncated files")
    func sweep() throws {
        let cases = HeaderSweep.cases()
        #expect(cases.count > 400, "\(cases.count) cases")
        var cased: [String: HeaderSweep.Case] = [:]
        for sweepCase in cases { cased[scratch.write(sweepCase.name, sweepCase.bytes)] = sweepCase }
        let paths = cased
        let files = cases.map { scratch.file($0.name) }
        var planned: [Run] = []
        for start in stride(from: 0, to: cases.count, by: Self.batchSize) {
            let batch = Array(cases[start..<min(cases.count, start + Self.batchSize)])
            planned += Self.batchCommands.map { Run(command: $0, files: batch) }
        }
        let runs = planned + cases.map { Run(command: Self.replay, files: [$0]) }

        let problems = Mutex<[String]>([])
        /// Per command and file: the reason it was refused ("" for a file that was analysed).
        let outcomes = Mutex<[String: [String: String]]>([:])
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            let run = runs[index]
            let runFiles = run.files.map { scratch.file($0.name) }
            let label = run.command.prefix(3).joined(separator: " ") + " on " + run.files.map(\.name).joined(separator: ",").prefix(120)
            let (executable, arguments) = Self.limited(run.command + runFiles)
            guard let result = try? SignalPathTestSupport.run(executable, arguments, timeout: Self.timeout) else {
                problems.withLock { $0.append("\(label): could not run") }
                return
            }
            let verdict = Self.check(result, command: run.command, files: runFiles, cases: paths)
            outcomes.withLock { table in
                for (file, reason) in verdict.outcomes { table[run.command.prefix(3).joined(separator: " "), default: [:]][file] = reason }
            }
            if !verdict.problems.isEmpty { problems.withLock { $0.append("\(label):\n    " + verdict.problems.joined(separator: "\n    ")) } }
        }
        // Every command opens files the same way: a file that `info` refuses is refused by all,
        // for the same reason.
        let table = outcomes.withLock { $0 }
        let info = table["info --format json"] ?? [:]
        for file in files {
            guard let reason = info[file], !reason.isEmpty else { continue }
            for (command, verdicts) in table where verdicts[file] != reason {
                problems.withLock { $0.append("\(command) on \((file as NSString).lastPathComponent): '\(verdicts[file] ?? "nothing")', info: '\(reason)'") }
            }
        }
        // The sweep reaches both outcomes, so neither check is vacuous.
        #expect(info.values.filter(\.isEmpty).count > 100, "files analysed")
        #expect(info.values.filter { !$0.isEmpty }.count > 50, "files refused")
        let all = problems.withLock { $0 }
        #expect(all.isEmpty, "\(all.count) problems:\n\(all.prefix(30).joined(separator: "\n"))")
    }

    @Test("a header read from a pipe gets the same answer as from a file: rates, channels, block alignment, sizes")
    func streamsAgree() throws {
        let fields = ["fmt sample rate", "COMM sample rate", "fmt channels", "COMM channels", "fmt block align", "data size", "ds64 data size", "COMM frames"]
        let cases = HeaderSweep.cases().filter { $0.field.map(fields.contains) ?? false }
        #expect(cases.count > 60)
        let problems = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            let sweepCase = cases[index]
            let path = scratch.write(sweepCase.name, sweepCase.bytes)
            guard let file = try? run(signalpath, ["info", path]), let stream = try? run(signalpath, ["info", "-"], input: Data(sweepCase.bytes))
            else { return problems.withLock { $0.append("\(sweepCase.name): could not run") } }
            let fileReason = file.status == 0 ? "" : file.stderr.replacingOccurrences(of: path, with: "-")
            let streamReason = stream.status == 0 ? "" : stream.stderr
            if file.status != stream.status || fileReason != streamReason {
                problems.withLock { $0.append("\(sweepCase.name): file \(file.status) '\(fileReason)', stream \(stream.status) '\(streamReason)'") }
            }
        }
        let all = problems.withLock { $0 }
        #expect(all.isEmpty, "\(all.count) differ:\n\(all.prefix(20).joined(separator: "\n"))")
    }

    /// The problems with one run's result, and each file's outcome: "" when analysed, else the reason.
    static func check(_ result: ProcessResult, command: [String], files: [String], cases: [String: HeaderSweep.Case]) -> (
        problems: [String], outcomes: [String: String]
    ) {
        var problems: [String] = []
        if result.crashed { problems.append("crashed (signal \(result.status)): \(result.stderr.suffix(300))") }
        if result.status == -1 { problems.append("no answer within \(timeout) s") }
        guard !result.crashed, result.status != -1 else { return (problems, [:]) }

        // stderr: only lines `signalpath: FILE: reason`, at most one per file.
        var lines: [String: [String]] = [:]
        for line in result.stderr.split(separator: "\n").map(String.init) {
            guard let file = files.first(where: { line.hasPrefix("signalpath: \($0): ") }) else {
                problems.append("stray stderr line: \(line.prefix(200))")
                continue
            }
            lines[file, default: []].append(String(line.dropFirst("signalpath: \(file): ".count)))
        }
        var outcomes: [String: String] = [:]
        var refused = 0
        for file in files {
            let said = lines[file] ?? []
            if said.count > 1 { problems.append("\(file): \(said.count) lines: \(said)") }
            let reason = said.first { !isTruncationNotice($0) }
            outcomes[file] = reason ?? ""
            if reason != nil { refused += 1 }
            if cases[file]?.truncated == true {
                if reason != nil { problems.append("\(file): a truncated file is used as far as it goes, not refused: \(reason!)") }
                if !said.contains(where: isTruncationNotice) { problems.append("\(file): no truncation line") }
            }
        }
        let allowed: Set<Int32> = [64, 65, 66]
        if refused == 0 && result.status != 0 { problems.append("exit \(result.status) with every file analysed") }
        if refused > 0 && !allowed.contains(result.status) { problems.append("exit \(result.status) for a refused file (64, 65 or 66)") }
        // A command on one file: refusing a damaged file is 65, unless it is usage (64: a range
        // outside the file) or opening (66).
        if files.count == 1, refused == 1, result.status != 65, outcomes[files[0]]?.contains("range") != true {
            problems.append("exit \(result.status) for '\(outcomes[files[0]]!)' (65 expected)")
        }

        // stdout: no NaN or infinity as a JSON number (JSON has null for what does not exist) and
        // no NaN in a text report (where a noiseless tone's SNR may read ∞), with the sweep's file
        // names, which spell out values such as NaN, taken out.
        var scanned = result.stdout
        for file in files { scanned = scanned.replacingOccurrences(of: file, with: "") }
        let isText = command.contains("text")
        if !isText {
            // Strings are text, not numbers: a failed file's entry quotes its reason ("… (NaN Hz) …").
            scanned = scanned.replacingOccurrences(of: #""(?:\\.|[^"\\])*""#, with: "\"\"", options: .regularExpression)
        }
        let pattern = isText ? #"(?i)(^|[^a-z0-9_/])nan([^a-z0-9_/]|$)"# : #"(?i)(^|[^a-z0-9_])-?(nan|inf|infinity)([^a-z0-9_]|$)"#
        if let token = scanned.range(of: pattern, options: .regularExpression) {
            problems.append("non-finite number in the output: …\(scanned[token].prefix(40))…")
        }
        let analysed = files.filter { outcomes[$0] == "" }
        switch isText ? "text" : command[0] == "replay" ? "ndjson" : "json" {
        case "json":
            guard let document = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any],
                let entries = document["files"] as? [[String: Any]]
            else {
                problems.append("output is not a JSON document with files: \(result.stdout.prefix(200))")
                break
            }
            // Failed files may be listed with an `error` member; analysed ones are listed without.
            let reported = Set(entries.filter { $0["error"] == nil }.compactMap { $0["path"] as? String })
            for file in analysed where !reported.contains(file) { problems.append("\(file): exit 0 for it but not in the JSON") }
            for file in reported where !analysed.contains(file) { problems.append("\(file): in the JSON and refused") }
            problems += entries.flatMap { nonFiniteNumbers($0, at: ($0["path"] as? String) ?? "?") }
        case "ndjson":
            for line in result.stdout.split(separator: "\n") where (try? JSONSerialization.jsonObject(with: Data(line.utf8))) == nil {
                problems.append("not a JSON line: \(line.prefix(120))")
                break
            }
            if analysed.count == 1 && result.stdout.isEmpty { problems.append("no frames") }
        default:
            for file in analysed where !result.stdout.contains(file) { problems.append("\(file): exit 0 for it but no report") }
        }
        return (problems, outcomes)
    }

    /// The one line that a file cut short is used with: `truncated: the header promises 96 000
    /// frames, 250 are present; analysing those` (while one with no frames at all is refused).
    static func isTruncationNotice(_ line: String) -> Bool {
        line.range(of: #"^truncated: the header promises [0-9 ]+ frames, [0-9 ]+ (is|are) present(; [a-z ]+)?$"#, options: .regularExpression) != nil
    }

    /// Numbers in a parsed JSON value that are not finite (JSONSerialization reads 1e999 as ∞).
    static func nonFiniteNumbers(_ value: Any, at path: String) -> [String] {
        switch value {
        case let number as NSNumber where !(number.doubleValue.isFinite): return ["\(path): \(number)"]
        case let object as [String: Any]: return object.flatMap { nonFiniteNumbers($0.value, at: path + "." + $0.key) }
        case let array as [Any]: return array.flatMap { nonFiniteNumbers($0, at: path) }
        default: return []
        }
    }
}
