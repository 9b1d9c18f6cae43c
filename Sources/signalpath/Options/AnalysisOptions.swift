import ArgumentParser
import SignalPathKit

/// The conventions and limits of `analyze`.
struct AnalysisOptions: ParsableArguments {
    @Option(name: .long, help: "What 0 dBFS RMS means: square (a full-scale square wave; sox, ffmpeg) or sine (a full-scale sine; AES17).")
    var rmsReference: RMSReference = .square

    @Option(name: .long, help: ArgumentHelp("Samples below this level (dBFS) are silence.", valueName: "db"))
    var silenceThreshold = -60.0

    @Option(name: .long, help: ArgumentHelp("Clipping: runs of at least this many consecutive full-scale samples.", valueName: "n"))
    var clipRun = 3

    @Option(name: .long, help: ArgumentHelp("The strongest N tones to list.", valueName: "n"))
    var tones = 5

    @Option(name: .long, help: ArgumentHelp("THD counts harmonics up to this order.", valueName: "n"))
    var harmonics = 10

    @Option(name: .long, help: ArgumentHelp("FFT size of the averaged spectrum behind tones, distortion and the spectral summary.", valueName: "n"))
    var fftSize = 8192

    @Option(name: .long, help: ArgumentHelp("Window of that spectrum (see `signalpath spectrum --help`).", valueName: "name"))
    var window = "kaiser:20"

    @Option(name: .long, help: ArgumentHelp("Reference pitch for note names, in Hz.", valueName: "hz"))
    var a4 = 440.0

    func validate() throws {
        guard silenceThreshold.isFinite, (-200...0).contains(silenceThreshold) else {
            throw ValidationError("--silence-threshold takes -200 to 0 dBFS.")
        }
        guard (1...1_000_000).contains(clipRun) else { throw ValidationError("--clip-run takes 1 to 1000000.") }
        guard (0...100).contains(tones) else { throw ValidationError("--tones takes 0 to 100.") }
        guard (2...100).contains(harmonics) else { throw ValidationError("--harmonics takes 2 to 100.") }
        try SpectrumEngineOptions.validate(fftSize: fftSize)
        try SpectrumEngineOptions.validate(window: window)
        guard a4 > 0 && a4.isFinite else { throw ValidationError("--a4 must be a positive frequency.") }
    }

    var settings: AnalysisSettings {
        var settings = AnalysisSettings()
        settings.rmsReference = rmsReference
        settings.silenceThreshold = silenceThreshold
        settings.minimumClipRun = clipRun
        settings.toneCount = tones
        settings.highestHarmonic = harmonics
        settings.spectrum = SpectrumParameters(fftSize: fftSize, window: Window(name: window) ?? .kaiser(beta: 20), overlap: 0.5)
        settings.a4 = a4
        return settings
    }
}

extension RMSReference: ExpressibleByArgument {}
