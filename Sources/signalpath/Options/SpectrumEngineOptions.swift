import ArgumentParser
import SignalPathKit

/// How spectra are computed: FFT, window, overlap, averaging.
struct SpectrumEngineOptions: ParsableArguments {
    static let defaultFFTSize = 4096
    static let defaultWindow = Window.hann
    static let defaultOverlap = 0.5

    @Option(
        name: .long,
        help: ArgumentHelp(
            "FFT size: an even number from 16 to 4194304 (default: \(defaultFFTSize), or --window-size when that is larger).", valueName: "n"),
        transform: OptionValue.fftSize)
    var fftSize: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Pick the FFT size for bins no wider than this many Hz (instead of --fft-size); when even the largest FFT is too coarse, a note on standard error says what was used.",
            valueName: "hz"), transform: OptionValue.positiveHertz)
    var resolution: Double?

    @Option(
        name: .long, help: ArgumentHelp("Samples per segment (default: the FFT size); smaller than the FFT size zero-pads.", valueName: "n"),
        transform: OptionValue.windowSize)
    var windowSize: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Window: rectangular, hann, hamming, blackman, blackman-harris, flat-top, kaiser[:BETA] (8.6), gaussian[:ALPHA] (2.5) (default: \(defaultWindow.name)).",
            valueName: "name"), transform: OptionValue.window)
    var window = defaultWindow

    @Option(
        name: .long, help: ArgumentHelp("Overlap between segments in percent, 0 to 95 (default: \(Int(defaultOverlap * 100))).", valueName: "percent"),
        transform: OptionValue.overlap)
    var overlap = defaultOverlap

    @Option(name: .long, help: "Combine segments by the mean of power (Welch), max (peak hold), min or median (default: mean).")
    var average: Averaging?

    func validate() throws {
        if fftSize != nil && resolution != nil { throw ValidationError("Give either --fft-size or --resolution, not both.") }
        if let windowSize, let fftSize, windowSize > fftSize {
            throw ValidationError("--window-size (\(windowSize)) cannot be larger than --fft-size (\(fftSize)).")
        }
    }

    /// How segments are combined.
    var averaging: Averaging { average ?? .mean }

    /// The parameters for `file`. When --resolution asks for finer bins than the largest FFT
    /// gives at the file's rate, one line on standard error says what is used instead.
    func parameters(for file: AudioFile) -> SpectrumParameters {
        let sampleRate = file.format.sampleRate
        let fallback = max(windowSize ?? Self.defaultFFTSize, Self.defaultFFTSize)
        var size = fftSize ?? fallback + fallback % 2
        if let resolution {
            // A --window-size longer than that FFT gets an FFT of its length (narrower bins still
            // meet the request) rather than being cut short.
            size = max(SpectrumParameters.fftSize(forBinWidth: resolution, sampleRate: sampleRate), windowSize.map { $0 + $0 % 2 } ?? 0)
            let binWidth = Double(sampleRate) / Double(size)
            if binWidth > resolution {
                StandardError.writeLine(
                    "signalpath: \(TerminalText.sanitized(file.path)): --resolution \(UnitFormat.shortest(resolution)) Hz needs more than the largest FFT "
                        + "(\(SpectrumParameters.fftSizeRange.upperBound) points); using \(UnitFormat.significant(binWidth, 3)) Hz bins")
            }
        }
        return SpectrumParameters(fftSize: size, windowSize: min(windowSize ?? size, size), window: window, overlap: overlap, averaging: averaging)
    }
}
