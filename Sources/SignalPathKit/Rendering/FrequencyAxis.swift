/// Maps frequencies to positions along an axis of `length` steps, logarithmically or linearly,
/// and picks labelled ticks.
public struct FrequencyAxis: Sendable {
    public let range: ClosedRange<Double>
    public let logarithmic: Bool

    public init(range: ClosedRange<Double>, logarithmic: Bool) {
        self.logarithmic = logarithmic && range.lowerBound > 0
        self.range = range
    }

    /// The fraction (0…1) of the way along the axis at which `frequency` lies.
    public func fraction(_ frequency: Double) -> Double {
        if logarithmic { return log(frequency / range.lowerBound) / log(range.upperBound / range.lowerBound) }
        return (frequency - range.lowerBound) / (range.upperBound - range.lowerBound)
    }

    /// The frequency at `fraction` of the way along the axis.
    public func frequency(at fraction: Double) -> Double {
        if logarithmic { return range.lowerBound * pow(range.upperBound / range.lowerBound, fraction) }
        return range.lowerBound + fraction * (range.upperBound - range.lowerBound)
    }

    /// Ticks with labels: decades (and 2, 5 between them when `dense`) on a log axis; 1, 2 or 5 ×
    /// 10ⁿ steps giving about `count` ticks on a linear one.
    public func ticks(count: Int, dense: Bool) -> [(frequency: Double, label: String)] {
        var values: [Double] = []
        if logarithmic {
            var decade = pow(10, floor(log10(range.lowerBound)))
            while decade <= range.upperBound {
                for multiple in dense ? [1.0, 2, 5] : [1.0] where range.contains(decade * multiple) { values.append(decade * multiple) }
                decade *= 10
            }
        } else {
            let span = range.upperBound - range.lowerBound
            let rough = span / Double(max(1, count))
            let magnitude = pow(10, floor(log10(rough)))
            let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
            var value = ceil(range.lowerBound / step) * step
            while value <= range.upperBound + step * 1e-9 {
                values.append(value)
                value += step
            }
        }
        return values.map { ($0, Self.label($0)) }
    }

    /// `20`, `100`, `1k`, `2.5k`, `10k`.
    public static func label(_ frequency: Double) -> String {
        if frequency >= 1000 {
            let kilo = frequency / 1000
            return (kilo == kilo.rounded() ? String(Int(kilo)) : UnitFormat.significant(kilo, 2)) + "k"
        }
        return frequency == frequency.rounded() ? String(Int(frequency)) : UnitFormat.significant(frequency, 2)
    }
}
