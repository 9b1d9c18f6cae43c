import Foundation
import Testing
import SignalPathTestSupport

/// Every option a command accepts changes its output or is refused (exit 64, naming the option),
/// and is accepted somewhere: help lists no option its command always refuses. The options come
/// from the command's own description of them, so one added later without a case here fails.
@Suite("every option changes something or is refused")
struct OptionAuditCLITests {
    let scratch = ScratchDirectory("audit")

    /// An option given on top of a base command line.
    struct Variant {
        let option: String
        let arguments: [String]
        init(_ arguments: String...) {
            option = arguments[0]
            self.arguments = arguments
        }
    }

    /// A base command line and the variants tried on it.
    struct Scenario {
        let base: [String]
        let variants: [Variant]
    }

    /// Options whose effect is not in the output, with the reason; checked elsewhere or by nature.
    static let exempt: [String: String] = [
        "--jobs": "the result is bit-identical for any number of workers (SpectrumAnalyzerTests); only the time changes",
        "--version": "prints the version",
        "--realtime": "pacing only (LiveCLITests)", "--no-realtime": "pacing only (LiveCLITests)",
        "--follow": "waits for a growing file (LiveCLITests)",
        "--input": "every record scenario reads standard input; without it record captures from a device",
        "--force": "replaces an existing --output file: checked below and in ChartCLITests; merge's: ScanCLITests",
        "--db": "scan's database: every scan scenario names one",
        "--into": "merge's database: every merge names one (ScanCLITests)",
        "--rescan": "analyses again rows made with other settings, which a fresh database has none of (ScanCLITests)",
    ]

    /// Options of replay's screen, which a pipe refuses: accepted on a terminal (LiveCLITests
    /// draws the screen on a pseudo-terminal; its views and keys are ReplaySessionTests').
    static let screenOnly = ["--view": "replay's view on a terminal", "--stats": "replay's cache line on a terminal"]

    /// The options `command --help` lists, as the binary describes them (`--experimental-dump-help`).
    func listedOptions(_ command: String) throws -> Set<String> {
        Set(try declaredOptions(command).flatMap(\.long).map { "--" + $0 })
    }

    /// Runs `arguments` and returns what it produced: exit status, standard output, standard error
    /// and the bytes of `file` (for record) when given.
    func outcome(_ arguments: [String], file: String? = nil, input: Data? = nil) throws -> (status: Int32, output: Data, stderr: String) {
        if let file { try? FileManager.default.removeItem(atPath: file) }
        let result = try signalpath(arguments, input: input)
        var output = result.stdoutData
        if let file, let bytes = FileManager.default.contents(atPath: file) { output += bytes }
        return (result.status, output, result.stderr)
    }

    /// The command's scenarios, and for a command that reads audio one on a file with two audio
    /// streams, where --stream 1 must change the output (on a one-stream WAV it is refused).
    func scenarios(_ command: String) throws -> [Scenario] {
        let scenarios = commandScenarios(command)
        let base: [String]
        switch command {
        case "spectrum", "spectrogram", "loudness": base = ["--format", "csv"]
        case "waveform": base = ["--format", "csv", "--columns", "20"]
        case "replay": base = ["--no-realtime", "--fps", "10"]
        case "check": base = ["--max-clipped", "0", "--format", "json"]
        case "analyze", "events", "info": base = []
        default: return scenarios
        }
        return scenarios + [Scenario(base: [command, try twoStreams()] + base, variants: [Variant("--stream", "1")])]
    }

    /// 1 s in Matroska (which libsndfile does not read: FFmpeg's libraries do) with two PCM audio
    /// streams: 0 is 440 Hz mono at 48 kHz, 1 is 1 kHz stereo at 44.1 kHz, louder.
    func twoStreams() throws -> String {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let path = scratch.file("two-streams.mka")
        let made = try run(
            ffmpeg,
            [
                "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1:sample_rate=48000", "-f", "lavfi", "-i",
                "sine=frequency=1000:duration=1:sample_rate=44100", "-filter_complex", "[1:a]volume=4,pan=stereo|c0=c0|c1=c0[s]", "-map", "0:a",
                "-map", "[s]", "-c:a", "pcm_s16le", path,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    /// 1 s of 1 kHz at -6 dBFS, 8 kHz, with two consecutive full-scale samples.
    func clippedRun() -> String {
        var samples = sine(1000, dbfs: -6, seconds: 1, sampleRate: 8000)
        for frame in 100..<102 { samples[frame] = 1 }
        return scratch.write("clipped-run.wav", PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 8000).file(samples: samples))
    }

    func commandScenarios(_ command: String) -> [Scenario] {
        let stereo = sample("stereo-440L-880R-44k1-s16.wav")  // 1 s: 440 Hz left, 880 Hz right
        let sine = sample("sine-1k-48k-s16-mono.wav")  // 2 s of 1 kHz
        let chord = sample("chord-a-major-44k1-stereo.ogg")  // 3 s, stereo
        let out = scratch.file("out")
        switch command {
        case "spectrum":
            return [
                Scenario(
                    base: ["spectrum", stereo, "--format", "csv"],
                    variants: [
                        Variant("--range", "0..0.5"), Variant("--start", "0.5"), Variant("--duration", "0.5"), Variant("--fft-size", "1024"),
                        Variant("--resolution", "5"), Variant("--window-size", "2048"), Variant("--window", "flat-top"), Variant("--overlap", "75"),
                        Variant("--average", "max"), Variant("--channel", "left"), Variant("--scale", "psd"), Variant("--min-freq", "100"),
                        Variant("--max-freq", "1000"), Variant("--smooth", "1/3"), Variant("--bands", "1/3"), Variant("--weighting", "A"),
                        Variant("--peaks", "2"), Variant("--a4", "415"), Variant("--format", "json"), Variant("--output", out + ".csv"),
                        Variant("--width", "100"), Variant("--height", "30"), Variant("--color", "always"), Variant("--floor", "-90"),
                        Variant("--ceiling", "10"), Variant("--linear"), Variant("--style", "bars"), Variant("--size", "800x450"),
                        Variant("--theme", "dark"), Variant("--dpi", "192"),
                        // One audio stream: stream 1 is refused (FFmpegCLITests picks streams of a file with two).
                        Variant("--stream", "1"),
                    ]),
                Scenario(
                    base: ["spectrum", stereo, "--format", "svg"],
                    variants: [
                        Variant("--width", "100"), Variant("--height", "30"), Variant("--floor", "-90"), Variant("--ceiling", "10"), Variant("--linear"),
                        Variant("--style", "bars"), Variant("--peaks", "1"), Variant("--a4", "415"), Variant("--color", "always"),
                        Variant("--size", "800x450"), Variant("--theme", "dark"), Variant("--dpi", "192"),
                    ]),
                Scenario(
                    base: ["spectrum", stereo, "--format", "png", "--size", "320x180"],
                    variants: [Variant("--dpi", "192"), Variant("--theme", "dark"), Variant("--size", "400x200"), Variant("--bands", "1/3")]),
                Scenario(
                    base: ["spectrum", stereo, "--format", "plot", "--width", "60"],
                    variants: [
                        Variant("--size", "800x450"), Variant("--theme", "dark"), Variant("--dpi", "192"), Variant("--width", "70"), Variant("--height", "20"),
                        Variant("--color", "always"),
                    ]),
                Scenario(
                    base: ["spectrum", stereo, "--format", "text"],
                    variants: [Variant("--smooth", "1/3"), Variant("--bands", "1/3"), Variant("--a4", "415"), Variant("--peaks", "2"), Variant("--scale", "psd")]),
            ]
        case "spectrogram":
            return [
                Scenario(
                    base: ["spectrogram", stereo, "--format", "csv"],
                    variants: [
                        Variant("--range", "0..0.5"), Variant("--start", "0.5"), Variant("--duration", "0.5"), Variant("--fft-size", "1024"),
                        Variant("--resolution", "50"), Variant("--window-size", "2048"), Variant("--window", "blackman"), Variant("--overlap", "75"),
                        Variant("--average", "max"), Variant("--channel", "left"), Variant("--scale", "psd"), Variant("--min-freq", "100"),
                        Variant("--max-freq", "1000"), Variant("--colormap", "magma"), Variant("--long"), Variant("--format", "json"),
                        Variant("--output", out + ".csv"), Variant("--width", "100"), Variant("--height", "30"), Variant("--color", "always"),
                        Variant("--floor", "-90"), Variant("--ceiling", "-10"), Variant("--linear"), Variant("--size", "800x450"),
                        Variant("--theme", "dark"), Variant("--dpi", "192"), Variant("--stream", "1"),
                    ]),
                Scenario(
                    // 3 s in 60 columns at a 256-frame hop: a dozen segments per column for --average to combine.
                    base: ["spectrogram", chord, "--format", "plot", "--color", "always", "--width", "60", "--height", "16", "--fft-size", "512"],
                    variants: [
                        Variant("--width", "70"), Variant("--height", "20"), Variant("--floor", "-90"), Variant("--ceiling", "-10"), Variant("--linear"),
                        Variant("--colormap", "magma"), Variant("--average", "max"), Variant("--channel", "left"), Variant("--scale", "psd"),
                        Variant("--min-freq", "200"), Variant("--max-freq", "2000"), Variant("--color", "never"), Variant("--long"),
                        Variant("--channel", "all"), Variant("--size", "800x450"), Variant("--theme", "dark"), Variant("--dpi", "192"),
                    ]),
                Scenario(
                    // 3 s in a 240-pixel-wide chart's plot: several segments per pixel column for --average.
                    base: ["spectrogram", chord, "--format", "png", "--size", "320x180", "--fft-size", "512"],
                    variants: [
                        Variant("--width", "70"), Variant("--height", "20"), Variant("--floor", "-90"), Variant("--ceiling", "-10"), Variant("--linear"),
                        Variant("--colormap", "magma"), Variant("--average", "max"), Variant("--channel", "left"), Variant("--scale", "psd"),
                        Variant("--min-freq", "200"), Variant("--max-freq", "2000"), Variant("--color", "always"), Variant("--long"),
                        Variant("--channel", "all"), Variant("--size", "400x200"), Variant("--theme", "dark"), Variant("--dpi", "192"),
                    ]),
                Scenario(base: ["spectrogram", chord, "--format", "svg", "--size", "320x180"], variants: [Variant("--dpi", "192"), Variant("--colormap", "magma")]),
            ]
        case "waveform":
            return [
                Scenario(
                    base: ["waveform", stereo, "--format", "csv", "--columns", "20"],
                    variants: [
                        Variant("--range", "0..0.5"), Variant("--start", "0.5"), Variant("--duration", "0.5"), Variant("--channel", "left"),
                        Variant("--columns", "10"), Variant("--scale", "dbfs"), Variant("--format", "json"), Variant("--output", out + ".csv"),
                        Variant("--width", "100"), Variant("--height", "30"), Variant("--color", "always"), Variant("--floor", "-40"),
                        Variant("--size", "400x200"), Variant("--theme", "dark"), Variant("--dpi", "192"), Variant("--stream", "1"),
                    ]),
                Scenario(
                    base: ["waveform", chord, "--format", "plot", "--width", "60", "--height", "16"],
                    variants: [
                        Variant("--width", "70"), Variant("--height", "20"), Variant("--channel", "mix"), Variant("--scale", "dbfs"),
                        Variant("--floor", "-40"), Variant("--color", "always"), Variant("--columns", "10"), Variant("--range", "1..2"),
                        Variant("--size", "400x200"), Variant("--theme", "dark"), Variant("--dpi", "192"),
                    ]),
                Scenario(
                    base: ["waveform", chord, "--format", "png", "--size", "320x180"],
                    variants: [
                        Variant("--size", "400x200"), Variant("--theme", "dark"), Variant("--dpi", "192"), Variant("--channel", "mix"),
                        Variant("--scale", "dbfs"), Variant("--floor", "-40"), Variant("--range", "1..2"), Variant("--width", "70"),
                        Variant("--color", "always"), Variant("--columns", "10"),
                    ]),
                Scenario(
                    base: ["waveform", chord, "--format", "plot", "--width", "60", "--height", "16", "--scale", "dbfs"],
                    variants: [Variant("--floor", "-40")]),
                Scenario(base: ["waveform", chord, "--format", "svg", "--size", "320x180"], variants: [Variant("--dpi", "192"), Variant("--theme", "dark")]),
            ]
        case "analyze":
            return [
                Scenario(
                    base: ["analyze", sine],
                    variants: [
                        Variant("--range", "0..0.5"), Variant("--start", "0.5"), Variant("--duration", "0.5"), Variant("--rms-reference", "sine"),
                        Variant("--silence-threshold", "-20"), Variant("--clip-run", "1"), Variant("--tones", "1"), Variant("--harmonics", "3"),
                        Variant("--fft-size", "4096"), Variant("--window", "hann"), Variant("--a4", "415"), Variant("--format", "csv"),
                        Variant("--output", out + ".txt"), Variant("--true-peak", "accurate"), Variant("--md5"),
                        Variant("--fingerprint"), Variant("--fingerprint-length", "1", "--fingerprint"),
                    ])
            ]
        case "loudness":
            return [
                Scenario(
                    base: ["loudness", sine, "--format", "csv"],
                    variants: [
                        Variant("--range", "0..1"), Variant("--start", "0.5"), Variant("--duration", "1"), Variant("--interval", "200ms"),
                        Variant("--format", "json"), Variant("--output", out + ".csv"), Variant("--width", "100"), Variant("--height", "30"),
                        Variant("--color", "always"), Variant("--floor", "-60"), Variant("--ceiling", "0"), Variant("--target", "-23"),
                        Variant("--tolerance", "2"), Variant("--true-peak", "accurate"), Variant("--size", "800x450"), Variant("--theme", "dark"), Variant("--dpi", "192"),
                        Variant("--no-momentary"),
                    ]),
                Scenario(
                    base: ["loudness", chord, "--format", "plot", "--width", "60", "--height", "16"],
                    variants: [
                        Variant("--width", "70"), Variant("--height", "20"), Variant("--floor", "-60"), Variant("--ceiling", "0"), Variant("--target", "-23"),
                        Variant("--interval", "1s"), Variant("--range", "1..3"), Variant("--color", "always"),
                        Variant("--size", "800x450"), Variant("--theme", "dark"), Variant("--dpi", "192"), Variant("--no-momentary"),
                    ]),
                Scenario(
                    base: ["loudness", chord, "--format", "png", "--size", "320x180"],
                    variants: [
                        Variant("--width", "70"), Variant("--height", "20"), Variant("--floor", "-60"), Variant("--ceiling", "0"), Variant("--target", "-23"),
                        Variant("--interval", "1s"), Variant("--range", "1..3"), Variant("--color", "always"),
                        Variant("--size", "400x200"), Variant("--theme", "dark"), Variant("--dpi", "192"), Variant("--no-momentary"),
                    ]),
                Scenario(base: ["loudness", chord, "--format", "svg", "--target", "-23"], variants: [Variant("--tolerance", "3")]),
                // The true peak is in the summary that JSON holds (the CSV series refuses --true-peak).
                Scenario(base: ["loudness", chord, "--format", "json"], variants: [Variant("--true-peak", "accurate")]),
            ]
        case "check":
            return [
                Scenario(
                    // The 2 s −6.02 dBFS mono sine reads −9.02 LUFS: streaming's limits with a −9 LUFS
                    // target pass it; each option moves a verdict, a limit or adds a rule (the last
                    // --target-lufs given counts).
                    base: ["check", sine, "--profile", "streaming", "--target-lufs", "-9", "--format", "json"],
                    variants: [
                        Variant("--profile", "podcast"), Variant("--target-lufs", "-20"), Variant("--tolerance", "0.01"),
                        Variant("--max-true-peak", "-10"), Variant("--max-lra", "1"), Variant("--max-clipped", "0"),
                        Variant("--max-silence", "1"), Variant("--max-dc", "1"), Variant("--clip-run", "1"), Variant("--range", "0..0.5"),
                        Variant("--start", "0.5"), Variant("--duration", "0.5"), Variant("--format", "csv"), Variant("--output", out + ".json"),
                        Variant("--true-peak", "accurate"),
                        // Adds the lossless_origin rule (the sine, band-limited, fails it as inconclusive; the rule's row changes the output).
                        Variant("--require-lossless-origin"),
                        // Adds the embedded_md5 rule (the sample carries no MD5: finding none).
                        Variant("--require-md5"),
                    ]),
                // A run of two full-scale samples: no clipping at the default run of 3, clipping at 1.
                Scenario(base: ["check", clippedRun(), "--max-clipped", "0", "--format", "json"], variants: [Variant("--clip-run", "1")]),
            ]
        case "events":
            // 5 s at 8 kHz: quiet noise with 0.3 s of zero at 1 s and a 4-sample clipped run,
            // then noise 20 dB louder with +2 % DC: clipping, DC offset and a loudness jump by
            // default; each threshold moved changes that.
            var signal = Signals.noise(count: 40_000, amplitude: 0.05, seed: 11)
            for frame in 16_000..<40_000 { signal[frame] = signal[frame] * 10 + 0.02 }
            for frame in 8000..<10_400 { signal[frame] = 0 }
            for frame in 100..<104 { signal[frame] = 1 }
            let path = scratch.write("events.wav", PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 8000).file(samples: signal))
            return [
                Scenario(
                    base: ["events", path],
                    variants: [
                        Variant("--range", "0..3"), Variant("--start", "0.5"), Variant("--duration", "3"), Variant("--silence-threshold", "-10"),
                        Variant("--min-silence", "0.2"), Variant("--clip-run", "5"), Variant("--max-dc", "5"), Variant("--max-jump", "30"),
                        Variant("--format", "csv"), Variant("--output", out + ".json"),
                    ])
            ]
        case "compare":
            // Two seconds of stereo noise, and the same 100 samples later at half the level, with a little noise of its own.
            let noise = Signals.noise(count: 2 * 44100 * 2, amplitude: 0.5, seed: 41), extra = Signals.noise(count: noise.count, amplitude: 0.001, seed: 42)
            let later = noise.indices.map { index in (index >= 200 ? 0.5 * noise[index - 200] : 0) + extra[index] }
            let builder = PCMFileBuilder(container: .wav, encoding: .float32, channels: 2, sampleRate: 44100)
            let a = scratch.write("compare-a.wav", builder.file(samples: noise)), b = scratch.write("compare-b.wav", builder.file(samples: later))
            let pairs = scratch.write("compare-pairs.tsv", Array("\(a)\t\(b)\n".utf8))
            return [
                Scenario(
                    base: ["compare", a, b, "--format", "json"],
                    variants: [
                        Variant("--range", "0..1"), Variant("--start", "0.5"), Variant("--duration", "1"), Variant("--channel", "left"),
                        Variant("--max-residual", "-200"), Variant("--max-delay", "0.001"), Variant("--format", "csv"), Variant("--output", out + ".json"),
                        // Refused with two files named; a list alone is audited below.
                        Variant("--pairs", pairs),
                    ]),
                Scenario(base: ["compare", "--pairs", pairs, "--format", "json"], variants: [Variant("--channel", "mix")]),
            ]
        case "info":
            return [Scenario(base: ["info", sine], variants: [Variant("--format", "csv"), Variant("--output", out + ".json"), Variant("--stream", "1")])]
        case "replay":
            return [
                Scenario(
                    base: ["replay", sine, "--no-realtime", "--fps", "10"],
                    variants: [
                        Variant("--from", "1"), Variant("--speed", "2"), Variant("--fps", "5"), Variant("--fft-size", "1024"), Variant("--bands", "1/3"),
                        Variant("--format", "csv"), Variant("--view", "spectrum"), Variant("--stats"), Variant("--device", "default"),
                        // A device that cannot exist: --play changes the outcome without making a sound anywhere.
                        Variant("--play", "--device", "signalpath-no-such-device"),
                    ])
            ]
        case "record":
            return [
                Scenario(
                    base: ["record", out + ".wav", "--input", "-", "--raw", "s16le", "--rate", "8000", "--channels", "1", "--fps", "10"],
                    variants: [
                        Variant("--raw", "s32le"), Variant("--rate", "16000"), Variant("--channels", "2"), Variant("--duration", "0.1"),
                        Variant("--fps", "20"), Variant("--device", "default"),
                    ]),
                // ALSA's null device: silence, captured (--device is refused with --input -).
                Scenario(
                    base: ["record", out + ".wav", "--device", "null", "--duration", "0.1", "--channels", "1", "--rate", "8000"],
                    variants: [Variant("--duration", "0.2")]),
            ]
        default: return []
        }
    }

    @Test(
        "each option of each command changes the output or is refused",
        arguments: ["spectrum", "spectrogram", "waveform", "analyze", "loudness", "check", "compare", "events", "info", "replay", "record"])
    func audit(command: String) throws {
        let scenarios = try scenarios(command)
        let covered = Set(scenarios.flatMap { $0.variants.map(\.option) }).union(Self.exempt.keys).union(["--help"])
        let missing = try listedOptions(command).subtracting(covered)
        #expect(missing.isEmpty, "\(command): options without an audit case: \(missing.sorted())")

        // Raw PCM for record: 0.5 s of noise at 8 kHz, 16-bit mono (32-bit reads it as half as many frames).
        let raw = Data(PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 8000).sampleBytes(Signals.noise(count: 4000, amplitude: 0.5, seed: 3)))
        let file = command == "record" ? scratch.file("out.wav") : nil
        let input = command == "record" ? raw : nil
        var problems: [String] = []
        // The options some command line took: each listed option must be among them.
        var accepted: Set<String> = []
        for scenario in scenarios {
            let baseline = try outcome(scenario.base, file: file, input: input)
            try #require(baseline.status == 0, "\(scenario.base): \(baseline.stderr)")
            accepted.formUnion(scenario.base.filter { $0.hasPrefix("--") })
            for variant in scenario.variants {
                let result = try outcome(scenario.base + variant.arguments, file: file, input: input)
                let label = "\(scenario.base.first!) … \(scenario.base.dropFirst(2).joined(separator: " ")) + \(variant.arguments.joined(separator: " "))"
                if result.status == 64 {
                    if !result.stderr.contains(variant.option) { problems.append("\(label): refused without naming \(variant.option): \(result.stderr.prefix(200))") }
                    // A value the parser could not take is not a refusal of the option.
                    if ["Missing value", "unknown option", "Unknown option", "Unexpected argument", "is invalid for"].contains(where: result.stderr.contains) {
                        problems.append("\(label): not parsed: \(result.stderr.prefix(200))")
                    }
                } else {
                    accepted.formUnion(variant.arguments.filter { $0.hasPrefix("--") })
                    if result.status == baseline.status && result.output == baseline.output { problems.append("\(label): accepted and changed nothing") }
                }
            }
        }
        let neverAccepted = try listedOptions(command).subtracting(accepted).subtracting(Self.exempt.keys).subtracting(Self.screenOnly.keys)
            .subtracting(["--help"])
        #expect(neverAccepted.isEmpty, "\(command) --help lists options it refuses in every case: \(neverAccepted.sorted())")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// scan, export and merge write a database: an option's effect is in the rows, so each variant
    /// scans into a fresh database and the outcome is the summary (without its time) and the
    /// exported rows (without `analyzed_at`).
    @Test("each option of scan, export and merge changes the stored rows, the summary or the export, or is refused")
    func auditDatabaseCommands() throws {
        let folder = scratch.file("scan-audit")
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Short files at 8 kHz: the debug build's time is per file, and there are ~25 scans.
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 8000)
        for (index, name) in ["a-tone.wav", "b-tone.wav", "c-noise.wav"].enumerated() {
            let samples =
                index < 2 ? sine(500 * Double(index + 1), dbfs: -6 - Double(index) * 10, seconds: 0.5, sampleRate: 8000) : Signals.noise(count: 4000, amplitude: 0.99, seed: 5)
            try Data(builder.file(samples: samples)).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder + "/broken.wav"))
        let list = scratch.file("scan-audit.list"), listed = scratch.file("listed.wav")
        try Data(builder.file(samples: sine(1000, dbfs: -3, seconds: 0.5, sampleRate: 8000))).write(to: URL(fileURLWithPath: listed))
        try Data(listed.utf8).write(to: URL(fileURLWithPath: list))
        let nulList = scratch.file("scan-audit.list0")
        try Data((listed + "\0").utf8).write(to: URL(fileURLWithPath: nulList))
        // --duplicates reads a database made with --content-hash, and no paths.
        let hashed = scratch.file("audit-hashed.db")
        _ = try signalpath("scan", folder, "--db", hashed, "--content-hash")
        let stamp = try NSRegularExpression(pattern: "\"(analyzed_at|seconds)\": ?\"?[0-9.:TZ-]*\"?")
        func normalised(_ data: Data) -> String {
            let text = String(decoding: data, as: UTF8.self)
            return stamp.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
        }
        var runs = 0
        func scan(_ arguments: [String]) throws -> (status: Int32, output: String, stderr: String) {
            if arguments.first == "--duplicates" {
                let result = try signalpath(["scan", "--db", hashed, "--format", "json"] + arguments)
                return (result.status, normalised(result.stdoutData), result.stderr)
            }
            runs += 1
            let database = scratch.file("audit-\(runs).db")
            let result = try signalpath(["scan", folder, "--db", database, "--format", "json"] + arguments)
            let export = try signalpath("export", database)
            return (result.status, normalised(result.stdoutData) + normalised(export.stdoutData), result.stderr)
        }
        let exported = scratch.file("audit-export.db")
        _ = try signalpath("scan", folder, "--db", exported)
        func export(_ arguments: [String]) throws -> (status: Int32, output: String, stderr: String) {
            let result = try signalpath(["export", exported] + arguments)
            return (result.status, normalised(result.stdoutData), result.stderr)
        }
        let out = scratch.file("audit-out")
        let cases: [(command: String, run: ([String]) throws -> (status: Int32, output: String, stderr: String), variants: [Variant])] = [
            (
                "scan", scan,
                [
                    Variant("--include", "b*"), Variant("--exclude", "a*"), Variant("--files-from", list), Variant("--null", "--files-from", nulList),
                    Variant("--shard", "2/2"), Variant("--duplicates"), Variant("--profile", "ebu-r128"), Variant("--events"),
                    Variant("--content-hash"), Variant("--md5"), Variant("--fingerprint"), Variant("--fingerprint-length", "30", "--fingerprint"),
                    Variant("--rms-reference", "sine"), Variant("--silence-threshold", "-30"),
                    Variant("--clip-run", "1"), Variant("--tones", "1"), Variant("--harmonics", "3"), Variant("--fft-size", "1024"),
                    Variant("--window", "hann"), Variant("--a4", "432"), Variant("--true-peak", "accurate"), Variant("--format", "text"),
                    Variant("--output", out + ".json"),
                ]
            ),
            ("export", export, [Variant("--failed"), Variant("--where", "integrated_lufs > -10"), Variant("--format", "csv"), Variant("--output", out + ".csv")]),
            ("merge", { _ in (0, "", "") }, []),
        ]
        var problems: [String] = []
        for (command, run, variants) in cases {
            let covered = Set(variants.map(\.option)).union(Self.exempt.keys).union(["--help"])
            let listed = try listedOptions(command)
            let missing = listed.subtracting(covered)
            #expect(missing.isEmpty, "\(command): options without an audit case: \(missing.sorted())")
            let baseline = try run([])
            var accepted: Set<String> = []
            for variant in variants {
                try? FileManager.default.removeItem(atPath: out + ".json")
                let result = try run(variant.arguments)
                let label = "\(command) + \(variant.arguments.joined(separator: " "))"
                if result.status == 64 {
                    if !result.stderr.contains(variant.option) { problems.append("\(label): refused without naming \(variant.option): \(result.stderr.prefix(200))") }
                } else {
                    accepted.insert(variant.option)
                    if result.status == baseline.status && result.output == baseline.output { problems.append("\(label): accepted and changed nothing") }
                }
            }
            let neverAccepted = Set(variants.map(\.option)).subtracting(accepted)
            #expect(neverAccepted.isEmpty, "\(command) --help lists options it refuses in every case: \(neverAccepted.sorted())")
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The rule for every command that takes several files and --output: a command whose result
    /// is each file's own (a picture, a series, an event list) writes a file per input with a
    /// pattern; one whose result is one report for the call (info, analyze, check: one document,
    /// one verdict) refuses a pattern with one usage error naming --output, and writes nothing.
    @Test(
        "a pattern writes each input's file as that input alone, or is refused with one usage error that creates nothing",
        arguments: ["info", "analyze", "check", "events", "loudness", "spectrum", "spectrogram", "waveform"])
    func patternOrRefusal(command: String) throws {
        // Two inputs in two folders, named alike: {dir} keeps their files apart.
        var files: [String] = []
        for (folder, source) in [("a", "sine-1k-48k-s16-mono.wav"), ("b", "stereo-440L-880R-44k1-s16.wav")] {
            let directory = scratch.file("pattern-\(command)/\(folder)")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: sample(source), toPath: directory + "/x.wav")
            files.append(directory + "/x.wav")
        }
        func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
        let extra =
            switch command {
            case "spectrogram": ["--fft-size", "512"]
            case "check": ["--profile", "streaming"]
            case "waveform": ["--columns", "4"]
            default: [String]()
            }
        let result = try signalpath([command] + files + ["--output", "{dir}/{stem}.json"] + (command == "info" ? [] : ["--jobs", "2"]) + extra)
        let written = files.map { String($0.dropLast(".wav".count)) + ".json" }
        if ["info", "analyze", "check"].contains(command) {
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: --output ") && result.stderr.contains("one result for all its files"), "\(result.stderr)")
            #expect(written.allSatisfy { contents($0) == nil })
            return
        }
        #expect(result.status == 0, "\(command): \(result.stderr)")
        for (input, target) in zip(files, written) {
            let alone = try signalpath([command, input, "--format", "json"] + extra)
            #expect(contents(target) == alone.stdoutData, "\(command) \(input)")
        }
    }

    @Test("--force: an existing output is kept without it and replaced with it, in every command that writes a file")
    func force() throws {
        let input = sample("sine-1k-48k-s16-mono.wav")
        let raw = Data(count: 8000)
        for (arguments, name) in [
            (["info", input, "--output"], "info.json"), (["analyze", input, "--output"], "analyze.csv"), (["spectrum", input, "--output"], "spectrum.csv"),
            (["spectrogram", input, "--fft-size", "1024", "--output"], "spectrogram.csv"), (["waveform", input, "--output"], "waveform.json"),
            (["loudness", input, "--output"], "loudness.csv"), (["events", input, "--output"], "events.json"),
            (["check", input, "--profile", "streaming", "--target-lufs", "-9", "--output"], "check.json"), (["spectrum", input, "--output"], "spectrum.png"),
            (["record", "--input", "-", "--raw", "s16le"], "take.wav"),
        ] {
            let path = scratch.write(name, Array("keep me".utf8))
            let command = arguments[0] == "record" ? ["record", path] + arguments.dropFirst() : arguments + [path]
            let refused = try signalpath(command, input: raw)
            #expect(refused.status == 64 && refused.stderr.contains("--force"), "\(name): \(refused.stderr)")
            #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
            let forced = try signalpath(command + ["--force"], input: raw)
            #expect(forced.status == 0, "\(name): \(forced.stderr)")
            #expect(FileManager.default.contents(atPath: path) != Data("keep me".utf8), "\(name) replaced")
        }
    }
}
