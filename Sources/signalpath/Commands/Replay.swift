import ArgumentParser
import SignalPathKit

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A file's spectrum, animated in real time: full screen on a terminal, NDJSON frames when piped.",
        discussion: """
            On a terminal: the spectrum at the play head, a scrolling spectrogram, a meter per \
            channel (RMS bar, held peak, CLIP) and a transport line. Keys: space pause, ←/→ 5 s, \
            shift+←/→ or PgUp/PgDn 1 min, Home/End, +/- speed (0.25× … 8×), v view, q/Esc/Ctrl-C \
            quit. Only the bytes near the play head are read; recently shown regions stay in memory \
            (--stats shows the cache's hit rate).

            Piped: one NDJSON line per frame (--format csv for CSV): time_s, per channel rms_dbfs, \
            peak_dbfs and clipped, and the spectrum (levels_dbfs per channel with bin_width_hz, or \
            bands_hz with --bands), paced in real time (--no-realtime: as fast as possible).

            Examples:
              signalpath replay take.wav
              signalpath replay take.wav --from 1:30 --speed 2
              signalpath replay take.wav --bands 1/3 | your-consumer
              signalpath record take.wav & signalpath replay take.wav --follow
            """
    )

    @Argument(help: "The audio file.")
    var file: String

    @Option(name: .long, help: ArgumentHelp("Start at this time: 90, 1:30, 2.5s.", valueName: "time"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Speed, 0.25 to 8.", valueName: "x"))
    var speed = 1.0

    @Option(name: .long, help: "What to show: spectrum, spectrogram or both.")
    var view: ReplayView = .both

    @Option(name: .long, help: ArgumentHelp("Frames per second.", valueName: "n"))
    var fps = 30.0

    @Option(name: .long, help: ArgumentHelp("FFT size of the spectrum.", valueName: "n"))
    var fftSize = 4096

    @Option(name: .long, help: ArgumentHelp("Fractional-octave bands instead of bins: 1/1, 1/3, 1/6, 1/12, 1/24.", valueName: "1/n"))
    var bands: String?

    @Option(name: .long, help: "Frame lines when piped: ndjson or csv.")
    var format: LineFormat = .ndjson

    @Flag(name: .long, inversion: .prefixedNo, help: "Pace frames in real time when piped (--no-realtime: as fast as possible).")
    var realtime = true

    @Flag(name: .long, help: "Keep up with a file that is still being written.")
    var follow = false

    @Flag(name: .long, help: "Play the audio on an ALSA device; the display follows its clock.")
    var play = false

    @Option(name: .long, help: ArgumentHelp("ALSA device for --play.", valueName: "name"))
    var device = "default"

    @Flag(name: .long, help: "Show the cache's hit rate.")
    var stats = false

    enum LineFormat: String, ExpressibleByArgument { case ndjson, csv }

    func validate() throws {
        guard (0.25...8).contains(speed) else { throw ValidationError("--speed takes 0.25 to 8.") }
        guard (1...120).contains(fps) else { throw ValidationError("--fps takes 1 to 120.") }
        try SpectrumEngineOptions.validate(fftSize: fftSize)
        if let from, TimeRange.seconds(from) == nil { throw ValidationError("Cannot read the time '\(from)'.") }
        if let bands, !(PresentationOptions.fraction(bands).map { [1, 2, 3, 6, 12, 24].contains($0) } ?? false) {
            throw ValidationError("--bands takes 1/1, 1/2, 1/3, 1/6, 1/12 or 1/24 (got '\(bands)').")
        }
        guard file != "-" else { throw ValidationError("replay needs a file: it seeks.") }
    }

    func run() throws {
        StopSignals.install()
        do throws(SignalPathError) {
            let player = try ReplayPlayer(path: file, fftSize: fftSize, bands: bands.flatMap(PresentationOptions.fraction))
            try AudioFile.note(player.file, use: "replaying those")
            var options = ReplayRunner.Options()
            options.from = from.flatMap(TimeRange.seconds) ?? 0
            options.speed = speed
            options.framesPerSecond = fps
            options.realtime = realtime
            options.follow = follow
            options.device = play ? device : nil
            options.view = view
            options.stats = stats
            let runner = ReplayRunner(player: player, options: options)
            if StandardOutput.isTerminal {
                try runner.runScreen(title: "signalpath replay · " + TerminalText.sanitized(file))
            } else {
                try runner.runLines(format == .csv ? .csv : .ndjson)
            }
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
    }
}

extension ReplayView: ExpressibleByArgument {}
