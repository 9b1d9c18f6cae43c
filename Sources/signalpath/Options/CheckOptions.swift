import ArgumentParser
import SignalPathKit

/// The rules `check` applies: a profile, and limits that override or extend it.
struct CheckOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Delivery profile: \(OutputFormat.list(DeliveryProfile.all.map(\.name))) (limits and documents: below and docs/CHECK.md).",
            valueName: "name"),
        completion: .list(DeliveryProfile.all.map(\.name)), transform: OptionValue.profile)
    var profile: DeliveryProfile?

    // Levels are negative: `.unconditional` takes `-23` as the value, not as an option.
    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Integrated loudness target, LUFS (overrides the profile's, its mono target too).", valueName: "lufs"),
        transform: OptionValue.loudnessLevel)
    var targetLufs: Double?

    @Option(name: .long, help: ArgumentHelp("Allowed deviation from the target, +- LU (overrides the profile's).", valueName: "lu"), transform: OptionValue.loudnessUnits)
    var tolerance: Double?

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Maximum true peak, dBTP (overrides the profile's, with no tolerance).", valueName: "dbtp"),
        transform: OptionValue.truePeakLimit)
    var maxTruePeak: Double?

    @Option(name: .long, help: ArgumentHelp("Maximum loudness range (EBU Tech 3342), LU.", valueName: "lu"), transform: OptionValue.loudnessUnits)
    var maxLra: Double?

    @Option(name: .long, help: ArgumentHelp("Maximum clipped samples, over all channels.", valueName: "n"), transform: OptionValue.sampleCount)
    var maxClipped: Int64?

    @Option(
        name: .long, help: ArgumentHelp("Maximum length of the longest silence (runs the events pass after the analysis).", valueName: "time"),
        transform: OptionValue.time)
    var maxSilence: Double?

    @Option(name: .long, help: ArgumentHelp("Maximum DC offset of any channel, percent of full scale.", valueName: "percent"), transform: OptionValue.percent)
    var maxDc: Double?

    @Flag(
        name: .long,
        help: "Fail files that analyze's authenticity verdict does not call lossless_origin: lossy_origin, upsampled and inconclusive fail (docs/AUTHENTICITY.md).")
    var requireLosslessOrigin = false

    @Flag(
        name: .long,
        help: """
            Fail files whose embedded MD5 (FLAC STREAMINFO, BWF MD5 chunk) is not the MD5 of their audio;             a file that carries none, or an unset one, passes and is reported so (docs/FIXITY.md).
            """)
    var requireMd5 = false

    @Option(
        name: .long,
        help: ArgumentHelp("With --max-clipped: clipping is runs of at least this many consecutive full-scale samples (default: 3).", valueName: "n"))
    var clipRun: Int?

    func validate() throws {
        if profile == nil && targetLufs == nil && maxTruePeak == nil && maxLra == nil && maxClipped == nil && maxSilence == nil && maxDc == nil
            && !requireLosslessOrigin && !requireMd5
        {
            throw ValidationError(
                "Name a --profile or at least one rule (--target-lufs, --max-true-peak, --max-lra, --max-clipped, --max-silence, --max-dc, --require-lossless-origin, --require-md5)."
            )
        }
        if targetLufs != nil && tolerance == nil && profile == nil {
            throw ValidationError("--target-lufs needs a --tolerance (there is no profile to take it from).")
        }
        if tolerance != nil && targetLufs == nil && profile == nil { throw ValidationError("--tolerance applies to a loudness target; give --target-lufs or a --profile.") }
        if let clipRun {
            guard maxClipped != nil else { throw ValidationError("--clip-run applies to --max-clipped; there is no clipping rule.") }
            guard (1...1_000_000).contains(clipRun) else { throw ValidationError("--clip-run takes 1 to 1000000.") }
        }
    }

    /// The rules in force: the profile's limits with the explicit ones over them.
    var rules: DeliveryRules {
        var rules = DeliveryRules(profile: profile)
        if let targetLufs {
            rules.target = targetLufs
            rules.monoTarget = nil
        }
        if let tolerance { rules.tolerance = tolerance }
        if let maxTruePeak {
            rules.maximumTruePeak = maxTruePeak
            rules.truePeakTolerance = 0
        }
        rules.maximumLoudnessRange = maxLra
        rules.maximumClippedSamples = maxClipped
        rules.maximumSilence = maxSilence
        rules.maximumDCOffsetPercent = maxDc
        rules.requiresLosslessOrigin = requireLosslessOrigin
        rules.requiresMD5 = requireMd5
        return rules
    }

    /// The analysis settings the rules need: analyze's defaults, with --clip-run and the true-peak mode.
    func settings(truePeak mode: TruePeakMode) -> AnalysisSettings {
        var settings = AnalysisSettings()
        if let clipRun { settings.minimumClipRun = clipRun }
        settings.truePeakMode = mode
        settings.computesAudioMD5 = requireMd5
        return settings
    }
}
