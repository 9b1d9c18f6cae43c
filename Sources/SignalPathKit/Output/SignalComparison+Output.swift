/// `compare`'s outputs: JSON (`signalpath.compare/1`), a CSV row per pair, and the report.
extension SignalComparison {
    private static func rounded(_ value: Double?, _ decimals: Int = 2) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number(SignalAnalysis.rounded(value, decimals))
    }

    /// B's delay behind A at the start of the range compared, in A's samples.
    public var delaySamples: Double? { alignment.map { $0.delay(atFrame: Int64((startSeconds * Double(sampleRateA)).rounded())) } }
    public var gainDB: Double? { alignment.map { 20 * log10(abs($0.gain)) } }
    public var polarityInverted: Bool? { alignment.map { $0.gain < 0 } }
    public var driftPPM: Double? { alignment.map { $0.drift * 1e6 } }

    /// Whether the residual's RMS is at or under `limit` dBFS (identical files always are).
    public func passes(maximumResidual limit: Double) -> Bool {
        identical || (residual.map { $0.rmsDBFS <= limit } ?? false)
    }

    // MARK: JSON

    public func jsonMembers(maximumResidual: Double?) -> [JSONValue.Member] {
        var members: [JSONValue.Member] = [
            .init("path_a", .string(pathA)), .init("path_b", .string(pathB)),
            .init("sample_rate_a_hz", .integer(Int64(sampleRateA))), .init("sample_rate_b_hz", .integer(Int64(sampleRateB))),
            .init("channels", .array(channelNames.map { .string($0) })),
            .init("range", .object(["start_s": Self.rounded(startSeconds, 6), "duration_s": Self.rounded(durationSeconds, 6)])),
            .init("identical", .bool(identical)),
        ]
        if let alignment, let delay = delaySamples {
            members.append(
                .init(
                    "alignment",
                    .object([
                        "delay_samples": Self.rounded(delay, 3), "delay_ms": Self.rounded(delay / Double(sampleRateA) * 1000, 4),
                        "drift_ppm": Self.rounded(alignment.drift * 1e6, 3), "gain_db": Self.rounded(gainDB, 3),
                        "polarity_inverted": .bool(alignment.gain < 0), "excerpt_correlation": Self.rounded(alignment.excerptCorrelation, 4),
                    ])))
        } else {
            members.append(.init("alignment", .null))
        }
        if let residual {
            members.append(
                .init(
                    "residual",
                    .object([
                        "overlap_start_s": Self.rounded(residual.overlapStartSeconds, 6), "overlap_s": Self.rounded(residual.overlapSeconds, 6),
                        "rms_dbfs": Self.rounded(residual.rmsDBFS), "peak_dbfs": Self.rounded(residual.peakDBFS),
                        "level_a_dbfs": Self.rounded(residual.levelADBFS), "null_depth_db": Self.rounded(residual.nullDepthDB),
                        "correlation": Self.rounded(residual.correlation, 6),
                        "channel_rms_dbfs": .array(residual.channelRMSDBFS.map { Self.rounded($0) }),
                        "worst_seconds": .array(
                            residual.worstSeconds.map { .object(["start_s": Self.rounded($0.startSeconds, 3), "rms_dbfs": Self.rounded($0.rmsDBFS)]) }),
                        "third_octave_bands": .array(
                            residual.bands.map { band in
                                .object([
                                    "centre_hz": Self.rounded(band.centreHz, 1), "nominal_hz": Self.rounded(band.nominalHz, 1),
                                    "a_dbfs": Self.rounded(band.levelADBFS), "b_dbfs": Self.rounded(band.levelBDBFS), "residual_dbfs": Self.rounded(band.residualDBFS),
                                ])
                            }),
                        "second_rms_dbfs": .array(residual.secondRMSDBFS.map { Self.rounded($0) }),
                    ])))
        } else {
            members.append(.init("residual", .null))
        }
        if let maximumResidual {
            members.append(.init("max_residual_dbfs", .number(maximumResidual)))
            members.append(.init("passed", .bool(passes(maximumResidual: maximumResidual))))
        }
        return members
    }

    // MARK: CSV

    public static let csvHeader = [
        "path_a", "path_b", "identical", "delay_samples", "delay_ms", "drift_ppm", "gain_db", "polarity_inverted", "residual_rms_dbfs",
        "residual_peak_dbfs", "null_depth_db", "correlation", "passed",
    ]

    public func csvRow(maximumResidual: Double?) -> [String] {
        func field(_ value: Double?, _ decimals: Int) -> String {
            guard let value, value.isFinite else { return "" }
            return UnitFormat.fixed(value, decimals)
        }
        return [
            pathA, pathB, identical ? "true" : "false", field(delaySamples, 3), field(delaySamples.map { $0 / Double(sampleRateA) * 1000 }, 4),
            field(driftPPM, 3), field(gainDB, 3), polarityInverted.map { $0 ? "true" : "false" } ?? "", field(residual?.rmsDBFS, 2),
            field(residual?.peakDBFS, 2), field(residual?.nullDepthDB, 2), field(residual?.correlation, 6),
            maximumResidual.map { passes(maximumResidual: $0) ? "true" : "false" } ?? "",
        ]
    }

    // MARK: Report

    /// What a report says of files that barely correlate (`barelyCorrelates`).
    public static let unrelatedNote = "they do not look like versions of one signal, so the delay, gain and residual say little"

    public func text(maximumResidual: Double?) -> String {
        var lines = [
            "A  \(TerminalText.sanitized(pathA))  (\(sampleRateA) Hz)",
            "B  \(TerminalText.sanitized(pathB))  (\(sampleRateB) Hz)",
            "channels       \(channelNames.joined(separator: " ")); \(UnitFormat.fixed(startSeconds, 3)) s + \(UnitFormat.fixed(durationSeconds, 3)) s of A",
        ]
        if identical {
            lines.append("identical      yes: the decoded samples are the same, bit for bit")
        } else if let alignment, let delay = delaySamples, let residual {
            lines.append("identical      no")
            let milliseconds = delay / Double(sampleRateA) * 1000
            lines.append(
                "delay          \(UnitFormat.fixed(delay, 2)) samples (\(UnitFormat.fixed(milliseconds, 3)) ms); "
                    + (abs(delay) < 0.005 ? "aligned" : delay > 0 ? "B is later" : "B is earlier"))
            lines.append("gain           \(UnitFormat.fixed(gainDB ?? 0, 2)) dB (B relative to A)\(alignment.gain < 0 ? "; B is inverted" : "")")
            lines.append(
                "drift          \(UnitFormat.fixed(alignment.drift * 1e6, 2)) ppm\(alignment.drift == 0 ? " (none measured)" : alignment.drift > 0 ? " (B runs long)" : " (B runs short)")"
            )
            lines.append(
                "residual       RMS \(UnitFormat.fixed(residual.rmsDBFS, 2)) dBFS, peak \(UnitFormat.fixed(residual.peakDBFS, 2)) dBFS; "
                    + "null depth \(UnitFormat.fixed(residual.nullDepthDB, 2)) dB below A (\(UnitFormat.fixed(residual.levelADBFS, 2)) dBFS)")
            lines.append(
                "correlation    \(UnitFormat.fixed(residual.correlation, 6)) over \(UnitFormat.fixed(residual.overlapSeconds, 3)) s"
                    + (barelyCorrelates ? "; barely: \(Self.unrelatedNote)" : ""))
            if !residual.worstSeconds.isEmpty {
                lines.append(
                    "worst seconds  "
                        + residual.worstSeconds.map { "\(UnitFormat.fixed($0.startSeconds, 0)) s \(UnitFormat.fixed($0.rmsDBFS, 1)) dBFS" }.joined(separator: ", "))
            }
            let loudest = residual.bands.filter { $0.residualDBFS.isFinite }.sorted { $0.residualDBFS > $1.residualDBFS }.prefix(3)
            if !loudest.isEmpty {
                lines.append(
                    "residual bands "
                        + loudest.map { "\(UnitFormat.fixed($0.nominalHz, $0.nominalHz < 100 ? 1 : 0)) Hz \(UnitFormat.fixed($0.residualDBFS, 1)) dBFS" }
                        .joined(separator: ", ") + " (loudest third octaves)")
            }
        }
        if let maximumResidual {
            lines.append("gate           residual RMS at most \(UnitFormat.fixed(maximumResidual, 2)) dBFS: \(passes(maximumResidual: maximumResidual) ? "pass" : "FAIL")")
        }
        return lines.joined(separator: "\n")
    }
}
