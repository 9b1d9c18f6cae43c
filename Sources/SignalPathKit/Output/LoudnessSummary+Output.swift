/// `loudness`'s JSON (`signalpath.loudness/1`), CSV rows and the summary lines under its chart.
extension LoudnessSummary {
    public static let schema = "signalpath.loudness/1"
    public static let csvHeader = ["time_s", "momentary_lufs", "short_term_lufs"]

    /// The members of the file's JSON object before `series` (NDJSON: the file's last line).
    public var jsonMembers: [JSONValue.Member] {
        func value(_ number: Double?, _ decimals: Int = 2) -> JSONValue { .number(number.map { SignalAnalysis.rounded($0, decimals) }) }
        let format = analysis.format
        let rate = Double(format.sampleRate)
        return AudioStream.sourceMembers(path: path, stream: analysis.stream) + [
            .init(
                "format",
                .object([
                    "sample_rate": .integer(Int64(format.sampleRate)), "channels": .integer(Int64(format.channels)),
                    "duration_s": value(format.frames.map { Double($0) / rate }, 6),
                ])),
            .init(
                "range",
                .object([
                    "start_s": value(Double(analysis.frames.lowerBound) / rate, 6), "end_s": value(Double(analysis.frames.upperBound) / rate, 6),
                ])),
            .init("integrated_lufs", value(integrated)), .init("range_lu", value(range)),
            .init("momentary_max_lufs", value(momentaryMax?.loudness)), .init("momentary_max_time_s", value(momentaryMax?.time, 3)),
            .init("short_term_max_lufs", value(shortTermMax?.loudness)), .init("short_term_max_time_s", value(shortTermMax?.time, 3)),
            .init("true_peak_dbtp", value(truePeak)), .init("true_peak_time_s", value(truePeakTime, 6)),
            .init("conventions", conventions),
        ]
    }

    /// The rules behind the numbers.
    public var conventions: JSONValue {
        .object([
            "interval_s": .number(interval),
            "time": .string("seconds from the start of the file to the end of the measurement window, as ffmpeg's ebur128 log has it (its pts_time + 0.1 s)"),
            "momentary": .string("ITU-R BS.1770-4 / EBU Tech 3341: K-weighted mean square over the last 400 ms, every 100 ms; ungated"),
            "short_term": .string("the same over the last 3 s"),
            "missing": .string("null (CSV: empty) before the first full window and at or below the absolute gate, -70 LUFS"),
            "maxima": .string("the loudest window of all (every 100 ms, whatever the interval), ungated, and the end of that window"),
            "integrated": .string("gates -70 LUFS absolute and -10 LU relative over 400 ms blocks every 100 ms"),
            "range": .string("EBU Tech 3342: 3 s blocks every 100 ms, gates -70 LUFS and -20 LU relative, 10th to 95th percentile"),
            "true_peak_mode": .string(analysis.settings.truePeakMode.rawValue),
            "true_peak": .string(analysis.settings.truePeakMode.description + "; its time is where the interpolated value lies"),
            "channel_weights": .array(Loudness.channelWeights(layout: analysis.format.channelLayout).map { .number($0) }),
        ])
    }

    /// A point as a JSON object.
    public static func jsonPoint(_ point: LoudnessSeries.Point) -> [JSONValue.Member] {
        [
            .init("time_s", .number(SignalAnalysis.rounded(point.time, 3))),
            .init("momentary_lufs", .number(point.momentary.map { SignalAnalysis.rounded($0, 2) })),
            .init("short_term_lufs", .number(point.shortTerm.map { SignalAnalysis.rounded($0, 2) })),
        ]
    }

    /// A point as CSV fields; a missing value is an empty field.
    public static func csvFields(_ point: LoudnessSeries.Point) -> [String] {
        [UnitFormat.fixed(point.time, 3), point.momentary.map { UnitFormat.fixed($0, 2) } ?? "", point.shortTerm.map { UnitFormat.fixed($0, 2) } ?? ""]
    }

    /// The lines under the chart.
    public var summaryLines: [String] {
        func lufs(_ value: Double?) -> String { value.map { UnitFormat.fixed($0, 1) + " LUFS" } ?? "-" }
        func at(_ time: Double?) -> String { time.map { " at " + UnitFormat.time($0) } ?? "" }
        return [
            "Integrated \(lufs(integrated))   LRA \(range.map { UnitFormat.fixed($0, 1) + " LU" } ?? "-")   "
                + "True peak \(truePeak.map { UnitFormat.fixed($0, 1) + " dBTP" } ?? "-")\(at(truePeakTime))",
            "Max momentary \(lufs(momentaryMax?.loudness))\(at(momentaryMax?.time))   Max short-term \(lufs(shortTermMax?.loudness))\(at(shortTermMax?.time))",
        ]
    }
}
