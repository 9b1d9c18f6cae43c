/// Fractional-octave smoothing of a power spectrum: each bin becomes the mean power of the bins
/// within ±1/(2n) octave of it, as room-acoustics and loudspeaker plots show spectra.
enum OctaveSmoothing {
    /// Smooths mean-square values per bin (bin k at k·`binWidth` Hz) over 1/`fraction` octave.
    /// DC is left as it is; every other bin averages at least itself.
    ///
    /// - Complexity: O(bins), with prefix sums.
    static func smooth(_ values: [Double], binWidth: Double, fraction: Int) -> [Double] {
        guard values.count > 2 else { return values }
        var prefix = [0.0]
        prefix.reserveCapacity(values.count + 1)
        for value in values { prefix.append(prefix.last! + value) }
        let halfWidth = pow(2, 1 / (2 * Double(fraction)))
        return values.indices.map { bin in
            guard bin > 0 else { return values[0] }
            let centre = Double(bin)
            let low = max(1, Int((centre / halfWidth).rounded(.up)))
            let high = min(values.count - 1, Int((centre * halfWidth).rounded(.down)))
            let (first, last) = (min(low, bin), max(high, bin))
            return (prefix[last + 1] - prefix[first]) / Double(last - first + 1)
        }
    }
}
