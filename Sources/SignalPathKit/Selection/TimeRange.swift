/// A span of time in a file, as people write it: `1.5..3`, `1.5s..3s`, `250ms..750ms`,
/// `00:01:02.5..00:01:05`, `1:02:03.500..` (as `UnitFormat.time` prints), `90s..` (to the end),
/// `..10s` (from the start).
public struct TimeRange: Sendable, Equatable, CustomStringConvertible {
    /// Seconds from the start of the file; nil for the beginning.
    public var start: Double?
    /// Seconds from the start of the file; nil for the end.
    public var end: Double?

    public init(start: Double? = nil, end: Double? = nil) {
        self.start = start
        self.end = end
    }

    /// The whole file.
    public static let all = TimeRange()

    /// Parses `START..END`, either side optional. Returns nil for malformed text.
    public init?(parsing text: String) {
        let trimmed = text.trimmingSpaces()
        guard let separator = trimmed.firstRange(of: "..") else { return nil }
        let startText = String(trimmed[..<separator.lowerBound]), endText = String(trimmed[separator.upperBound...])
        if startText.isEmpty && endText.isEmpty { return nil }
        if !startText.isEmpty {
            guard let start = TimeRange.seconds(startText) else { return nil }
            self.start = start
        }
        if !endText.isEmpty {
            guard let end = TimeRange.seconds(endText) else { return nil }
            self.end = end
        }
    }

    /// A time as seconds: `1.5`, `1.5s`, `12.345 s`, `250ms`, `2min`, `1h`, `1:02.5` (m:ss), `1:02:03.456`
    /// (h:mm:ss): every shape `UnitFormat.time` writes reads back.
    /// Nil for malformed or negative times.
    public static func seconds(_ text: String) -> Double? {
        let text = text.trimmingSpaces().lowercased()
        if text.contains(":") {
            let fields = text.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(fields.count), let secondsField = fields.last, let seconds = plainNumber(String(secondsField)),
                seconds < 60
            else { return nil }
            var total = seconds, multiplier = 60.0
            for field in fields.dropLast().reversed() {
                guard let value = Int(field), value >= 0, field.count <= 3 else { return nil }
                if multiplier == 60 && fields.count == 3 && value >= 60 { return nil }
                total += Double(value) * multiplier
                multiplier *= 60
            }
            return total
        }
        for (suffix, scale) in [("ms", 0.001), ("min", 60.0), ("s", 1.0), ("h", 3600.0)] where text.hasSuffix(suffix) {
            return plainNumber(String(text.dropLast(suffix.count).trimmingSpaces())).map { $0 * scale }
        }
        return plainNumber(text)
    }

    /// A non-negative decimal number without exponent or sign, or nil.
    private static func plainNumber(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            text.filter({ $0 == "." }).count <= 1, text != "."
        else { return nil }
        return Double(text)
    }

    public var description: String {
        if let start, let end { return UnitFormat.times(start, end) }
        return (start.map { UnitFormat.time($0) } ?? "start") + " .. " + (end.map { UnitFormat.time($0) } ?? "end")
    }

    /// True when an end is given and lies past the end of a file of `frames` frames at
    /// `sampleRate`: `frames(in:…)` then clamps it to the end, as sox and ffmpeg do, and callers
    /// say so. False for a stream of unknown length (its end is found by reading).
    public func endsPastFile(sampleRate: Int, frames: Int64?) -> Bool {
        guard let end, let frames else { return false }
        return (end * Double(sampleRate)).rounded() > Double(frames)
    }

    /// The frames of this range in a file of `frames` frames at `sampleRate` (nil for a stream of
    /// unknown length): times round to the nearest frame; an end past the end of the file is the
    /// end of the file; a stream's open end is `Int64.max` (until it ends).
    /// - Throws: `SignalPathError.invalidRequest` for an empty, reversed or outside range,
    ///   naming the file's duration.
    public func frames(in path: String, sampleRate: Int, frames: Int64?) throws(SignalPathError) -> Range<Int64> {
        let rate = Double(sampleRate)
        let total = frames ?? Int64.max
        let duration = frames.map { "it lasts " + UnitFormat.time(Double($0) / rate) } ?? "its length is unknown"
        // Times far beyond any file (found by the fuzzer: `..99999999999999999993s`) clamp to the
        // largest frame number instead of overflowing the conversion.
        func frame(_ seconds: Double) -> Int64 {
            let value = (seconds * rate).rounded()
            guard value < 9.2e18 else { return Int64.max }
            return Int64(max(0, value))
        }
        let first = start.map(frame) ?? 0
        let last = end.map { min(frame($0), total) } ?? total
        if let start, let end, end <= start {
            throw .invalidRequest(path: path, reason: "range \(self) is empty or reversed (\(duration))")
        }
        guard first < total else {
            throw .invalidRequest(path: path, reason: "range \(self) starts after the end of the file (\(duration))")
        }
        guard first < last else {
            throw .invalidRequest(path: path, reason: "range \(self) holds no samples (\(duration))")
        }
        return first..<last
    }
}
