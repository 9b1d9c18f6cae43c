import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Unit formatting")
struct UnitFormatTests {
    /// `fixed` as it was first written, from Strings and Substrings: the model the byte-buffer
    /// version must match character for character.
    static func modelFixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return value.description }
        let digits = String(UInt64(scaled))
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + padded }
        return sign + padded.dropLast(decimals) + "." + padded.suffix(decimals)
    }

    /// `significant`'s trimming as first written, on the model's fixed text.
    static func modelSignificant(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite, value != 0 else { return value == 0 ? "0" : modelFixed(value, 0) }
        var magnitude = 0
        var scaled = abs(value)
        while scaled >= 10 {
            scaled /= 10
            magnitude += 1
        }
        while scaled < 1 {
            scaled *= 10
            magnitude -= 1
        }
        guard magnitude > -15 && magnitude < 15 else { return value.description }
        var text = modelFixed(value, max(0, digits - 1 - magnitude))
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    @Test("fixed and significant write what the String-built model writes, for seeded values of every magnitude and sign")
    func matchesModel() {
        var generator = SeededGenerator(seed: 23)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 0.05, -0.0004, 1.5, 2.5, 9.9999, 99.995, 1e-9, 8.99e18, 9.5e18, -1e300, .nan, .infinity, -.infinity]
        for _ in 0..<4000 {
            var power = 1.0
            let exponent = Int.random(in: -12...19, using: &generator)
            for _ in 0..<abs(exponent) { power = exponent < 0 ? power / 10 : power * 10 }
            let sign: Double = Bool.random(using: &generator) ? -1 : 1
            values.append(sign * Double.random(in: 1..<10, using: &generator) * power)
        }
        for value in values {
            for decimals in 0...9 {
                #expect(UnitFormat.fixed(value, decimals) == Self.modelFixed(value, decimals), "fixed(\(value), \(decimals))")
            }
            for digits in [1, 4, 9] {
                #expect(UnitFormat.significant(value, digits) == Self.modelSignificant(value, digits), "significant(\(value), \(digits))")
            }
        }
    }
}
