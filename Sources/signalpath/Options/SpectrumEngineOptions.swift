import ArgumentParser
import SignalPathKit

/// How spectra are computed: FFT, window, overlap, averaging.
struct SpectrumEngineOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("FFT size: an even number from 16 to 4194304.", valueName: "n"))
    var fftSize: Int?

    @Option(name: .long, help: ArgumentHelp("Pick the FFT size for bins no wider than this many Hz (instead of --fft-size).", valueName: "hz"))
    var resolution: Double?

    @Option(name: .long, help: ArgumentHelp("Samples per segment (default: the FFT size); smaller than the FFT size zero-pads.", valueName: "n"))
    var windowSize: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Window: rectangular, hann, hamming, blackman, blackman-harris, flat-top, kaiser[:BETA] (8.6), gaussian[:ALPHA] (2.5).",
            valueName: "name"))
    var window = "hann"

    @Option(name: .long, help: ArgumentHelp("Overlap between segments in percent, 0 to 95.", valueName: "percent"))
    var overlap = "50"

    @Option(name: .long, help: "Combine segments by the mean of power (Welch), max (peak hold), min or median.")
    var average: Averaging = .mean

    func validate() throws {
        if fftSize != nil && resolution != nil { throw ValidationError("Give either --fft-size or --resolution, not both.") }
        if let fftSize { try Self.validate(fftSize: fftSize) }
        if let resolution, !(resolution > 0 && resolution.isFinite) {
            throw ValidationError("--resolution must be a positive number of Hz.")
        }
        if let windowSize, !(2...SpectrumParameters.fftSizeRange.upperBound).contains(windowSize) {
            throw ValidationError("--window-size must be from 2 to 4194304 (got \(windowSize)).")
        }
        if let windowSize, let fftSize, windowSize > fftSize {
            throw ValidationError("--window-size (\(windowSize)) cannot be larger than --fft-size (\(fftSize)).")
        }
        try Self.validate(window: window)
        _ = try overlapFraction()
    }

    static func validate(fftSize: Int) throws {
        guard SpectrumParameters.fftSizeRange.contains(fftSize) && fftSize % 2 == 0 else {
            throw ValidationError("--fft-size must be an even number from 16 to 4194304 (got \(fftSize)).")
        }
    }

    static func validate(window: String) throws {
        guard Window(name: window) != nil else {
            throw ValidationError("Unknown window '\(window)'. Use rectangular, hann, hamming, blackman, blackman-harris, flat-top, kaiser:BETA or gaussian:ALPHA.")
        }
    }

    func overlapFraction() throws -> Double {
        let text = overlap.hasSuffix("%") ? String(overlap.dropLast()) : overlap
        guard let percent = Double(text), percent >= 0, percent <= 95 else {
            throw ValidationError("--overlap must be a percentage from 0 to 95 (got '\(overlap)').")
        }
        return percent / 100
    }

    /// The parameters for a file at `sampleRate` (after `validate()`).
    func parameters(sampleRate: Int) -> SpectrumParameters {
        let size =
            fftSize ?? resolution.map { SpectrumParameters.fftSize(forBinWidth: $0, sampleRate: sampleRate) }
            ?? max(windowSize ?? 4096, 4096) + (max(windowSize ?? 4096, 4096) % 2)
        return SpectrumParameters(
            fftSize: size, windowSize: min(windowSize ?? size, size), window: Window(name: window)!,
            overlap: (try? overlapFraction()) ?? 0.5, averaging: average)
    }
}

extension Averaging: ExpressibleByArgument {}
extension SpectrumScale: ExpressibleByArgument {}
