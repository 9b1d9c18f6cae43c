/// A tick on an axis: its value and label (empty for an unlabelled minor tick).
public struct ChartTick: Equatable, Sendable {
    public var value: Double
    public var label: String
    /// Major ticks get a grid line and a label; minor ones only a short mark.
    public var major: Bool

    public init(_ value: Double, _ label: String, major: Bool = true) {
        self.value = value
        self.label = label
        self.major = major
    }
}

/// One axis of a chart: its range, linear or logarithmic mapping, label and ticks.
public struct ChartAxis: Sendable {
    public enum Scale: Sendable { case linear, logarithmic }

    public var range: ClosedRange<Double>
    public var scale: Scale
    public var label: String
    public var ticks: [ChartTick]
    /// Grid lines at the major ticks.
    public var grid = true

    public init(range: ClosedRange<Double>, scale: Scale = .linear, label: String, ticks: [ChartTick]) {
        // A logarithmic axis needs a positive start; an empty range gets a width.
        let lower = scale == .logarithmic ? max(range.lowerBound, 1e-12) : range.lowerBound
        self.range = lower...max(range.upperBound, lower + (scale == .logarithmic ? lower * 1e-9 : 1e-9))
        self.scale = scale
        self.label = label
        self.ticks = ticks
    }

    /// Where `value` lies along the axis, 0 at its start and 1 at its end (outside for values outside).
    public func fraction(_ value: Double) -> Double {
        switch scale {
        case .linear: return (value - range.lowerBound) / (range.upperBound - range.lowerBound)
        case .logarithmic: return log(max(value, 1e-300) / range.lowerBound) / log(range.upperBound / range.lowerBound)
        }
    }

    /// The value at `fraction` of the way along the axis.
    public func value(at fraction: Double) -> Double {
        switch scale {
        case .linear: return range.lowerBound + fraction * (range.upperBound - range.lowerBound)
        case .logarithmic: return range.lowerBound * pow(range.upperBound / range.lowerBound, fraction)
        }
    }

    /// A frequency axis: decades (with 2 and 5 between them when about `count` labels allow) on a
    /// log scale, minor ticks at the other multiples, or 1-2-5 steps giving about `count` ticks
    /// on a linear one; labels `20`,
    /// `1k`, `2.5k`.
    public static func frequency(range: ClosedRange<Double>, logarithmic: Bool, count: Int = 10) -> ChartAxis {
        let axis = FrequencyAxis(range: range, logarithmic: logarithmic)
        // 2 and 5 between the decades where `count` leaves room for three labels a decade.
        let dense = Double(count) >= 3 * log10(range.upperBound / max(range.lowerBound, 1e-9))
        var ticks = axis.ticks(count: count, dense: dense).map { ChartTick($0.frequency, $0.label) }
        if axis.logarithmic {
            var decade = pow(10, floor(log10(range.lowerBound)))
            while decade <= range.upperBound {
                for multiple in [3.0, 4, 6, 7, 8, 9] where range.contains(decade * multiple) { ticks.append(ChartTick(decade * multiple, "", major: false)) }
                decade *= 10
            }
        }
        return ChartAxis(range: range, scale: axis.logarithmic ? .logarithmic : .linear, label: "Frequency (Hz)", ticks: ticks)
    }

    /// A linear axis with 1-2-5 × 10ⁿ steps giving about `count` labelled ticks, labelled by `format`.
    public static func linear(range: ClosedRange<Double>, label: String, count: Int, format: (Double) -> String = { UnitFormat.shortest($0) }) -> ChartAxis {
        ChartAxis(range: range, label: label, ticks: steps(range, count: count).map { ChartTick($0, format($0)) })
    }

    /// Multiples of a 1, 2 or 5 × 10ⁿ step within `range`, about `count` of them.
    public static func steps(_ range: ClosedRange<Double>, count: Int) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return [range.lowerBound] }
        let rough = span / Double(max(1, count))
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough * 0.999 } ?? 10 * magnitude
        // index × step as index × multiple ÷ 10ⁿ for small steps: 3 × 0.2 would be 0.6000000000000001.
        let divisor = magnitude < 1 ? (1 / magnitude).rounded() : 1
        let unit = step * divisor
        var values: [Double] = []
        var index = (range.lowerBound / step).rounded(.up)
        while index * step <= range.upperBound + step * 1e-9 {
            let value = (index * unit).rounded() / divisor
            values.append(value == 0 ? 0 : value)  // no -0
            index += 1
        }
        return values
    }

    /// A time axis in seconds, labelled as times for people read (`UnitFormat.time`, trailing
    /// zeros dropped): `12.5 s`, from a minute on `m:ss`, from an hour `h:mm:ss`, every tick in
    /// the shape of the range's end.
    public static func time(range: ClosedRange<Double>, count: Int = 8) -> ChartAxis {
        let shape = UnitFormat.TimeShape(range.upperBound)
        var candidates = steps(range, count: count)
        if shape > .seconds {
            // Steps of whole seconds that read well as m:ss: 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1 h…
            let rough = (range.upperBound - range.lowerBound) / Double(max(1, count))
            let nice: [Double] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 18000, 36000]
            let step = nice.first { $0 >= rough } ?? 36000
            candidates = []
            var value = (range.lowerBound / step).rounded(.up) * step
            while value <= range.upperBound + 1e-9 {
                candidates.append(value)
                value += step
            }
        }
        let ticks = candidates.map { value in ChartTick(value, UnitFormat.time(value, decimals: 6, trimmed: true, shape: shape)) }
        return ChartAxis(range: range, label: "Time (\(shape.unit))", ticks: ticks)
    }
}
