import ArgumentParser
import SignalPathKit

/// The conventions and limits of `analyze`.
struct AnalysisOptions: ParsableArguments {
    /// The library's defaults are the options' defaults, so help states what is used.
    private static let defaults = AnalysisSettings()

    @Option(name: .long, help: "What 0 dBFS RMS means: square (a full-scale square wave; sox, ffmpeg) or sine (a full-scale sine; AES17).")
    var rmsReference = defaults.rmsReference

    // Levels are negative: `.unconditional` takes `-40` as the value, not as an option.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Samples below this level (dBFS) are silence.", valueName: "db"))
    var silenceThreshold = defaults.silenceThreshold

    @Option(name: .long, help: ArgumentHelp("Clipping: runs of at least this many consecutive full-scale samples.", valueName: "n"))
    var clipRun = defaults.minimumClipRun

    @Option(name: .long, help: ArgumentHelp("The strongest N tones to list.", valueName: "n"))
    var tones = defaults.toneCount

    @Option(name: .long, help: ArgumentHelp("THD counts harmonics up to this order.", valueName: "n"))
    var harmonics = defaults.highestHarmonic

    @Option(
        name: .long,
        help: ArgumentHelp("FFT size of the averaged spectrum behind tones, distortion and the spectral summary (default: \(defaults.spectrum.fftSize)).", valueName: "n"),
        transform: OptionValue.fftSize)
    var fftSize = defaults.spectrum.fftSize

    @Option(
        name: .long, help: ArgumentHelp("Window of that spectrum, as `spectrum --window` takes it (default: \(defaults.spectrum.window.name)).", valueName: "name"),
        transform: OptionValue.window)
    var window = defaults.spectrum.window

    @Option(
        name: .long, help: ArgumentHelp("Reference pitch for note names, in Hz (default: \(UnitFormat.shortest(defaults.a4))).", valueName: "hz"),
        transform: OptionValue.positiveHertz)
    var a4 = defaults.a4

    func validate() throws {
        guard silenceThreshold.isFinite, (-200...0).contains(silenceThreshold) else {
            throw ValidationError("--silence-threshold takes -200 to 0 dBFS.")
        }
        guard (1...1_000_000).contains(clipRun) else { throw ValidationError("--clip-run takes 1 to 1000000.") }
        guard (0...100).contains(tones) else { throw ValidationError("--tones takes 0 to 100.") }
        guard (2...100).contains(harmonics) else { throw ValidationError("--harmonics takes 2 to 100.") }
    }

    var settings: AnalysisSettings {
        var settings = Self.defaults
        settings.rmsReference = rmsReference
        settings.silenceThreshold = silenceThreshold
        settings.minimumClipRun = clipRun
        settings.toneCount = tones
        settings.highestHarmonic = harmonics
        settings.spectrum.fftSize = fftSize
        settings.spectrum.windowSize = fftSize
        settings.spectrum.window = window
        settings.a4 = a4
        return settings
    }
}
