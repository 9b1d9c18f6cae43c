import ArgumentParser
import SignalPathKit

/// What to show of a spectrum: channels, scale, frequency range, smoothing, bands, weighting, peaks.
struct PresentationOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp("Channel: 1…N, left, right, a position (FL, FR, FC, LFE, BL, BR, SL, SR, …) or mix (default: every channel).", valueName: "channel"),
        transform: OptionValue.channel)
    var channel: ChannelSelection?

    @Option(name: .long, help: "Scale: dbfs (amplitude, full-scale sine = 0 dB), psd (dB re 1 FS²/Hz), power (dB re 1 FS²) or linear.")
    var scale: SpectrumScale = .dbfs

    @Option(name: .long, help: ArgumentHelp("Lowest frequency to show, in Hz (default: 0).", valueName: "hz"), transform: OptionValue.hertz)
    var minFreq: Double?

    @Option(name: .long, help: ArgumentHelp("Highest frequency to show, in Hz (default: Nyquist).", valueName: "hz"), transform: OptionValue.positiveHertz)
    var maxFreq: Double?

    @Option(
        name: .long, help: ArgumentHelp("Fractional-octave smoothing: 1/1 to 1/48, such as 1/3 (default: none).", valueName: "1/n"),
        transform: OptionValue.smoothingFraction)
    var smooth: OctaveFraction?

    @Option(
        name: .long,
        help: ArgumentHelp("Band levels instead of bins (IEC 61260): \(OctaveFraction.bandList) (default: bins).", valueName: "1/n"),
        transform: OptionValue.bandFraction)
    var bands: OctaveFraction?

    @Option(name: .long, help: "Frequency weighting: A, C or Z (none), IEC 61672.")
    var weighting: FrequencyWeighting = .z

    @Option(
        name: .long,
        help: ArgumentHelp("Find the N strongest peaks per channel, with note names (default: 3 in a plot, 5 in text, none in data).", valueName: "n"))
    var peaks: Int?

    @Option(
        name: .long, help: ArgumentHelp("Reference pitch for the note names of peaks, in Hz (default: 440).", valueName: "hz"),
        transform: OptionValue.positiveHertz)
    var a4: Double?

    func validate() throws {
        if let minFreq, let maxFreq, minFreq >= maxFreq { throw ValidationError("--min-freq must be below --max-freq.") }
        if smooth != nil && bands != nil { throw ValidationError("Give either --smooth or --bands, not both.") }
        if let peaks, !(0...1000).contains(peaks) { throw ValidationError("--peaks takes 0 to 1000.") }
    }

    var channels: ChannelSelection { channel ?? .all }

    /// The number of peaks to find: as asked, or the format's default.
    func peakCount(format: OutputFormat) -> Int {
        peaks ?? (format == .text ? 5 : format.isPicture ? 3 : 0)
    }

    func presentation(format: OutputFormat) -> SpectrumPresentation {
        var presentation = SpectrumPresentation()
        presentation.scale = scale
        presentation.weighting = weighting
        presentation.smoothing = smooth?.denominator
        presentation.bands = bands?.denominator
        if minFreq != nil || maxFreq != nil { presentation.frequencies = (minFreq ?? 0)...(maxFreq ?? .infinity) }
        presentation.peakCount = peakCount(format: format)
        presentation.tableOfPeaks = peaks != nil
        presentation.a4 = a4 ?? 440
        return presentation
    }
}
