/// Whether one file meets `DeliveryRules`: each rule with its measured value, limits and
/// outcome, and the gain that would bring its integrated loudness to the target.
///
/// Values are compared as measured, unrounded (outputs show them to 0.01): a reading of
/// −23.24 LUFS fails −23 ± 0.2 though a meter showing one decimal (EBU Tech 3341) reads −23.2.
/// A value that cannot be measured (the loudness of digital silence) fails its rule.
public struct DeliveryVerdict: Sendable {
    /// One rule's outcome.
    public struct Outcome: Sendable, Equatable {
        public var rule: DeliveryRule
        /// Nil when the file has no such value (the loudness of silence).
        public var measured: Double?
        /// The allowed range's ends; nil for an open end.
        public var minimum: Double?
        public var maximum: Double?
        public var passed: Bool
        /// What a rule without a number found (the authenticity verdict).
        public var finding: String? = nil
    }

    public var path: String
    /// The stream checked, when reports name it (`AudioFile.namedStream`).
    public var stream: AudioStream?
    public var rules: DeliveryRules
    /// The frames checked (absolute) and the rate, for the outputs.
    public var frames: Range<Int64>
    public var sampleRate: Int
    /// How the true peak was read.
    public var truePeakMode: TruePeakMode
    public var outcomes: [Outcome]
    /// Channels of the file: a file of one channel takes the rules' mono target.
    public var channels: Int
    /// The loudness target applied to this file (nil without a loudness rule).
    public var target: Double?
    public var integratedLoudness: Double?
    public var truePeak: Double
    /// Samples in runs of full-scale samples, and the clipping events they make, over all
    /// channels (analyze's counts: runs less than 10 ms apart are one event, as `events` lists them).
    public var clippedSamples: Int64
    public var clipEvents: Int64
    /// The shortest run of full-scale samples that counts as clipping.
    public var clipRun: Int
    /// target − integrated loudness, dB; nil without a target or a measurable loudness.
    public var gain: Double?
    /// The true peak after that gain: the meter is linear, so the reading moves by the gain exactly.
    public var truePeakAfterGain: Double?
    /// How far the true peak after the gain would exceed the maximum (the limiting it needs), dB;
    /// 0 when it stays within; nil without a gain or a true-peak rule.
    public var limitingNeeded: Double?

    public var passed: Bool { outcomes.allSatisfy(\.passed) }

    /// The embedded-MD5 rule: a mismatch fails, and so does a checksum that could not be compared
    /// (a range short of the whole file); a file that carries none, or an unset one (a FLAC's all
    /// zeros), passes with that said: there is nothing to contradict its audio (docs/FIXITY.md).
    static func embeddedMD5Finding(_ analysis: SignalAnalysis) -> (passed: Bool, finding: String) {
        guard let embedded = analysis.embeddedMD5 else { return (true, "none") }
        guard embedded.value != nil else { return (true, "unset") }
        switch analysis.embeddedMD5Matches {
        case true?: return (true, "matches")
        case false?: return (false, "mismatch")
        case nil: return (false, "not compared")
        }
    }
    /// True when applying `gain` would break the true-peak limit.
    public var gainBreaksTruePeak: Bool? { limitingNeeded.map { $0 > 0 } }
    /// True when the file has clipped: no gain brings the flattened peaks back.
    public var hasClipping: Bool { clippedSamples > 0 }

    /// `events` is the events pass's summary, needed for the longest silence (nil when no rule
    /// asks for it); clipped samples are analyze's count, by the same run rule.
    public init(analysis: SignalAnalysis, events: EventSummary?, rules: DeliveryRules) {
        path = analysis.path
        stream = analysis.stream
        self.rules = rules
        frames = analysis.frames
        sampleRate = analysis.sampleRate
        truePeakMode = analysis.settings.truePeakMode
        channels = analysis.channels.count
        target = rules.target(channels: analysis.channels.count)
        integratedLoudness = analysis.loudness.integrated
        truePeak = analysis.truePeak
        clippedSamples = analysis.channels.reduce(0) { $0 + $1.clippedSamples }
        clipEvents = analysis.channels.reduce(0) { $0 + $1.clipEvents }
        clipRun = analysis.settings.minimumClipRun
        var outcomes: [Outcome] = []
        func add(_ rule: DeliveryRule, _ measured: Double?, minimum: Double? = nil, maximum: Double?) {
            let passed = measured.map { value in value >= (minimum ?? -.infinity) && value <= (maximum ?? .infinity) } ?? false
            outcomes.append(Outcome(rule: rule, measured: measured, minimum: minimum, maximum: maximum, passed: passed))
        }
        for rule in rules.rules {
            switch rule {
            case .integratedLoudness:
                let target = self.target!, tolerance = rules.tolerance ?? 0
                add(rule, integratedLoudness, minimum: target - tolerance, maximum: target + tolerance)
            case .truePeak:
                add(rule, truePeak.isFinite ? truePeak : nil, maximum: rules.truePeakLimit)
                // Digital silence has no true peak to exceed a limit.
                if !truePeak.isFinite, truePeak < 0 { outcomes[outcomes.count - 1].passed = true }
            case .loudnessRange: add(rule, analysis.loudness.range, maximum: rules.maximumLoudnessRange)
            case .clippedSamples: add(rule, Double(clippedSamples), maximum: rules.maximumClippedSamples.map(Double.init))
            case .longestSilence: add(rule, events?.longestSilence, maximum: rules.maximumSilence)
            case .dcOffset:
                let largest = analysis.channels.map { abs($0.dcOffset) * 100 }.max()
                add(rule, largest, maximum: rules.maximumDCOffsetPercent)
            case .losslessOrigin:
                // Only positive evidence passes: inconclusive fails, and so does a range too short
                // for a spectrum segment (no evidence at all).
                let verdict = analysis.authenticity?.verdict ?? .inconclusive
                outcomes.append(
                    Outcome(rule: rule, measured: nil, minimum: nil, maximum: nil, passed: verdict == .losslessOrigin, finding: verdict.rawValue))
            case .embeddedMD5:
                let (passed, finding) = Self.embeddedMD5Finding(analysis)
                outcomes.append(Outcome(rule: rule, measured: nil, minimum: nil, maximum: nil, passed: passed, finding: finding))
            }
        }
        self.outcomes = outcomes
        if let target = self.target, let integrated = integratedLoudness {
            let gain = target - integrated
            self.gain = gain
            if truePeak.isFinite {
                truePeakAfterGain = truePeak + gain
                if let maximum = rules.truePeakLimit { limitingNeeded = max(0, truePeak + gain - maximum) }
            }
        }
    }
}
