/// A numeric field of a file header, where `PCMFileBuilder` lays it out from the specification:
/// its offset, width and byte order, so that a test can set it to any value the field can hold.
public struct HeaderField: Sendable, Hashable, CustomStringConvertible {
    /// The chunk and the field, as the specification names them: "fmt sample rate", "ds64 data size".
    public var name: String
    public var offset: Int
    /// Bytes: 2, 4 or 8 for integers, 10 for an 80-bit float.
    public var width: Int
    public var bigEndian: Bool
    /// AIFF's sample rate: an IEEE 754 80-bit extended float rather than an integer.
    public var isExtended: Bool

    public var description: String { name }

    /// The largest value an integer field holds.
    public var maximum: UInt64 { width >= 8 ? .max : (1 << UInt64(8 * width)) - 1 }

    /// The boundary values of an integer field: 0, 1, a small odd value, `typical` (what a
    /// well-formed file has there), the largest signed value and one past it (where a reader that
    /// takes the field as signed turns negative), and the largest two.
    public func boundaryValues(typical: UInt64) -> [UInt64] {
        let signedLimit = maximum >> 1
        var values: [UInt64] = []
        for value in [0, 1, 3, typical, signedLimit, signedLimit + 1, maximum - 1, maximum] where !values.contains(value) {
            values.append(value)
        }
        return values
    }

    /// The field's integer value in `bytes`.
    public func value(in bytes: [UInt8]) -> UInt64 {
        precondition(!isExtended)
        var value: UInt64 = 0
        for index in 0..<width {
            value = value << 8 | UInt64(bytes[offset + (bigEndian ? index : width - 1 - index)])
        }
        return value
    }

    /// `bytes` with this integer field set to `value` (its low `width` bytes).
    public func setting(_ value: UInt64, in bytes: [UInt8]) -> [UInt8] {
        precondition(!isExtended)
        var copy = bytes
        copy.replaceSubrange(offset..<offset + width, with: Self.encode(value, width: width, bigEndian: bigEndian))
        return copy
    }

    /// `bytes` with this 80-bit field set to `value`.
    public func setting(_ value: ExtendedFloat, in bytes: [UInt8]) -> [UInt8] {
        precondition(isExtended)
        var copy = bytes
        copy.replaceSubrange(offset..<offset + width, with: value.bytes)
        return copy
    }

    static func encode(_ value: UInt64, width: Int, bigEndian: Bool) -> [UInt8] {
        (0..<width).map { index in
            let shift = bigEndian ? (width - 1 - index) * 8 : index * 8
            return UInt8(truncatingIfNeeded: value >> UInt64(shift))
        }
    }
}

/// An IEEE 754 80-bit extended float by its parts (sign and 15-bit biased exponent, and the 64-bit
/// significand whose top bit is the explicit integer bit), for values no Double holds exactly.
public struct ExtendedFloat: Sendable, Hashable, CustomStringConvertible {
    /// Sign (top bit) and biased exponent (bias 16383).
    public var exponent: UInt16
    public var mantissa: UInt64
    public var label: String

    public init(exponent: UInt16, mantissa: UInt64, label: String? = nil) {
        self.exponent = exponent
        self.mantissa = mantissa
        self.label = label ?? "0x\(String(exponent, radix: 16)):\(String(mantissa, radix: 16))"
    }

    /// A positive whole number, exactly.
    public init(_ value: UInt64) {
        precondition(value > 0)
        let shift = value.leadingZeroBitCount
        self.init(exponent: UInt16(16383 + 63 - shift), mantissa: value << UInt64(shift), label: String(value))
    }

    public var description: String { label }

    /// Big-endian, as AIFF stores it.
    public var bytes: [UInt8] {
        HeaderField.encode(UInt64(exponent), width: 2, bigEndian: true) + HeaderField.encode(mantissa, width: 8, bigEndian: true)
    }

    /// The values of AIFF's rate field worth trying: zero, the smallest denormal, below 1 Hz, 1 Hz
    /// and a few, a typical rate, rates around 2³⁰ (where libsndfile stops reading them exactly),
    /// 2³¹ and 2³², about 10³⁰⁰, the largest finite value, infinity, NaN and a negative rate.
    public static let sampleRateBoundaries: [ExtendedFloat] = [
        ExtendedFloat(exponent: 0, mantissa: 0, label: "0"),
        ExtendedFloat(exponent: 0, mantissa: 1, label: "smallest denormal"),
        ExtendedFloat(exponent: 16382, mantissa: 1 << 63, label: "0.5"),
        ExtendedFloat(1), ExtendedFloat(7), ExtendedFloat(44_100),
        ExtendedFloat(1_073_741_823), ExtendedFloat(1_073_741_824), ExtendedFloat(2_147_483_647), ExtendedFloat(2_147_483_648),
        ExtendedFloat(4_294_967_295),
        ExtendedFloat(exponent: 16383 + 996, mantissa: 0xBF21_E440_03AC_DD2C, label: "1e300"),
        ExtendedFloat(exponent: 0x7FFE, mantissa: .max, label: "largest finite"),
        ExtendedFloat(exponent: 0x7FFF, mantissa: 1 << 63, label: "infinity"),
        ExtendedFloat(exponent: 0x7FFF, mantissa: 0xC000_0000_0000_0000, label: "NaN"),
        ExtendedFloat(exponent: 0x8000 | (16383 + 15), mantissa: 0xAC44_0000_0000_0000, label: "-44100"),
    ]
}
