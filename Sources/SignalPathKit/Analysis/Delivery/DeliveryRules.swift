/// The rules a file is checked against: a profile's limits, overridden or extended by explicit
/// ones (`signalpath check`). A nil limit is no rule.
public struct DeliveryRules: Sendable, Equatable {
    /// The profile the limits start from, if any.
    public var profile: DeliveryProfile?
    /// Integrated loudness target (LUFS) and the allowed deviation (± LU).
    public var target: Double?
    public var tolerance: Double?
    /// The target for files of one channel, where it differs from `target` (the podcast profile's).
    public var monoTarget: Double?
    /// Maximum true peak, dBTP.
    public var maximumTruePeak: Double?
    /// The measurement tolerance allowed on the true peak (R 128 v4.0's), dB.
    public var truePeakTolerance = 0.0
    /// Maximum loudness range (EBU Tech 3342), LU.
    public var maximumLoudnessRange: Double?
    /// Maximum clipped samples over all channels.
    public var maximumClippedSamples: Int64?
    /// Maximum length of the longest silence, seconds.
    public var maximumSilence: Double?
    /// Maximum |DC offset| of any channel, percent of full scale.
    public var maximumDCOffsetPercent: Double?
    /// Refuse files whose authenticity verdict is a lossy or upsampled origin.
    public var requiresLosslessOrigin = false
    /// Refuse files whose embedded MD5 (FLAC STREAMINFO, BWF `MD5 ` chunk) is not their audio's.
    public var requiresMD5 = false

    /// The profile's limits (none without one).
    public init(profile: DeliveryProfile? = nil) {
        self.profile = profile
        target = profile?.target
        tolerance = profile?.tolerance
        monoTarget = profile?.monoTarget
        maximumTruePeak = profile?.maximumTruePeak
        truePeakTolerance = profile?.truePeakTolerance ?? 0
    }

    /// The loudness target for a file of `channels` channels.
    public func target(channels: Int) -> Double? {
        channels == 1 ? monoTarget ?? target : target
    }

    /// The true peak a reading may reach and pass: the maximum with its measurement tolerance.
    public var truePeakLimit: Double? { maximumTruePeak.map { $0 + truePeakTolerance } }

    /// The rules in force, in the order every output lists them.
    public var rules: [DeliveryRule] {
        var rules: [DeliveryRule] = []
        if target != nil { rules.append(.integratedLoudness) }
        if maximumTruePeak != nil { rules.append(.truePeak) }
        if maximumLoudnessRange != nil { rules.append(.loudnessRange) }
        if maximumClippedSamples != nil { rules.append(.clippedSamples) }
        if maximumSilence != nil { rules.append(.longestSilence) }
        if maximumDCOffsetPercent != nil { rules.append(.dcOffset) }
        if requiresLosslessOrigin { rules.append(.losslessOrigin) }
        if requiresMD5 { rules.append(.embeddedMD5) }
        return rules
    }
}

/// One kind of rule: what is measured, in which unit.
public enum DeliveryRule: String, Sendable, CaseIterable {
    case integratedLoudness = "integrated_loudness"
    case truePeak = "true_peak"
    case loudnessRange = "loudness_range"
    case clippedSamples = "clipped_samples"
    case longestSilence = "longest_silence"
    case dcOffset = "dc_offset"
    case losslessOrigin = "lossless_origin"
    case embeddedMD5 = "embedded_md5"

    public var unit: String {
        switch self {
        case .integratedLoudness: return "LUFS"
        case .truePeak: return "dBTP"
        case .loudnessRange: return "LU"
        case .clippedSamples: return "samples"
        case .longestSilence: return "s"
        case .dcOffset: return "%"
        case .losslessOrigin, .embeddedMD5: return ""
        }
    }

    /// Words for people.
    public var label: String {
        switch self {
        case .integratedLoudness: return "integrated loudness"
        case .truePeak: return "true peak"
        case .loudnessRange: return "loudness range"
        case .clippedSamples: return "clipped samples"
        case .longestSilence: return "longest silence"
        case .dcOffset: return "DC offset"
        case .losslessOrigin: return "lossless origin"
        case .embeddedMD5: return "embedded MD5"
        }
    }
}
