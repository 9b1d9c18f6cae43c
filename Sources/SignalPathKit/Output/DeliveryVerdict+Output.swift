/// `check`'s outputs: JSON (`signalpath.check/1`), CSV rows per file and rule, and the report.
extension DeliveryVerdict {
    public static let schema = "signalpath.check/1"

    private static func rounded(_ value: Double?, _ decimals: Int = 2) -> Double? {
        value.map { SignalAnalysis.rounded($0, decimals) }
    }

    /// Decimals a rule's values are written with.
    private static func decimals(_ rule: DeliveryRule) -> Int {
        switch rule {
        case .clippedSamples: return 0
        case .longestSilence: return 3
        case .dcOffset: return 4
        default: return 2
        }
    }

    // MARK: JSON

    public var jsonMembers: [JSONValue.Member] {
        AudioStream.sourceMembers(path: path, stream: stream) + [
            .init("profile", rules.profile.map { .string($0.name) } ?? .null),
            .init("profile_document", rules.profile.map { .string($0.document) } ?? .null),
            .init("passed", .bool(passed)),
            .init(
                "range",
                .object([
                    "start_s": .number(SignalAnalysis.rounded(Double(frames.lowerBound) / Double(sampleRate))),
                    "end_s": .number(SignalAnalysis.rounded(Double(frames.upperBound) / Double(sampleRate))),
                ])),
            .init("channels", .number(Double(channels))),
            .init("target_lufs", .number(target)),
            .init("integrated_lufs", .number(Self.rounded(integratedLoudness))),
            .init("true_peak_dbtp", .number(Self.rounded(truePeak.isFinite ? truePeak : nil))),
            .init("clipped_samples", .number(Double(clippedSamples))),
            .init("clip_events", .number(Double(clipEvents))),
            .init("gain_db", .number(Self.rounded(gain))),
            .init("true_peak_after_gain_dbtp", .number(Self.rounded(truePeakAfterGain))),
            .init("gain_breaks_true_peak", gainBreaksTruePeak.map { .bool($0) } ?? .null),
            .init("limiting_db", .number(Self.rounded(limitingNeeded))),
            .init(
                "rules",
                .array(
                    outcomes.map { outcome in
                        let decimals = Self.decimals(outcome.rule)
                        return .object([
                            .init("rule", .string(outcome.rule.rawValue)),
                            .init("measured", .number(Self.rounded(outcome.measured, decimals))),
                            .init("unit", .string(outcome.rule.unit)),
                            .init("min", .number(Self.rounded(outcome.minimum, decimals))),
                            .init("max", .number(Self.rounded(outcome.maximum, decimals))),
                            .init("passed", .bool(outcome.passed)),
                            .init("finding", outcome.finding.map { .string($0) } ?? .null),
                        ])
                    })),
            .init("conventions", conventions),
        ]
    }

    /// The rules behind every verdict.
    public var conventions: JSONValue {
        var members: [JSONValue.Member] = [
            .init("profile_source", rules.profile.map { .string($0.source) } ?? .null),
            .init(
                "comparison",
                .string(
                    "measured values are compared unrounded, shown to 0.01 (a Tech 3341 meter shows 0.1 LU: -23.24 LUFS reads -23.2 there and fails -23 +-0.2 here); a value that cannot be measured (the loudness of digital silence) fails its rule"
                )),
            .init("loudness", .string("ITU-R BS.1770-4 / EBU R128 integrated loudness (gates -70 LUFS and -10 LU), as analyze measures it")),
            .init("true_peak_mode", .string(truePeakMode.rawValue)),
            .init("true_peak", .string(truePeakMode.description)),
            .init("loudness_range", .string("EBU Tech 3342, as analyze measures it")),
            .init(
                "gain",
                .string(
                    "gain_db = target - integrated loudness; true peak after gain = true peak + gain_db (the meter is linear); limiting_db = how far that exceeds the largest true peak that passes, tolerance included (0 when it does not)"
                )),
        ]
        if let mono = rules.monoTarget, let target = rules.target {
            members.append(
                .init(
                    "mono_target",
                    .string(
                        "files of one channel are judged at \(UnitFormat.shortest(mono)) LUFS, others at \(UnitFormat.shortest(target)) LUFS: a mono file plays from both loudspeakers, 3 dB louder than the same reading in stereo"
                    )))
        }
        if rules.truePeakTolerance > 0, let maximum = rules.maximumTruePeak {
            members.append(
                .init(
                    "true_peak_tolerance",
                    .string(
                        "a reading up to \(UnitFormat.shortest(maximum)) dBTP + \(UnitFormat.shortest(rules.truePeakTolerance)) dB passes: the profile's measurement tolerance on the true peak"
                    )))
        }
        members.append(
            .init(
                "clipping",
                .string(
                    "clipped_samples: samples in runs of at least \(clipRun) consecutive full-scale samples, summed over the channels, as analyze counts them; clip_events: those runs, the ones less than 10 ms apart taken as one, as events lists them; gain does not undo clipping"
                )))
        if rules.requiresLosslessOrigin {
            members.append(
                .init(
                    "lossless_origin",
                    .string("passes only analyze's authenticity verdict lossless_origin; lossy_origin, upsampled and inconclusive fail (" + Authenticity.rule + ")")))
        }
        if rules.requiresMD5 {
            members.append(
                .init(
                    "embedded_md5",
                    .string(
                        "the FLAC STREAMINFO or BWF MD5 chunk against the audio MD5 of the whole file: mismatch and not compared (a range) fail; none and unset (all zeros) pass"
                    )))
        }
        if rules.maximumDCOffsetPercent != nil {
            members.append(.init("dc_offset", .string("the largest |mean sample value| of any channel, percent of full scale")))
        }
        return .object(members)
    }

    // MARK: CSV

    public static let csvHeader = [
        "path", "profile", "rule", "measured", "unit", "min", "max", "passed", "file_passed", "gain_db", "limiting_db", "finding", "target_lufs",
        "clipped_samples", "clip_events",
    ]

    /// One record per rule; the file's own values (its verdict, gain, target, clipping) on each.
    public func appendRows(to table: inout DelimitedText) {
        func field(_ value: Double?, _ decimals: Int) -> String {
            guard let value, value.isFinite else { return "" }
            return UnitFormat.fixed(value, decimals)
        }
        for outcome in outcomes {
            let decimals = Self.decimals(outcome.rule)
            table.append([
                path, rules.profile?.name ?? "", outcome.rule.rawValue, field(outcome.measured, decimals), outcome.rule.unit,
                field(outcome.minimum, decimals), field(outcome.maximum, decimals), String(outcome.passed), String(passed),
                field(gain, 2), field(limitingNeeded, 2), outcome.finding ?? "", target.map(UnitFormat.shortest) ?? "", String(clippedSamples),
                String(clipEvents),
            ])
        }
    }

    // MARK: Text

    /// The report for people: a line per rule with ✓ or ✗ (ASCII words without UTF-8), the
    /// clipping, then the gain and what it cannot do.
    public func text(charset: TerminalCharset) -> String {
        let utf8 = charset == .utf8
        let plusMinus = utf8 ? "±" : "+-", atMost = utf8 ? "≤" : "<=", atLeast = utf8 ? "≥" : ">="
        let passMark = utf8 ? "✓ pass" : "pass", failMark = utf8 ? "✗ FAIL" : "FAIL"
        var lines: [String] = []
        let profile = rules.profile.map { " · " + $0.name } ?? ""
        lines.append(AudioStream.heading(path: path, stream: stream) + profile + " · " + (passed ? "passed" : "FAILED"))
        func value(_ outcome: Outcome) -> String {
            if let finding = outcome.finding { return finding }
            let rule = outcome.rule
            guard let number = outcome.measured else { return "-" }
            if rule == .longestSilence { return UnitFormat.time(number, decimals: Self.decimals(rule)) }
            let text = rule == .clippedSamples ? UnitFormat.grouped(Int64(number)) : UnitFormat.fixed(number, Self.decimals(rule))
            return text + " " + rule.unit
        }
        func limit(_ outcome: Outcome) -> String {
            let decimals = outcome.rule == .clippedSamples ? 0 : max(1, Self.decimals(outcome.rule) - 1)
            if outcome.rule == .integratedLoudness, let target, let tolerance = rules.tolerance {
                return UnitFormat.fixed(target, 1) + " " + plusMinus + " " + UnitFormat.fixed(tolerance, 1) + " " + outcome.rule.unit
            }
            if outcome.rule == .longestSilence, let maximum = outcome.maximum { return atMost + " " + UnitFormat.time(maximum, decimals: decimals) }
            if let maximum = outcome.maximum { return atMost + " " + UnitFormat.fixed(maximum, decimals) + " " + outcome.rule.unit }
            if let minimum = outcome.minimum { return atLeast + " " + UnitFormat.fixed(minimum, decimals) + " " + outcome.rule.unit }
            return "-"
        }
        /// Why a limit is not the plain one: a mono target, a measurement tolerance.
        func note(_ outcome: Outcome) -> String {
            switch outcome.rule {
            case .integratedLoudness where channels == 1 && rules.monoTarget != nil:
                return "   (mono target)"
            case .truePeak where rules.truePeakTolerance > 0:
                let maximum = rules.maximumTruePeak.map { UnitFormat.fixed($0, 1) } ?? "-"
                return "   (" + maximum + " dBTP + " + UnitFormat.fixed(rules.truePeakTolerance, 1) + " dB measurement tolerance)"
            default: return ""
            }
        }
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let space = String(repeating: " ", count: max(0, width - text.count))
            return right ? space + text : text + space
        }
        for outcome in outcomes {
            lines.append(
                "  " + pad(outcome.rule.label, 20) + pad(value(outcome), 16, right: true) + "   "
                    + pad(limit(outcome), 20) + (outcome.passed ? passMark : failMark) + note(outcome))
        }
        let clipping =
            hasClipping
            ? UnitFormat.grouped(clippedSamples) + " samples in " + UnitFormat.grouped(clipEvents) + (clipEvents == 1 ? " event" : " events")
            : "none"
        lines.append("  " + pad("clipping", 20) + pad(clipping, 16, right: true))
        if let gain {
            let arrow = utf8 ? "→" : "->"
            var line = "  gain to target " + (gain >= 0 ? "+" : "") + UnitFormat.fixed(gain, 2) + " dB"
            if let after = truePeakAfterGain {
                line += " " + arrow + " true peak " + UnitFormat.fixed(after, 2) + " dBTP"
                if let limiting = limitingNeeded, let maximum = rules.truePeakLimit {
                    line +=
                        limiting > 0
                        ? ", over " + UnitFormat.fixed(maximum, 1) + " dBTP: needs " + UnitFormat.fixed(limiting, 2) + " dB of limiting"
                        : ", within " + UnitFormat.fixed(maximum, 1) + " dBTP"
                }
            }
            lines.append(line)
        } else if rules.target != nil {
            lines.append("  gain to target: - (no measurable loudness)")
        }
        if hasClipping {
            lines.append(
                "  gain does not undo clipping: the " + UnitFormat.grouped(clippedSamples)
                    + " flattened samples stay flat at any level (repair them, or go back to an unclipped source)")
        }
        return lines.joined(separator: "\n")
    }
}
