/// A fraction of an octave, 1/n, as smoothing and band options write it: `1/3`, `1/1` (or `1`).
///
/// One type for both uses, with the one list of band fractions IEC 61260-1 defines centres for
/// (`bandDenominators`) and the smoothing widths allowed (`smoothingDenominators`).
public struct OctaveFraction: Sendable, Equatable, CustomStringConvertible {
    /// n of 1/n.
    public let denominator: Int

    /// 1/n-octave bands: octaves, half, third, sixth, twelfth and 24th octaves.
    public static let bandDenominators = [1, 2, 3, 6, 12, 24]
    /// 1/n-octave smoothing: from an octave to 1/48 octave (finer is narrower than most bins).
    public static let smoothingDenominators = 1...48

    public init(denominator: Int) {
        self.denominator = denominator
    }

    /// Parses `1/n` (n ≥ 1), or `1` for a whole octave; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.trimmingSpaces().split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1 where parts[0] == "1": denominator = 1
        case 2 where parts[0] == "1":
            guard parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(parts[1]), n >= 1 else { return nil }
            denominator = n
        default: return nil
        }
    }

    /// True when IEC 61260-1 bands of this width exist here (`OctaveBand.bands`).
    public var isBandFraction: Bool { Self.bandDenominators.contains(denominator) }

    /// `1/3`, as `init(parsing:)` reads it back.
    public var description: String { "1/\(denominator)" }

    /// The band fractions as options list them: `1/1, 1/2, 1/3, 1/6, 1/12 or 1/24`.
    public static var bandList: String {
        let names = bandDenominators.map { "1/\($0)" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
