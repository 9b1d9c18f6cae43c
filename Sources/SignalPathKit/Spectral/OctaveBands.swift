/// Fractional-octave bands of IEC 61260-1 (base-10 system), from about 20 Hz to Nyquist.
public struct OctaveBand: Sendable, Equatable {
    /// Exact midband frequency in Hz.
    public var centre: Double
    /// The nominal frequency people label the band with (31.5, 63, 125, …; 1/3-octave: 25, 31.5, 40, …),
    /// or the exact one rounded to three significant digits for other fractions.
    public var nominal: Double
    public var lower: Double
    public var upper: Double

    /// The bands of 1/`fraction` octave (one of `OctaveFraction.bandDenominators`) that lie whole between 17.5 Hz and
    /// `nyquist` (a band cut by Nyquist would read low).
    public static func bands(fraction: Int, upTo nyquist: Double) -> [OctaveBand] {
        precondition(OctaveFraction.bandDenominators.contains(fraction))
        let ratio = pow(10, 0.3)  // G: the base-10 octave ratio
        let b = Double(fraction)
        func centre(_ x: Int) -> Double {
            fraction % 2 == 1 ? 1000 * pow(ratio, Double(x) / b) : 1000 * pow(ratio, (2 * Double(x) + 1) / (2 * b))
        }
        var bands: [OctaveBand] = []
        for x in -10 * fraction...6 * fraction {
            let middle = centre(x)
            let lower = middle * pow(ratio, -1 / (2 * b)), upper = middle * pow(ratio, 1 / (2 * b))
            guard upper > 17.5, upper <= nyquist else { continue }
            bands.append(OctaveBand(centre: middle, nominal: nominal(middle, fraction: fraction), lower: lower, upper: upper))
        }
        return bands
    }

    /// Nominal midband frequencies of IEC 61260-1 Annex E for octaves and third octaves.
    private static let nominalThirdOctave: [Double] = [
        10, 12.5, 16, 20, 25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800,
        1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500, 16000, 20000, 25000,
        31500, 40000, 50000, 63000, 80000, 100000,
    ]

    private static func nominal(_ exact: Double, fraction: Int) -> Double {
        if fraction == 1 || fraction == 3,
            let match = nominalThirdOctave.min(by: { abs(log($0 / exact)) < abs(log($1 / exact)) }),
            abs(log(match / exact)) < 0.05
        {
            return match
        }
        let digits = pow(10, floor(log10(exact)) - 2)
        return (exact / digits).rounded() * digits
    }

    /// The band's mean square from per-bin mean squares: each bin's power spread evenly over its
    /// width, integrated over the band, and divided by the window's ENBW in bins (which a tone's
    /// leakage or white noise spreads over), so a tone in the band reads its own mean square.
    func meanSquare(of values: [Double], binWidth: Double, enbwBins: Double) -> Double {
        let first = max(0, Int((lower / binWidth - 0.5).rounded(.down)))
        let last = min(values.count - 1, Int((upper / binWidth + 0.5).rounded(.up)))
        guard first <= last else { return 0 }
        var total = 0.0
        for bin in first...last {
            let low = (Double(bin) - 0.5) * binWidth, high = (Double(bin) + 0.5) * binWidth
            let overlap = min(high, upper) - max(low, lower)
            if overlap > 0 { total += values[bin] * overlap / binWidth }
        }
        return total / enbwBins
    }
}
