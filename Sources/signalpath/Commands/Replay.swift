import ArgumentParser
import SignalPathKit

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        _superCommandName: "signalpath",
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
            Options for the other mode (--view and --stats on a pipe, --format and --no-realtime \
            on a terminal) are refused rather than ignored. --from past the end of the file is \
            an error, as a range outside it is (except with --follow, for a file still growing).

            Examples:
              signalpath replay take.wav
              signalpath replay take.wav --from 1:30 --speed 2
              signalpath replay take.wav --bands 1/3 | your-consumer
              signalpath record take.wav & signalpath replay take.wav --follow
            """
    )

    @Argument(help: "The audio file.")
    var file: String

    @OptionGroup var streamOption: StreamOptions

    @Option(name: .long, help: ArgumentHelp("Start at this time: 90, 1:30, 2.5s (default: 0).", valueName: "time"), transform: OptionValue.time)
    var from: Double?

    @Option(name: .long, help: ArgumentHelp("Speed, 0.25 to 8.", valueName: "x"))
    var speed = 1.0

    @Option(name: .long, help: "What to show on a terminal: spectrum, spectrogram or both (default: both).")
    var view: ReplayView?

    @Option(name: .long, help: ArgumentHelp("Frames per second.", valueName: "n"))
    var fps = 30.0

    @Option(name: .long, help: ArgumentHelp("FFT size of the spectrum (default: 4096).", valueName: "n"), transform: OptionValue.fftSize)
    var fftSize = 4096

    @Option(
        name: .long, help: ArgumentHelp("Fractional-octave bands instead of bins: \(OctaveFraction.bandList) (default: bins).", valueName: "1/n"),
        transform: OptionValue.bandFraction)
    var bands: OctaveFraction?

    @Option(name: [.customShort("f"), .long], help: "Frame lines when piped: ndjson or csv (default: ndjson).")
    var format: LineFormat?

    @Flag(name: .long, inversion: .prefixedNo, help: "Pace frames in real time when piped (--no-realtime: as fast as possible; default: real time).")
    var realtime: Bool?

    @Flag(name: .long, help: "Keep up with a file that is still being written.")
    var follow = false

    @Flag(name: .long, help: "Play the audio on an ALSA device; the display follows its clock.")
    var play = false

    @Option(name: .long, help: ArgumentHelp("ALSA device for --play (default: default).", valueName: "name"))
    var device: String?

    @Flag(name: .long, help: "Show the cache's hit rate on the screen.")
    var stats = false

    enum LineFormat: String, ExpressibleByArgument { case ndjson, csv }

    func validate() throws {
        guard (0.25...8).contains(speed) else { throw ValidationError("--speed takes 0.25 to 8.") }
        guard (1...120).contains(fps) else { throw ValidationError("--fps takes 1 to 120.") }
        guard file != "-" else { throw ValidationError("replay needs a file: it seeks.") }
        if device != nil && !play { throw ValidationError("--device names the device for --play; add --play.") }
        // Each mode has its own options; one given for the other mode would change nothing.
        if StandardOutput.isTerminal {
            if format != nil { throw ValidationError("--format applies to frame lines when output is piped; on a terminal replay draws the screen.") }
            if realtime == false { throw ValidationError("--no-realtime applies when output is piped; on a terminal replay plays in real time.") }
        } else {
            if view != nil { throw ValidationError("--view applies to the screen on a terminal; piped, replay writes frame lines.") }
            if stats { throw ValidationError("--stats shows on the screen on a terminal; piped, replay writes frame lines.") }
        }
    }

    func run() throws {
        StopSignals.install()
        do throws(SignalPathError) {
            let player = try ReplayPlayer(path: file, stream: streamOption.stream, fftSize: fftSize, bands: bands?.denominator)
            // A file still empty is no error when following: record may not have written its first block yet.
            let waitsForFrames = follow && player.file.format.frames == 0
            try AudioFile.note(player.file, use: waitsForFrames ? nil : "replaying those")
            if let from, !follow {
                // The same rule and message as a --range that starts after the end of the file.
                let format = player.file.format
                _ = try TimeRange(start: from).frames(in: file, sampleRate: format.sampleRate, frames: format.frames)
            }
            var options = ReplayRunner.Options()
            options.from = from ?? 0
            options.speed = speed
            options.framesPerSecond = fps
            options.realtime = realtime ?? true
            options.follow = follow
            options.device = play ? device ?? "default" : nil
            options.view = view ?? .both
            options.stats = stats
            options.lineFormat = format == .csv ? .csv : .ndjson
            options.colorDepth = ColorDepth.detect(choice: .auto, isTerminal: true, environment: ProcessEnvironment.current)
            try ReplayRunner(player: player, options: options).run(title: "signalpath replay · " + AudioStream.heading(path: file, stream: player.file.namedStream))
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
    }
}
