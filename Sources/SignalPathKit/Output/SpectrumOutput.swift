/// Machine and human renderings of a spectrum report.
extension SpectrumReport {
    public static let schema = "signalpath.spectrum/1"

    /// Column names for the values: `left_dbfs`, `mix_db_re_fs2_per_hz`, …
    public var valueColumns: [String] {
        spectrum.channelNames.map { "\($0)_\(presentation.scale.unitSuffix)" }
    }

    /// A value as machine text: dB to 4 decimals, linear amplitude to 9 significant digits;
    /// empty where the value does not exist (−∞ dB of digital silence).
    static func field(_ value: Double, scale: SpectrumScale) -> String {
        guard value.isFinite else { return "" }
        return scale.isDecibels ? UnitFormat.fixed(value, 4) : UnitFormat.significant(value, 9)
    }

    /// Appends the header (when `header`) and the rows; with `path`, every record starts with it.
    public func appendRows(to table: inout DelimitedText, header: Bool, path: String? = nil) {
        let prefix = path.map { [$0] } ?? []
        let isBands = presentation.bands != nil
        if header {
            table.append(
                (path == nil ? [] : ["path"]) + ["frequency_hz"]
                    + (isBands ? ["nominal_hz", "lower_hz", "upper_hz"] : []) + valueColumns)
        }
        // One array of fields for every row, not an array per row and per part of it
        // (docs/DECISIONS.md#csv-bytes).
        var fields: [String] = []
        for row in rows {
            fields.removeAll(keepingCapacity: true)
            fields += prefix
            fields.append(UnitFormat.shortest(row.frequency))
            if let band = row.band {
                fields += [UnitFormat.shortest(band.nominal), UnitFormat.shortest(band.lower), UnitFormat.shortest(band.upper)]
            }
            for value in row.values { fields.append(SpectrumReport.field(value, scale: presentation.scale)) }
            table.append(fields)
        }
    }

    /// Appends the peaks as records: channel, rank, frequency, level, note, cents.
    public func appendPeaks(to table: inout DelimitedText, header: Bool, path: String? = nil) {
        if header {
            table.append((path == nil ? [] : ["path"]) + ["channel", "rank", "frequency_hz", "level_dbfs", "note", "cents"])
        }
        for (channel, channelPeaks) in peaks.enumerated() {
            for (rank, peak) in channelPeaks.enumerated() {
                table.append(
                    (path.map { [$0] } ?? []) + [
                        spectrum.channelNames[channel], String(rank + 1), UnitFormat.fixed(peak.frequency, 3),
                        UnitFormat.fixed(peak.level, 2), peak.note?.name ?? "", peak.note.map { UnitFormat.fixed($0.cents, 1) } ?? "",
                    ])
            }
        }
    }

    /// Everything that states how the numbers were made, as JSON members.
    var conventionMembers: [JSONValue.Member] {
        let spectrum = self.spectrum, parameters = spectrum.parameters
        return [
            .init(
                "range",
                .object([
                    "start_s": .number(spectrum.startSeconds), "end_s": .number(spectrum.endSeconds),
                    "duration_s": .number(spectrum.endSeconds - spectrum.startSeconds),
                    "start_frame": .integer(spectrum.frames.lowerBound), "end_frame": .integer(spectrum.frames.upperBound),
                ])),
            .init("sample_rate", .integer(Int64(spectrum.sampleRate))),
            .init("channels", .array(spectrum.channelNames.map { .string($0) })),
            .init("fft_size", .integer(Int64(parameters.fftSize))),
            .init("window_size", .integer(Int64(parameters.windowSize))),
            .init("window", .string(parameters.window.name)),
            .init("coherent_gain", .number(spectrum.coherentGain)),
            .init("enbw_hz", .number(spectrum.enbwHertz)),
            .init("enbw_bins", .number(spectrum.enbwBins)),
            .init("bin_width_hz", .number(spectrum.binWidth)),
            .init("overlap", .number(parameters.overlap)),
            .init("hop", .integer(Int64(parameters.hop))),
            .init("segments_averaged", .integer(Int64(spectrum.segments))),
            .init("average", .string(parameters.averaging.rawValue)),
            .init("scale", .string(presentation.scale.rawValue)),
            .init("reference", .string(presentation.scale.reference)),
            .init("weighting", .string(presentation.weighting.rawValue)),
            .init("smoothing", presentation.smoothing.map { .string("1/\($0)") } ?? .null),
            .init("bands", presentation.bands.map { .string("1/\($0)") } ?? .null),
        ]
    }

    /// The JSON members for this file: path, conventions, peaks, then the bins (or bands).
    public var jsonMembers: [JSONValue.Member] {
        let scale = presentation.scale
        func value(_ number: Double) -> JSONValue {
            guard number.isFinite else { return .null }
            return .number(scale.isDecibels ? (number * 10_000).rounded() / 10_000 : number)
        }
        let peakObjects: [JSONValue] = peaks.enumerated().flatMap { channel, channelPeaks in
            channelPeaks.map { $0.jsonValue(channel: spectrum.channelNames[channel]) }
        }
        let rowObjects: [JSONValue] = rows.map { row in
            var members: [JSONValue.Member] = [.init("frequency_hz", .number(row.frequency))]
            if let band = row.band {
                members += [
                    .init("nominal_hz", .number(band.nominal)), .init("lower_hz", .number(band.lower)),
                    .init("upper_hz", .number(band.upper)),
                ]
            }
            members += zip(spectrum.channelNames, row.values).map { JSONValue.Member($0, value($1)) }
            return .object(members)
        }
        return AudioStream.sourceMembers(path: spectrum.path, stream: spectrum.stream) + conventionMembers
            + [.init("peaks", .array(peakObjects)), .init(presentation.bands == nil ? "bins" : "bands", .array(rowObjects))]
    }

    /// One line stating the conventions, for standard error next to CSV output.
    public var conventionsLine: String {
        let parameters = spectrum.parameters
        return "\(AudioStream.heading(path: spectrum.path, stream: spectrum.stream)): \(parameters.window.name) window, \(parameters.fftSize)-point FFT, "
            + "\(UnitFormat.fixed(spectrum.binWidth, 3)) Hz bins, \(UnitFormat.fixed(parameters.overlap * 100, 1)) % overlap, "
            + "\(parameters.averaging.rawValue) of \(spectrum.segments) segments; \(presentation.scale.reference)"
    }

    /// A summary for people: what was analysed, how, and the strongest peaks.
    public var text: String {
        let spectrum = self.spectrum, parameters = spectrum.parameters
        var lines = [AudioStream.heading(path: spectrum.path, stream: spectrum.stream)]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 11 - label.count)) + value)
        }
        row(
            "range",
            UnitFormat.times(spectrum.startSeconds, spectrum.endSeconds)
                + " (\(UnitFormat.time(spectrum.endSeconds - spectrum.startSeconds)), \(UnitFormat.grouped(Int64(spectrum.frames.count))) frames)")
        let padding = parameters.fftSize > parameters.windowSize ? ", zero-padded from \(parameters.windowSize)" : ""
        row(
            "analysis",
            "\(parameters.window.name) window, \(parameters.fftSize)-point FFT\(padding), "
                + "\(UnitFormat.fixed(spectrum.binWidth, 2)) Hz bins, ENBW \(UnitFormat.fixed(spectrum.enbwHertz, 2)) Hz")
        row(
            "averaging",
            "\(parameters.averaging.rawValue) of \(spectrum.segments) segment\(spectrum.segments == 1 ? "" : "s"), "
                + "\(UnitFormat.fixed(parameters.overlap * 100, 1)) % overlap")
        row("scale", presentation.scale.reference + (presentation.weighting == .z ? "" : ", \(presentation.weighting.rawValue)-weighted"))
        for (channel, channelPeaks) in peaks.enumerated() where !channelPeaks.isEmpty {
            lines.append("  peaks (\(spectrum.channelNames[channel]))")
            for (rank, peak) in channelPeaks.enumerated() { lines.append("    \(rank + 1).  " + peak.text) }
        }
        return lines.joined(separator: "\n")
    }
}
