import ArgumentParser
import SignalPathKit

/// What to show of a spectrum: channels, scale, frequency range, smoothing, bands, weighting, peaks.
struct PresentationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Channel: 1…N, left, right, a position (FL, FR, FC, LFE, BL, BR, SL, SR, …) or mix (default: every channel).", valueName: "channel"))
    var channel: String?

    @Option(name: .long, help: "Scale: dbfs (amplitude, full-scale sine = 0 dB), psd (dB re 1 FS²/Hz), power (dB re 1 FS²) or linear.")
    var scale: SpectrumScale = .dbfs

    @Option(name: .long, help: ArgumentHelp("Lowest frequency to show, in Hz.", valueName: "hz"))
    var minFreq: Double?

    @Option(name: .long, help: ArgumentHelp("Highest frequency to show, in Hz.", valueName: "hz"))
    var maxFreq: Double?

    @Option(name: .long, help: ArgumentHelp("Fractional-octave smoothing: 1/1 to 1/48 (e.g. 1/3).", valueName: "1/n"))
    var smooth: String?

    @Option(name: .long, help: ArgumentHelp("Band levels instead of bins: 1/1 (octaves), 1/3 (third octaves), 1/2, 1/6, 1/12 or 1/24 (IEC 61260).", valueName: "1/n"))
    var bands: String?

    @Option(name: .long, help: "Frequency weighting: A, C or Z (none), IEC 61672.")
    var weighting: String = "Z"

    @Option(name: .long, help: ArgumentHelp("Find the N strongest peaks per channel, with note names (text output shows 5 by default).", valueName: "n"))
    var peaks: Int?

    @Option(name: .long, help: ArgumentHelp("Reference pitch for note names, in Hz.", valueName: "hz"))
    var a4 = 440.0

    func validate() throws {
        if let channel, ChannelSelection(parsing: channel) == nil {
            throw ValidationError("Unknown channel '\(channel)'. Use a number from 1, left, right, a position such as FL or LFE, or mix.")
        }
        if let minFreq, !(minFreq >= 0) { throw ValidationError("--min-freq must be 0 Hz or more.") }
        if let maxFreq, !(maxFreq > 0) { throw ValidationError("--max-freq must be above 0 Hz.") }
        if let minFreq, let maxFreq, minFreq >= maxFreq { throw ValidationError("--min-freq must be below --max-freq.") }
        if let smooth {
            guard let n = Self.fraction(smooth), (1...48).contains(n) else { throw ValidationError("--smooth takes 1/1 to 1/48 (got '\(smooth)').") }
            _ = n
        }
        if let bands {
            guard let n = Self.fraction(bands), [1, 2, 3, 6, 12, 24].contains(n) else {
                throw ValidationError("--bands takes 1/1, 1/2, 1/3, 1/6, 1/12 or 1/24 (got '\(bands)').")
            }
            _ = n
        }
        if smooth != nil && bands != nil { throw ValidationError("Give either --smooth or --bands, not both.") }
        guard FrequencyWeighting(rawValue: weighting.uppercased()) != nil else {
            throw ValidationError("--weighting takes A, C or Z (got '\(weighting)').")
        }
        if let peaks, !(0...1000).contains(peaks) { throw ValidationError("--peaks takes 0 to 1000.") }
        guard a4 > 0 && a4.isFinite else { throw ValidationError("--a4 must be a positive frequency.") }
    }

    /// `1/3` → 3, `1` or `1/1` → 1.
    static func fraction(_ text: String) -> Int? {
        let parts = text.split(separator: "/")
        if parts.count == 1 { return Int(parts[0]).flatMap { $0 == 1 ? 1 : nil } }
        guard parts.count == 2, parts[0] == "1" else { return nil }
        return Int(parts[1])
    }

    var channels: ChannelSelection { channel.flatMap(ChannelSelection.init(parsing:)) ?? .all }

    func presentation(defaultPeaks: Int) -> SpectrumPresentation {
        var presentation = SpectrumPresentation()
        presentation.scale = scale
        presentation.weighting = FrequencyWeighting(rawValue: weighting.uppercased()) ?? .z
        presentation.smoothing = smooth.flatMap(Self.fraction)
        presentation.bands = bands.flatMap(Self.fraction)
        if minFreq != nil || maxFreq != nil { presentation.frequencies = (minFreq ?? 0)...(maxFreq ?? .infinity) }
        presentation.peakCount = peaks ?? defaultPeaks
        presentation.a4 = a4
        return presentation
    }
}
