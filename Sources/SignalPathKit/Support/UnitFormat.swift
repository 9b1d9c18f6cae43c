/// Numbers formatted for people: fixed decimals, durations, sizes, frequencies.
///
/// Locale-independent by construction (no Foundation formatters): the decimal separator is
/// always `.`, so text output reads the same on every machine.
public enum UnitFormat {
    /// `value` rounded to `decimals` places, e.g. `fixed(2.0, 3)` → "2.000", `fixed(-6.0206, 2)` → "-6.02".
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return value.description }
        // The digits written backwards into a stack buffer, from the last decimal: building the
        // text from Strings and Substrings cost several times the instructions
        // (docs/DECISIONS.md#csv-bytes).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: decimals + 22) { buffer in
            var position = buffer.count
            func put(_ byte: UInt8) {
                position -= 1
                buffer[position] = byte
            }
            var remaining = UInt64(scaled)
            for _ in 0..<decimals {
                put(UInt8(ascii: "0") + UInt8(remaining % 10))
                remaining /= 10
            }
            if decimals > 0 { put(UInt8(ascii: ".")) }
            repeat {
                put(UInt8(ascii: "0") + UInt8(remaining % 10))
                remaining /= 10
            } while remaining > 0
            if value < 0 && scaled != 0 { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[position...]), as: UTF8.self)
        }
    }

    /// `value` with `digits` significant digits, without exponent for everyday magnitudes:
    /// `significant(0.70710678118, 4)` → "0.7071".
    public static func significant(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite, value != 0 else { return value == 0 ? "0" : fixed(value, 0) }
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
        let text = fixed(value, max(0, digits - 1 - magnitude))
        // Trailing zeros of the decimals dropped, and then a bare point (ASCII: bytes are characters).
        let bytes = text.utf8
        guard bytes.contains(UInt8(ascii: ".")) else { return text }
        var end = bytes.endIndex
        while bytes[bytes.index(before: end)] == UInt8(ascii: "0") { end = bytes.index(before: end) }
        if bytes[bytes.index(before: end)] == UInt8(ascii: ".") { end = bytes.index(before: end) }
        return String(text[..<end])
    }

    /// The shortest text that reads back as the same Double; integral values print without ".0"
    /// (`shortest(8.6)` → "8.6", `shortest(20.0)` → "20"). JSON numbers and option values use it.
    public static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    /// A byte count in binary units: "512 B", "187.5 KiB", "4.00 GiB".
    public static func bytes(_ count: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard count >= 1024 else { return "\(count) B" }
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return fixed(value, value < 100 ? 2 : 1) + " " + units[unit]
    }

    /// A frequency: "440 Hz", "997.3 Hz", "1.00 kHz", "22.05 kHz".
    public static func frequency(_ hertz: Double) -> String {
        if abs(hertz) >= 1000 { return fixed(hertz / 1000, 2) + " kHz" }
        if hertz == hertz.rounded() { return fixed(hertz, 0) + " Hz" }
        return fixed(hertz, 1) + " Hz"
    }

    /// An integer with thin groups of three digits: 2 880 000.
    public static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var output = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { output += " " }
            output.append(digit)
        }
        return value < 0 ? "-" + output : output
    }
}
