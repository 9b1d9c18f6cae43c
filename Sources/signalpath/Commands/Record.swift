import ArgumentParser
import SignalPathKit

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        _superCommandName: "signalpath",
        abstract: "Capture audio to a file with a live spectrum, losing nothing if killed.",
        discussion: """
            From an ALSA capture device (--device, default `default`) or raw PCM on standard input \
            (--input - with --raw, --rate, --channels). The container follows OUT's extension: .wav \
            (RF64 past 4 GB), .rf64, .w64, .flac, .caf, .aiff; samples are stored exactly as they \
            arrive (s16le → 16-bit, s24le → 24-bit, s32le → 32-bit, f32le → float). The header is \
            rewritten after every block, so after kill -9 the file opens and holds everything \
            written; SIGINT and SIGTERM finish the file and print a summary; a failed write (disk \
            full, a file size limit) stops with a message and leaves a valid file of everything \
            written before. An existing file is not replaced without --force.

            On a terminal: live spectrum, meters with clip indicators, elapsed time and size. \
            Piped: NDJSON frames, as replay writes them.

            Examples:
              signalpath record take.wav --duration 30
              arecord -t raw -f S16_LE -r 48000 -c 2 \\
                | signalpath record take.wav --input - --raw s16le --rate 48000 --channels 2
            """
    )

    @Argument(help: "The file to write.")
    var output: String

    @Option(name: .long, help: ArgumentHelp("`-` for raw PCM on standard input (instead of a device).", valueName: "-"))
    var input: String?

    @Option(name: .long, help: ArgumentHelp("ALSA capture device (default: default).", valueName: "name"))
    var device: String?

    @Option(name: .long, help: "Raw sample format: s16le, s24le, s32le or f32le (devices: s16le or f32le).")
    var raw: Recorder.RawFormat = .s16le

    @Option(name: .long, help: ArgumentHelp("Sample rate, Hz.", valueName: "hz"))
    var rate = 48_000

    @Option(name: .long, help: ArgumentHelp("Channels.", valueName: "n"))
    var channels = 2

    @Option(name: .long, help: ArgumentHelp("Stop after this long: 30, 2:00, 1.5s (default: until stopped or the input ends).", valueName: "time"), transform: OptionValue.duration)
    var duration: Double?

    @Flag(name: .long, help: "Replace OUT if it exists.")
    var force = false

    @Option(name: .long, help: ArgumentHelp("Live frames per second.", valueName: "n"))
    var fps = 20.0

    func validate() throws {
        if let input, input != "-" { throw ValidationError("--input takes only `-` (standard input).") }
        if input != nil && device != nil { throw ValidationError("Give either --device or --input -, not both.") }
        guard (1000...768_000).contains(rate) else { throw ValidationError("--rate takes 1000 to 768000 Hz.") }
        guard (1...64).contains(channels) else { throw ValidationError("--channels takes 1 to 64.") }
        guard (1...60).contains(fps) else { throw ValidationError("--fps takes 1 to 60.") }
    }

    func run() throws {
        StopSignals.install()
        do throws(SignalPathError) {
            let recorder = try Recorder(
                path: output, source: input == "-" ? .standardInput : .device(device ?? "default"), format: raw,
                sampleRate: rate, channels: channels, overwrite: force, fftSize: 4096, bands: nil)
            var options = RecordRunner.Options()
            options.duration = duration
            options.framesPerSecond = fps
            options.colorDepth = ColorDepth.detect(choice: .auto, isTerminal: true, environment: ProcessEnvironment.current)
            let summary = try RecordRunner(recorder: recorder, options: options).run(title: "signalpath record · " + TerminalText.sanitized(output))
            StandardError.writeLine("signalpath: " + summary.line(path: output))
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
    }
}
