import ArgumentParser
import SignalPathKit

/// The thresholds of `events`.
struct EventOptions: ParsableArguments {
    /// The library's defaults are the options' defaults, so help states what is used.
    private static let defaults = EventSettings()

    // Levels are negative: `.unconditional` takes `-50` as the value, not as an option.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Silence: every channel below this level, dBFS.", valueName: "db"))
    var silenceThreshold = defaults.silenceThreshold

    @Option(
        name: .long, help: ArgumentHelp("Silence: at least this long: 0.5, 500ms, 2s (default: \(UnitFormat.shortest(defaults.minimumSilence)) s).", valueName: "time"),
        transform: OptionValue.duration)
    var minSilence = defaults.minimumSilence

    @Option(name: .long, help: ArgumentHelp("Clipping: runs of at least this many consecutive full-scale samples.", valueName: "n"))
    var clipRun = defaults.minimumClipRun

    @Option(
        name: .long,
        help: ArgumentHelp("DC offset: spans whose 1 s mean exceeds this, in percent of full scale: 1, 0.5% (default: 1 %).", valueName: "percent"),
        transform: OptionValue.percentAsFraction)
    var maxDc = defaults.maximumDC

    @Option(
        name: .long, help: ArgumentHelp("Loudness jump: short-term loudness changing by more than this within 1 s, LU (default: 10).", valueName: "lu"),
        transform: OptionValue.loudnessUnits)
    var maxJump = defaults.maximumJump

    func validate() throws {
        guard silenceThreshold.isFinite, (-200...0).contains(silenceThreshold) else { throw ValidationError("--silence-threshold takes -200 to 0 dBFS.") }
        guard minSilence > 0, minSilence <= 86_400 else { throw ValidationError("--min-silence takes more than 0 s, up to 24 hours.") }
        guard (1...1_000_000).contains(clipRun) else { throw ValidationError("--clip-run takes 1 to 1000000.") }
    }

    var settings: EventSettings {
        var settings = Self.defaults
        settings.silenceThreshold = silenceThreshold
        settings.minimumSilence = minSilence
        settings.minimumClipRun = clipRun
        settings.maximumDC = maxDc
        settings.maximumJump = maxJump
        return settings
    }
}
