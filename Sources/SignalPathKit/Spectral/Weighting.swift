/// Frequency weightings of IEC 61672-1 (sound level meters).
public enum FrequencyWeighting: String, Sendable, CaseIterable {
    case a = "A"
    case c = "C"
    /// Zero weighting: flat.
    case z = "Z"

    /// The weighting in dB at `frequency` Hz: the analytic expressions of IEC 61672-1 Annex E,
    /// normalised to 0 dB at 1 kHz.
    public func decibels(at frequency: Double) -> Double {
        guard self != .z else { return 0 }
        guard frequency > 0 else { return -.infinity }
        let f2 = frequency * frequency
        let (f1, f4) = (20.598997, 12194.217)
        switch self {
        case .a:
            let (f2a, f3a) = (107.65265, 737.86223)
            let response =
                f4 * f4 * f2 * f2
                / ((f2 + f1 * f1) * ((f2 + f2a * f2a) * (f2 + f3a * f3a)).squareRoot() * (f2 + f4 * f4))
            return 20 * log10(response) + 2.000
        case .c:
            let response = f4 * f4 * f2 / ((f2 + f1 * f1) * (f2 + f4 * f4))
            return 20 * log10(response) + 0.062
        case .z:
            return 0
        }
    }

    /// Applies the weighting to mean-square values per bin (power: the dB value over 10).
    func apply(to meanSquare: [[Double]], frequencies: [Double]) -> [[Double]] {
        guard self != .z else { return meanSquare }
        let gains = frequencies.map { pow(10, decibels(at: $0) / 10) }
        return meanSquare.map { channel in zip(channel, gains).map { $0 * $1 } }
    }
}
