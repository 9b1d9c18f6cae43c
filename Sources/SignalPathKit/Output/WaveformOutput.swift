/// A waveform as data: CSV/TSV rows (one per column and channel) and JSON, both with linear
/// values relative to full scale; the picture's --scale (linear or dBFS) is for pictures only.
extension WaveformEnvelope {
    /// `column,start_frame,end_frame,start_s,end_s,channel,min,max,rms,clipped` (after a `path`
    /// column when a call writes several files into one table).
    public static func csvHeader(path: Bool) -> [String] {
        (path ? ["path"] : []) + ["column", "start_frame", "end_frame", "start_s", "end_s", "channel", "min", "max", "rms", "clipped"]
    }

    /// Appends one row per column and channel; extremes to 9 decimals (below a 24-bit step), times to 6.
    public func appendRows(to table: inout DelimitedText, path: String?) {
        let rate = Double(sampleRate)
        for column in 0..<columns {
            let frames = fileFrames(column)
            let prefix =
                (path.map { [$0] } ?? []) + [
                    String(column), String(frames.lowerBound), String(frames.upperBound),
                    UnitFormat.fixed(Double(frames.lowerBound) / rate, 6), UnitFormat.fixed(Double(frames.upperBound) / rate, 6),
                ]
            for (channel, name) in channelNames.enumerated() {
                table.append(
                    prefix + [
                        name, UnitFormat.fixed(Double(minimum(column, channel)), 9), UnitFormat.fixed(Double(maximum(column, channel)), 9),
                        UnitFormat.fixed(rms(column, channel), 9), String(clipped(column, channel)),
                    ])
            }
        }
    }

    /// How the numbers are made, for JSON's `conventions`.
    public var conventions: [JSONValue.Member] {
        [
            .init("columns", .string("column c of C covers frames floor(c*N/C) ..< floor((c+1)*N/C) of the range's N frames")),
            .init("values", .string("linear, relative to full scale (±1.0)")),
            .init("rms_reference", .string("a full-scale square wave reads 1 (a full-scale sine 0.707)")),
            .init(
                "clipped",
                .string("samples whose magnitude reaches the largest code (\(UnitFormat.significant(Double(fullScale), 9))); for the mix, frames in which any channel does")),
            .init("mix", .string("the mean of the channels")),
        ]
    }

    /// `path`, the range, the channels, per channel its columns, and the conventions.
    public var jsonMembers: [JSONValue.Member] {
        let channelObjects: [JSONValue] = channelNames.enumerated().map { channel, name in
            .object([
                .init("name", .string(name)),
                .init("min", .array((0..<columns).map { .number(Double(minimum($0, channel))) })),
                .init("max", .array((0..<columns).map { .number(Double(maximum($0, channel))) })),
                .init("rms", .array((0..<columns).map { .number(rms($0, channel)) })),
                .init("clipped", .array((0..<columns).map { .integer(clipped($0, channel)) })),
            ])
        }
        return AudioStream.sourceMembers(path: path, stream: stream) + [
            .init("sample_rate", .integer(Int64(sampleRate))),
            .init("start_frame", .integer(frames.lowerBound)),
            .init("end_frame", .integer(frames.upperBound)),
            .init("columns", .integer(Int64(columns))),
            .init("column_starts", .array((0...columns).map { .integer(frames.lowerBound + columnStart($0)) })),
            .init("channels", .array(channelObjects)),
            .init("conventions", .object(conventions)),
        ]
    }
}
