extension UnitFormat {
    /// How a time for people is written: seconds with their unit under a minute, `m:ss` from a
    /// minute, `h:mm:ss` from an hour.
    public enum TimeShape: Int, Comparable, Sendable {
        case seconds, minutes, hours

        /// The shape a time of `seconds` takes once rounded to `decimals`.
        public init(_ seconds: Double, decimals: Int = 3) {
            let whole = UnitFormat.timeUnits(seconds, decimals: decimals).map { $0.units / $0.scale } ?? 0
            self = whole >= 3600 ? .hours : whole >= 60 ? .minutes : .seconds
        }

        public static func < (lhs: TimeShape, rhs: TimeShape) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The axis title's unit: "s", "m:ss", "h:mm:ss".
        public var unit: String {
            switch self {
            case .seconds: "s"
            case .minutes: "m:ss"
            case .hours: "h:mm:ss"
            }
        }
    }

    /// A time for people, the one way every report, title, axis and status line writes one
    /// (docs/ARCHITECTURE.md, "Times for people"): "12.345 s", "1:02.345", "1:02:03.456". The
    /// value is rounded to `decimals` before its shape is chosen, so 59.9996 s reads "1:00.000",
    /// never "60.000 s". `trimmed` drops the fraction's trailing zeros (axis ticks: "1:05",
    /// "1:05.5", "0.5 s"); `shape` is the least shape written, so that the times of one range or
    /// one axis all read in the shape of the largest ("0:00:00 .. 2:00:00").
    public static func time(_ seconds: Double, decimals: Int = 3, trimmed: Bool = false, shape: TimeShape = .seconds) -> String {
        guard let (units, scale) = timeUnits(seconds, decimals: decimals) else { return fixed(seconds, decimals) + " s" }
        let whole = units / scale
        var fraction = ""
        if decimals > 0 {
            var digits = String(units % scale)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            if trimmed { while digits.hasSuffix("0") { digits.removeLast() } }
            if !digits.isEmpty { fraction = "." + digits }
        }
        let sign = seconds < 0 && units != 0 ? "-" : ""
        func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : String(value) }
        switch max(shape, whole >= 3600 ? .hours : whole >= 60 ? .minutes : .seconds) {
        case .seconds: return "\(sign)\(whole)\(fraction) s"
        case .minutes: return "\(sign)\(whole / 60):\(two(whole % 60))\(fraction)"
        case .hours: return "\(sign)\(whole / 3600):\(two(whole / 60 % 60)):\(two(whole % 60))\(fraction)"
        }
    }

    /// Two times of one span, both in the shape of the larger: "0:58.000 .. 1:02.500".
    public static func times(_ start: Double, _ end: Double, decimals: Int = 3, separator: String = " .. ") -> String {
        let shape = max(TimeShape(start, decimals: decimals), TimeShape(end, decimals: decimals))
        return time(start, decimals: decimals, shape: shape) + separator + time(end, decimals: decimals, shape: shape)
    }

    /// The labels of a terminal axis's times (start, middle, end): to the hundredth, trailing
    /// zeros dropped, all in the shape of the largest.
    public static func axisTimes(_ seconds: [Double]) -> [String] {
        let shape = seconds.map { TimeShape($0, decimals: 2) }.max() ?? .seconds
        return seconds.map { time($0, decimals: 2, trimmed: true, shape: shape) }
    }

    /// |seconds| in units of 10^-decimals, rounded, and that scale; nil where it does not fit.
    fileprivate static func timeUnits(_ seconds: Double, decimals: Int) -> (units: UInt64, scale: UInt64)? {
        var scale: UInt64 = 1
        for _ in 0..<max(0, min(decimals, 9)) { scale *= 10 }
        let scaled = (abs(seconds) * Double(scale)).rounded()
        guard seconds.isFinite, decimals <= 9, scaled < 9e18 else { return nil }
        return (UInt64(scaled), scale)
    }
}
