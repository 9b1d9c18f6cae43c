import Foundation
import Testing
import SignalPathTestSupport

/// Runs a Python script with `arguments`; the parsers of the standard library are the judges of
/// what signalpath writes.
func python(_ script: String, _ arguments: [String] = [], input: Data? = nil) throws -> ProcessResult {
    try run("/usr/bin/env", ["python3", "-c", script] + arguments, input: input)
}

/// Reads a file as its extension says (csv with the csv module, json, ndjson, svg as XML, tsv,
/// txt) and prints a one-line summary, or fails.
private let formatChecker = """
    import csv, json, sys, xml.etree.ElementTree as ET
    path, kind = sys.argv[1], sys.argv[2]
    data = open(path, 'rb').read()
    assert b'\\r' not in data, 'CR in output'
    text = data.decode('utf-8')
    if kind == 'csv':
        rows = list(csv.reader(open(path, newline='')))
        assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), 'ragged CSV'
        print('csv', len(rows), rows[0][0])
    elif kind == 'tsv':
        rows = [line.split('\\t') for line in text.splitlines()]
        assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), 'ragged TSV'
        print('tsv', len(rows), rows[0][0])
    elif kind == 'json':
        document = json.loads(text)
        print('json', document['schema'], len(document['files']))
    elif kind == 'ndjson':
        lines = [json.loads(line) for line in text.splitlines()]
        assert lines and all('schema' in line for line in lines)
        print('ndjson', len(lines))
    elif kind == 'svg':
        root = ET.fromstring(data)
        assert root.tag.endswith('svg')
        print('svg', len(list(root.iter())))
    elif kind == 'txt':
        print('txt', text.splitlines()[0])
    """

@Suite("--output, --format and what a pipe gets")
struct OutputRulesCLITests {
    let scratch = ScratchDirectory("output-rules")

    @Test(
        "--output FILE: the extension picks the format, and the file parses as that format",
        arguments: [
            ("info", "txt"), ("info", "csv"), ("info", "tsv"), ("info", "json"), ("info", "ndjson"),
            ("analyze", "txt"), ("analyze", "csv"), ("analyze", "json"), ("analyze", "ndjson"),
            ("spectrum", "csv"), ("spectrum", "tsv"), ("spectrum", "json"), ("spectrum", "ndjson"), ("spectrum", "svg"), ("spectrum", "txt"),
            ("spectrogram", "csv"), ("spectrogram", "json"), ("spectrogram", "ndjson"), ("spectrogram", "svg"),
        ])
    func extensionPicksFormat(command: String, fileExtension: String) throws {
        let output = scratch.file("\(command).\(fileExtension)")
        let input = sample("stereo-440L-880R-44k1-s16.wav")
        let extra = command == "spectrogram" ? ["--fft-size", "1024", "--range", "0..0.2"] : []
        let result = try signalpath([command, input, "--output", output] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing on standard output")
        let check = try python(formatChecker, [output, fileExtension])
        #expect(check.status == 0, "\(command) .\(fileExtension): \(check.stderr)")
        let summary = check.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        switch fileExtension {
        case "txt": #expect(summary == "txt \(input)", "the report starts with the file's path: \(summary)")
        case "json": #expect(summary == "json signalpath.\(command)/1 1")
        case "csv", "tsv": #expect(summary.hasPrefix(fileExtension + " "))
        default: break
        }
        // The same bytes as standard output gets with the matching --format.
        if fileExtension != "svg" && fileExtension != "txt" {
            let piped = try signalpath([command, input, "--format", fileExtension] + extra)
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == piped.stdoutData, "\(command) .\(fileExtension)")
        }
    }

    @Test("a --format that disagrees, an unknown or unwritten extension, a format the command lacks: exit 64, nothing created")
    func refusedOutputs() throws {
        let input = sample("sine-1k-48k-s16-mono.wav")
        let cases: [([String], String)] = [
            (["spectrum", input, "--format", "json", "--output", scratch.file("a.csv")], "disagrees"),
            (["analyze", input, "--format", "csv", "--output", scratch.file("a.json")], "disagrees"),
            (["spectrum", input, "--format", "csv", "--output", scratch.file("a.csv.svg")], "disagrees"),
            (["spectrum", input, "--output", scratch.file("a.dat")], "'.dat' is none"),
            (["info", input, "--output", scratch.file("noextension")], "there is none"),
            (["spectrum", input, "--format", "svg", "--output", scratch.file("a.png")], "disagrees"),
            (["spectrogram", input, "--output", scratch.file("a.pdf"), "--width", "80"], "--size"),
            (["info", input, "--output", scratch.file("a.svg")], "info writes .txt, .csv, .tsv, .json or .ndjson, not svg"),
            (["info", input, "--format", "plot"], "info writes text, csv, tsv, json or ndjson"),
            (["analyze", input, "--format", "svg"], "analyze writes text, csv, tsv, json or ndjson"),
            (["spectrogram", input, "--format", "text"], "spectrogram writes plot, csv, tsv, json, ndjson, svg, png or pdf"),
            (["spectrogram", input, "--output", scratch.file("a.txt")], "not text"),
            (["spectrum", input, input, "--output", scratch.file("two.svg")], "one chart"),
            (["info", input, "--force"], "--force"),
        ]
        for (arguments, message) in cases {
            let result = try signalpath(arguments)
            #expect(result.status == 64, "\(arguments): \(result.status)")
            #expect(result.stdout.isEmpty && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let created = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(created.isEmpty, "nothing created: \(created)")
    }

    @Test("--format help lists only the formats the command writes; help states the defaults")
    func helpTexts() throws {
        let info = try signalpath("info", "--help").stdout
        let formatHelp = try #require(info.components(separatedBy: "--format <format>").last?.components(separatedBy: "--output").first)
        #expect(formatHelp.contains("ndjson") && !formatHelp.contains("plot") && !formatHelp.contains("svg"), "\(formatHelp)")
        let spectrum = try signalpath("spectrum", "--help").stdout.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        for fact in ["(default: 4096", "(default: hann)", "(default: 50)", "(default: mean)", "default: dbfs", "(default: 440)", "(default: -120)"] {
            #expect(spectrum.contains(fact), "spectrum --help states \(fact)")
        }
        let analyze = try signalpath("analyze", "--help").stdout
        #expect(analyze.contains("(default: 8192)") && analyze.contains("(default: kaiser:20)"))
        let top = try signalpath("--help").stdout
        #expect(top.contains("73 an output file cannot be created") && top.contains("What a pipe gets"))
    }

    @Test(
        "--output creates the directories it names (0777 less the umask, as mkdir -p); one that cannot be created exits 73 with one line, in every command that writes one"
    )
    func cannotCreate() throws {
        let input = sample("sine-1k-48k-s16-mono.wav")
        // Through a plain file: no directory can be made there (the tests may run as root, whom
        // permissions do not stop).
        let plain = scratch.write("plain", [])
        for (command, name) in [("info", "x.json"), ("analyze", "x.csv"), ("spectrum", "x.svg"), ("spectrogram", "x.png"), ("loudness", "x.pdf")] {
            let target = "\(plain)/\(command)/\(name)"
            let result = try signalpath(command, input, "--output", target)
            #expect(result.status == 73, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr == "signalpath: \(target): cannot create: Not a directory\n")

            let nested = scratch.file("made/\(command)/deeper/\(name)")
            // The umask of the shell that runs it decides the directories' mode, as for mkdir -p.
            let made = try run("/bin/sh", ["-c", "umask 002; exec \"$0\" \"$@\"", signalpath, command, input, "--output", nested])
            #expect(made.status == 0 && FileManager.default.fileExists(atPath: nested), "\(command): \(made.stderr)")
            for directory in ["made/\(command)", "made/\(command)/deeper"] {
                let mode = try FileManager.default.attributesOfItem(atPath: scratch.file(directory))[.posixPermissions] as? Int
                #expect(mode == 0o775, "\(directory): \(String(mode ?? 0, radix: 8))")
            }
        }
        let target = "/nonexistent-\(UUID().uuidString.prefix(8))/take.wav"
        let record = try signalpath(["record", target, "--input", "-", "--raw", "s16le"], input: Data(count: 4000))
        #expect(record.status == 73, "\(record.stderr)")
        #expect(record.stderr == "signalpath: \(target): cannot create: No such file or directory\n")
    }

    @Test(
        "SIGINT, SIGTERM or SIGHUP while an --output file is written (PNG, SVG, PDF, CSV): its temporary file goes, no output appears, and the process ends by that signal",
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalWhileWriting(signal: Int32) throws {
        let input = scratch.file("noise-\(signal).wav")
        // Four minutes of noise: seconds of work for the debug build, so the signal finds the file being written.
        let made = try run(try #require(which("sox")), ["-n", "-r", "48000", "-c", "1", "-b", "16", input, "synth", "240", "pinknoise", "vol", "0.3"])
        try #require(made.status == 0, "\(made.stderr)")
        let folder = ScratchDirectory("signal-\(signal)")
        for (command, name) in [("spectrogram", "out.png"), ("spectrogram", "out.svg"), ("waveform", "out.pdf"), ("spectrogram", "out.csv")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: signalpath)
            process.arguments = [command, input, "--output", folder.file(name)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The signal comes once the temporary file is there, and for CSV once rows are in it.
            var seen: String?
            let deadline = Date().addingTimeInterval(30 * timeoutScale)
            while seen == nil && process.isRunning && Date() < deadline {
                let temporary = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix(".signalpath-") }
                if let temporary, !name.hasSuffix(".csv") || (try? FileManager.default.attributesOfItem(atPath: folder.file(temporary))[.size] as? Int) ?? 0 > 0 {
                    seen = temporary
                } else {
                    usleep(2000)
                }
            }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(seen != nil, "\(name): the temporary file was there before the signal")
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal, "\(name): \(process.terminationStatus)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(left.isEmpty, "\(name): \(left) left behind")
        }
    }

    @Test(
        "piped without --format or --output, an option that only shapes the picture is refused saying that standard output is not a terminal, so the command writes CSV, and how to keep the picture, which then works; at a terminal, an option only for data likewise"
    )
    func pictureOptionsInAPipe() throws {
        let input = sample("stereo-440L-880R-44k1-s16.wav")
        let plotting = ["--width 100", "--height 20", "--color always", "--size 800x400", "--theme dark", "--dpi 192"]
        // Every option of the four commands with a picture view that shapes only the picture
        // (waveform's --floor needs --scale dbfs, itself one of them).
        let options = [
            "spectrum": plotting + ["--floor -90", "--ceiling -10", "--linear", "--style bars", "--a4 432"],
            "spectrogram": plotting + ["--floor -90", "--ceiling -10", "--linear", "--colormap magma", "--average max"],
            "loudness": plotting + ["--floor -60", "--ceiling -10", "--target -16"],
            "waveform": plotting + ["--scale dbfs"],
        ]
        for (command, list) in options {
            for option in list {
                let arguments = [command, input] + option.split(separator: " ").map(String.init)
                let piped = try signalpath(arguments)
                let name = String(option.prefix { $0 != " " })
                #expect(piped.status == 64, "\(command) \(option): \(piped.status)")
                #expect(
                    piped.stderr.contains("\(name) ") && piped.stderr.contains("standard output is not a terminal, so \(command) writes CSV: add "),
                    "\(command) \(option): \(piped.stderr)")
                // The way the message names keeps the picture.
                let kept: ProcessResult
                if piped.stderr.contains("add --format plot") {
                    kept = try signalpath(arguments + ["--format", "plot"])
                } else {
                    #expect(piped.stderr.contains("add --output FILE.png"), "\(command) \(option): \(piped.stderr)")
                    kept = try signalpath(arguments + ["--output", scratch.file("\(command)-\(name.dropFirst(2)).png")])
                }
                #expect(kept.status == 0, "\(command) \(option) as the message says: \(kept.stderr)")
            }
        }
        // Asked for by name, data is what the call says: the refusal needs no word about pipes.
        let named = try signalpath("loudness", input, "--format", "csv", "--target", "-16")
        #expect(named.status == 64 && named.stderr.contains("--target is drawn on the chart") && !named.stderr.contains("standard output"), "\(named.stderr)")

        // At a terminal, options only for data: the same rule the other way round.
        for (command, option) in [("spectrogram", "--long"), ("spectrogram", "--channel all"), ("waveform", "--columns 30")] {
            let shown = try inTerminal("\(signalpath) \(command) \(input) \(option)")
            #expect(
                shown.stdout.contains("standard output is a terminal, so \(command) draws the picture: add --format csv (or pipe the output) for the data"),
                "\(command) \(option): \(shown.stdout)")
            #expect(try signalpath([command, input] + option.split(separator: " ").map(String.init)).status == 0, "\(command) \(option) piped")
        }
    }

    @Test("piped, info and analyze write the report a terminal shows, without colour; spectrum and spectrogram write CSV")
    func whatAPipeGets() throws {
        let input = sample("stereo-440L-880R-44k1-s16.wav")
        for command in ["info", "analyze"] {
            let piped = try signalpath(command, input)
            #expect(piped.status == 0)
            #expect(piped.stdout.hasPrefix(input + "\n") && !piped.stdout.contains("\u{1B}"), "\(command): \(piped.stdout.prefix(80))")
            let terminal = try inTerminal("stty cols 200 rows 50; \(signalpath) \(command) \(input)")
            #expect(visible(terminal.stdout).replacingOccurrences(of: "\r\n", with: "\n") == piped.stdout, "\(command): the same report")
        }
        #expect(try signalpath("analyze", input).stdout.contains("Loudness (EBU R128)"))
        #expect(try signalpath("spectrum", input).stdout.hasPrefix("frequency_hz,left_dbfs,right_dbfs\n"))
        #expect(try signalpath("spectrogram", input, "--fft-size", "1024").stdout.hasPrefix("time_s,channel,0,43.06640625,"))
    }

    @Test("text output is ASCII but for · (and units such as µ and ²): grep -- -6.02 and awk read it")
    func asciiText() throws {
        let allowed: Set<Unicode.Scalar> = ["·", "µ", "²"]
        let inputs = ["stereo-440L-880R-44k1-s16.wav", "silence-48k-f32-stereo.wav", "chord-a-major-44k1-stereo.ogg", "sine-1k-48k-s16-mono.wav"]
        for name in inputs {
            for arguments in [["analyze"], ["info"], ["spectrum", "--format", "text"], ["spectrum", "--format", "text", "--scale", "power"]] {
                let result = try signalpath(arguments + [sample(name)])
                #expect(result.status == 0)
                let foreign = Set(result.stdout.unicodeScalars.filter { !$0.isASCII && !allowed.contains($0) })
                #expect(foreign.isEmpty, "\(arguments[0]) \(name): \(foreign.map { String(format: "U+%04X", $0.value) })")
            }
        }
        let shell = """
            \(signalpath) analyze \(sample("stereo-440L-880R-44k1-s16.wav")) | grep -- '-6.02 dBFS' | awk '/Sample peak/ { print $3 + 0, $5 + 0 }'
            """
        let result = try run("/bin/sh", ["-c", shell])
        #expect(result.stdout == "-6.02 -6.02\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("CSV: RFC 4180 quoting with LF line ends; Python's csv module reads every field back")
    func csvReadBack() throws {
        let awkward = scratch.file("take \"one\", left.wav")
        try FileManager.default.copyItem(atPath: sample("sine-1k-48k-s16-mono.wav"), toPath: awkward)
        let script = """
            import csv, sys
            rows = list(csv.reader(sys.stdin, strict=True))
            print(len(rows), len(set(map(len, rows))), sys.argv[1] in set(r[0] for r in rows[1:]))
            """
        for arguments in [["spectrum", "--bands", "1/1"], ["analyze", "--format", "csv"], ["info", "--format", "csv"]] {
            let result = try signalpath(arguments + [sample("sine-1k-48k-s16-mono.wav"), awkward])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("\r") && result.stdout.hasSuffix("\n"))
            #expect(result.stdout.contains("\"\(scratch.path)/take \"\"one\"\", left.wav\""), "quoted as RFC 4180 says")
            let read = try python(script, [awkward], input: result.stdoutData)
            #expect(read.status == 0, "\(read.stderr)")
            let fields = read.stdout.split(separator: " ")
            #expect(fields.count == 3 && fields[1] == "1", "one row length: \(read.stdout)")
            #expect(fields.count == 3 && fields[2] == "True\n", "\(arguments[0]): the path read back: \(read.stdout)")
        }
    }

    @Test("a range whose end is past the file is clamped with one line on stderr; a start past it is an error, also for replay --from")
    func rangeClamping() throws {
        let input = sample("sine-1k-48k-s16-mono.wav")  // 2 s
        let clamped = try signalpath("spectrum", input, "--range", "1..10", "--format", "json")
        #expect(clamped.status == 0)
        #expect(
            clamped.stderr
                == "signalpath: \(input): the range ends at 10.000 s, past the end of the file (2.000 s); using 1.000 s .. 2.000 s\n")
        let analyzed = try signalpath("analyze", input, "--duration", "5", "--start", "0.5", "--format", "json")
        #expect(analyzed.status == 0 && analyzed.stderr.contains("using 0.500 s .. 2.000 s"), "\(analyzed.stderr)")
        let file = try #require((try json(analyzed)["files"] as? [[String: Any]])?.first)
        #expect((file["range"] as? [String: Any])?["end_s"] as? Double == 2, "the range analysed ends at the end of the file")
        let inside = try signalpath("spectrum", input, "--range", "0.5..1.5")
        #expect(inside.status == 0 && inside.stderr.isEmpty)

        let late = try signalpath("spectrum", input, "--range", "5..")
        #expect(late.status == 64 && late.stderr.contains("starts after the end of the file (it lasts 2.000 s)"))
        let replay = try signalpath("replay", input, "--from", "5", "--no-realtime")
        #expect(replay.status == 64 && replay.stdout.isEmpty)
        #expect(replay.stderr == late.stderr, "the same error as a range outside the file")
        let replayInside = try signalpath("replay", input, "--from", "1.9", "--no-realtime", "--fps", "10")
        #expect(replayInside.status == 0 && !replayInside.stdout.isEmpty)
    }

    @Test("--resolution finer than the largest FFT: one line says the bin width used, as the conventions do")
    func resolutionNote() throws {
        let input = sample("sine-1k-48k-s16-mono.wav")
        // (--max-freq keeps the 2 million bins of the largest FFT out of the output, which a debug build is slow to write.)
        let result = try signalpath("spectrum", input, "--resolution", "0.001", "--range", "0..0.5", "--max-freq", "0.05")
        #expect(result.status == 0)
        #expect(result.stderr == "signalpath: \(input): --resolution 0.001 Hz needs more than the largest FFT (4194304 points); using 0.0114 Hz bins\n")
        let rows = result.stdout.split(separator: "\n").dropFirst().map { Double($0.split(separator: ",")[0]) }
        #expect(rows == [0, 1, 2, 3, 4].map { Double($0) * 48_000 / 4_194_304 }, "the bins are those of the largest FFT")
        #expect(try signalpath("spectrum", input, "--resolution", "2", "--format", "json").stderr.isEmpty, "met: nothing to say")
    }

    @Test(
        "in JSON and NDJSON a failed file is an entry with path, error and its exit code; stderr and exit code as before",
        arguments: ["info", "analyze", "loudness", "check", "events", "spectrum", "spectrogram"])
    func failedFilesInJSON(command: String) throws {
        let good = sample("sine-1k-48k-s16-mono.wav")
        let missing = scratch.file("missing.wav")
        let notAudio = scratch.write("text.wav", Array("just some text, not audio at all".utf8))
        let extra =
            command == "spectrogram" ? ["--range", "0..0.1", "--fft-size", "1024"] : command == "check" ? ["--profile", "ebu-r128"] : []
        let document = try signalpath([command, good, missing, notAudio, "--format", "json"] + extra)
        #expect(document.status == 66, "the first failure's code")
        #expect(document.stderr.split(separator: "\n").count == 2)
        let files = try #require(try json(document)["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == [good, missing, notAudio])
        #expect(files[0]["error"] == nil)
        #expect(files[1]["error"] as? String == "no such file" && files[1]["error_category"] as? String == "cannot_open" && files[1]["exit_code"] as? Int == 66)
        #expect(files[2]["error_category"] as? String == "bad_data" && files[2]["exit_code"] as? Int == 65)
        #expect(Set(files[1].keys) == ["path", "error", "error_category", "exit_code"])

        let lines = try signalpath([command, missing, good, "--format", "ndjson"] + extra)
        #expect(lines.status == 66)
        let objects = try lines.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.first?["path"] as? String == missing && objects.first?["exit_code"] as? Int == 66)
        #expect(objects.first?["schema"] as? String == "signalpath.\(command)/\(command == "events" ? 2 : 1)")
        #expect(objects.count >= 2 && objects.dropFirst().allSatisfy { $0["error"] == nil })
    }
}
