/// A mean spectrum in equal bands, in dB, for finding shelves.
struct BandedSpectrum {
    /// Per band: 10·log10 of the mean power per bin, relative to a full-scale sine's peak bin.
    let levels: [Double]
    /// Per bin, the same scale (for the fine position of a shelf).
    let binLevels: [Double]
    let bandWidth: Double
    let binWidth: Double
    let binsPerBand: Int

    struct Shelf {
        var band: Int
        /// dB: the four bands before it and the three after its two-band gap.
        var before: Double
        var after: Double
        var drop: Double { before - after }
    }

    init(meanSquare: [Double], binWidth: Double, bands: Int) {
        let bins = max(1, (meanSquare.count - 1) / bands)
        binsPerBand = bins
        self.binWidth = binWidth
        bandWidth = Double(bins) * binWidth
        let tiny = 1e-30
        binLevels = meanSquare.map { 10 * log10(4 * $0 + tiny) }
        levels = (0..<bands).map { band in
            let range = band * bins..<min(meanSquare.count, (band + 1) * bins)
            return 10 * log10(4 * range.reduce(0) { $0 + meanSquare[$1] } / Double(range.count) + tiny)
        }
    }

    /// The largest drop, at least `drop` dB, from bands starting at `lowest` Hz.
    func steepestShelf(from lowest: Double, drop: Double) -> Shelf? {
        var best: Shelf? = nil
        let first = max(4, Int((lowest / bandWidth).rounded(.up)))
        guard first <= levels.count - 5 else { return nil }
        for band in first...(levels.count - 5) {
            let before = levels[band - 4..<band].reduce(0, +) / 4
            let after = levels[band + 2...band + 4].reduce(0, +) / 3
            let shelf = Shelf(band: band, before: before, after: after)
            if shelf.drop >= drop && shelf.drop > (best?.drop ?? -.infinity) { best = shelf }
        }
        return best
    }

    /// The highest frequency near `shelf` whose level (over a band's width of bins) is above the
    /// midpoint of its before and after levels.
    func crossing(of shelf: Shelf) -> Double {
        let midpoint = (shelf.before + shelf.after) / 2
        let low = max(0, (shelf.band - 2) * binsPerBand), high = min(binLevels.count - 1, (shelf.band + 5) * binsPerBand)
        let reach = max(1, binsPerBand / 2)
        var crossing = low
        for bin in low...high {
            let window = max(0, bin - reach)...min(binLevels.count - 1, bin + reach)
            let mean = window.reduce(0) { $0 + binLevels[$1] } / Double(window.count)
            if mean >= midpoint { crossing = bin }
        }
        return Double(crossing) * binWidth
    }

    /// The mean level (dB of the mean power per bin) of the bins from `low` to `high` Hz (the bin
    /// nearest `low` when that is no bin).
    func level(from lowest: Double, to highest: Double) -> Double {
        let low = max(1, Int((lowest / binWidth).rounded())), high = min(binLevels.count, Int((highest / binWidth).rounded()))
        guard low < high else { return binLevels[min(binLevels.count - 1, low)] }
        let power = (low..<high).reduce(0.0) { $0 + pow(10, binLevels[$1] / 10) } / Double(high - low)
        return 10 * log10(power)
    }

    /// The 10th percentile of the band levels from `lowest` to `highest` Hz.
    func floor(from lowest: Double, to highest: Double) -> Double {
        let low = max(0, Int(lowest / bandWidth)), high = min(levels.count, Int(highest / bandWidth))
        guard low < high else { return levels[min(levels.count - 1, low)] }
        let sorted = levels[low..<high].sorted()
        return sorted[Int(Double(sorted.count - 1) * 0.1)]
    }
}
