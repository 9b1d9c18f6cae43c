#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A spectral peak: a tone's frequency and level, interpolated between bins.
public struct SpectralPeak: Sendable, Equatable {
    /// Index into the spectrum's channels.
    public var channel: Int
    /// The bin with the largest value.
    public var bin: Int
    /// Interpolated frequency in Hz.
    public var frequency: Double
    /// Interpolated level in dBFS (amplitude; a sine of amplitude A reads 20·log10(A)).
    public var level: Double
    /// The nearest equal-tempered note.
    public var note: MusicalNote?
}

/// The equal-tempered note nearest to a frequency, and how far off it is.
public struct MusicalNote: Sendable, Equatable {
    /// Scientific pitch notation with sharps: `A4`, `C#5`.
    public var name: String
    /// Deviation from the note in cents (−50…+50).
    public var cents: Double

    private static let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// The nearest note to `frequency` Hz with A4 = `a4` Hz, or nil outside the audible notes
    /// (below C0 or above B10).
    public static func nearest(to frequency: Double, a4: Double = 440) -> MusicalNote? {
        guard frequency > 0, a4 > 0 else { return nil }
        let midi = 69 + 12 * log2(frequency / a4)
        let nearest = midi.rounded()
        guard nearest >= 12, nearest < 144 else { return nil }
        let index = Int(nearest)
        return MusicalNote(name: names[index % 12] + String(index / 12 - 1), cents: (midi - nearest) * 100)
    }
}

extension PowerSpectrum {
    /// The `count` strongest peaks of channel `channel` between `frequencies`, strongest first.
    ///
    /// A peak is a bin above its neighbours; a weaker peak within the window's main lobe of a
    /// stronger one is its skirt and is skipped. The frequency comes from the window's own
    /// spectrum (its DTFT): the offset δ from the peak bin is the one at which the window's response
    /// one bin either side, |W(1−δ)|/|W(1+δ)|, has the ratio the neighbouring bins show — exact for a
    /// lone steady tone with any window, where a parabola through dB values (the starting point,
    /// and the fallback) is off by up to a few hundredths of a bin. The level is the peak bin's
    /// magnitude divided by |W(δ)|/W(0), which undoes the scalloping loss, so an off-bin tone reads
    /// its true amplitude.
    /// - Parameter meanSquare: the values to search (`meanSquare()`, perhaps weighted).
    /// - Parameter prominence: when given, a peak must stand this many dB above the median level of
    ///   its neighbourhood (a sixth of an octave, at least four main lobes, either side, its own lobe
    ///   left out), so that bumps in a noise floor are not taken for tones.
    public func peaks(count: Int, channel: Int, meanSquare: [[Double]], frequencies: ClosedRange<Double>? = nil,
                      a4: Double = 440, prominence: Double? = nil) -> [SpectralPeak] {
        guard count > 0 else { return [] }
        let levels = values(fromMeanSquare: [meanSquare[channel]], in: .dbfs)[0]
        let last = binCount - 1
        var candidates: [Int] = []
        for bin in 1..<last where levels[bin].isFinite && levels[bin] > levels[bin - 1] && levels[bin] >= levels[bin + 1] {
            if let frequencies, !frequencies.contains(frequency(ofBin: bin)) { continue }
            candidates.append(bin)
        }
        candidates.sort { levels[$0] > levels[$1] }
        let separation = parameters.window.mainLobeHalfWidth * parameters.fftSize / parameters.windowSize
        var chosen: [Int] = []
        for bin in candidates where chosen.count < count {
            guard chosen.allSatisfy({ abs($0 - bin) > separation }) else { continue }
            if let prominence, levels[bin] - neighbourhoodMedian(levels, around: bin, lobe: separation) < prominence { continue }
            chosen.append(bin)
        }
        let window = chosen.isEmpty ? [] : parameters.window.coefficients(size: parameters.windowSize)
        return chosen.map { bin in
            let alpha = levels[bin - 1], beta = levels[bin], gamma = levels[bin + 1]
            var offset = 0.0
            let curvature = alpha - 2 * beta + gamma
            if alpha.isFinite && gamma.isFinite && curvature < 0 {
                offset = max(-0.5, min(0.5, 0.5 * (alpha - gamma) / curvature))
                offset = refinedOffset(window, below: alpha, above: gamma) ?? offset
            }
            // |W(δ)| / W(0): how much of a tone δ bins off the bin centre this bin sees.
            let response = windowResponse(window, offsetBins: offset) / windowSum
            let level = beta - 20 * log10(response)
            let frequency = (Double(bin) + offset) * binWidth
            return SpectralPeak(channel: channel, bin: bin, frequency: frequency, level: level,
                                note: MusicalNote.nearest(to: frequency, a4: a4))
        }
    }

    /// The median level of the bins around `bin`: a sixth of an octave, and at least four lobes,
    /// either side, without the peak's own lobe.
    private func neighbourhoodMedian(_ levels: [Double], around bin: Int, lobe: Int) -> Double {
        let reach = max(4 * lobe, Int(Double(bin) * (pow(2, 1.0 / 6) - 1)))
        var around: [Double] = []
        for index in max(1, bin - reach)...min(levels.count - 1, bin + reach) where abs(index - bin) > lobe {
            around.append(levels[index])
        }
        guard !around.isEmpty else { return -.infinity }
        around.sort()
        return around[around.count / 2]
    }

    /// The offset in (−½, ½) at which |W(1−δ)|/|W(1+δ)| equals the ratio of the neighbouring bins'
    /// magnitudes (given in dB), found by bisection; nil when the ratio is outside what the window
    /// can produce (noise, or another tone close by).
    private func refinedOffset(_ window: [Float], below: Double, above: Double) -> Double? {
        let measured = (above - below) / 20  // log10 of |X(k+1)| / |X(k−1)|
        func ratio(_ delta: Double) -> Double {
            log10(windowResponse(window, offsetBins: 1 - delta) / windowResponse(window, offsetBins: 1 + delta))
        }
        var low = -0.5, high = 0.5
        guard ratio(low) < measured, measured < ratio(high) else { return nil }
        for _ in 0..<32 {
            let middle = (low + high) / 2
            if ratio(middle) < measured { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// |Σ w[n]·e^(−2πi·δ·n/fftSize)|: the window's spectrum δ FFT bins from its centre.
    ///
    /// The phasor advances by one complex multiplication per coefficient instead of a sin and cos
    /// each; restarted from exact values every 1024 steps, its rounding stays near 1e−13.
    private func windowResponse(_ window: [Float], offsetBins: Double) -> Double {
        var re = 0.0, im = 0.0
        let step = -2 * Double.pi * offsetBins / Double(parameters.fftSize)
        let stepRe = cos(step), stepIm = sin(step)
        var phasorRe = 1.0, phasorIm = 0.0
        for (n, w) in window.enumerated() {
            if n % 1024 == 0 {
                phasorRe = cos(step * Double(n))
                phasorIm = sin(step * Double(n))
            }
            re += Double(w) * phasorRe
            im += Double(w) * phasorIm
            (phasorRe, phasorIm) = (phasorRe * stepRe - phasorIm * stepIm, phasorRe * stepIm + phasorIm * stepRe)
        }
        return (re * re + im * im).squareRoot()
    }
}
