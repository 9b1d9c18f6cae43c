import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Times for people")
struct UnitFormatTimeTests {
    @Test(
        "one shape by magnitude after rounding: seconds with their unit, m:ss.mmm from a minute, h:mm:ss.mmm from an hour (cases worked by hand)",
        arguments: [
            (0, "0.000 s"), (-0.0, "0.000 s"), (-0.0004, "0.000 s"), (0.25, "0.250 s"), (12.345, "12.345 s"), (-12.5, "-12.500 s"),
            (59.9994, "59.999 s"), (59.9995, "1:00.000"), (60, "1:00.000"), (62.5, "1:02.500"), (599.25, "9:59.250"),
            (600, "10:00.000"), (-75, "-1:15.000"), (3599.9994, "59:59.999"), (3599.9996, "1:00:00.000"), (3600, "1:00:00.000"),
            (3723.5, "1:02:03.500"), (7195.9, "1:59:55.900"), (36_000, "10:00:00.000"), (360_000.001, "100:00:00.001"),
        ] as [(Double, String)])
    func milliseconds(seconds: Double, text: String) {
        #expect(UnitFormat.time(seconds) == text)
    }

    @Test("decimals, trimmed ticks and the least shape of an axis or a range")
    func variants() {
        #expect(UnitFormat.time(59.96, decimals: 1) == "1:00.0")
        #expect(UnitFormat.time(75.04, decimals: 1) == "1:15.0")
        #expect(UnitFormat.time(3725, decimals: 0) == "1:02:05")
        #expect(UnitFormat.time(0.5, decimals: 6, trimmed: true) == "0.5 s")
        #expect(UnitFormat.time(65, decimals: 3, trimmed: true) == "1:05")
        #expect(UnitFormat.time(65.5, decimals: 3, trimmed: true) == "1:05.5")
        #expect(UnitFormat.time(0, decimals: 2, trimmed: true, shape: .hours) == "0:00:00")
        #expect(UnitFormat.time(12.3, decimals: 1, shape: .minutes) == "0:12.3")
        #expect(UnitFormat.times(0, 7195.9) == "0:00:00.000 .. 1:59:55.900")
        #expect(UnitFormat.times(1.5, 3, separator: "–") == "1.500 s–3.000 s")
        #expect(UnitFormat.axisTimes([0, 3597.95, 7195.9]) == ["0:00:00", "0:59:57.95", "1:59:55.9"])
        #expect(UnitFormat.time(.infinity) == "inf s" && UnitFormat.time(.nan) == "nan s")
        #expect(UnitFormat.TimeShape(59.9996) == .minutes && UnitFormat.TimeShape(59.9996, decimals: 4) == .seconds)
    }

    @Test("every time written reads back as the same time through --range's parser, to the millisecond (seeded values up to 30 hours)")
    func readsBack() {
        var generator = SeededGenerator(seed: 39)
        var values: [Double] = [0, 59.9995, 60, 3599.9996, 3600, 7195.9]
        for _ in 0..<2000 { values.append(Double.random(in: 0..<108_000, using: &generator)) }
        for value in values {
            let text = UnitFormat.time(value)
            let parsed = TimeRange.seconds(text)
            #expect(parsed.map { abs($0 - value) <= 0.0005 + 1e-9 } == true, "\(value) → \(text) → \(String(describing: parsed))")
            let range = TimeRange(parsing: UnitFormat.times(value / 2, value))
            #expect(range.map { abs(($0.end ?? -1) - value) <= 0.0005 + 1e-9 } == true, "\(UnitFormat.times(value / 2, value))")
        }
    }
}
