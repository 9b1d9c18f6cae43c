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
    ///   left out), so that bumps in a noise floor are not taken for tones, and as far above the
    ///   spectrum's floor: the median of the bins searched, and no less than `measurementRange`
    ///   under the strongest bin, where the single-precision FFT's own rounding leaves bumps.
    public func peaks(
        count: Int, channel: Int, meanSquare: [[Double]], frequencies: ClosedRange<Double>? = nil,
        a4: Double = 440, prominence: Double? = nil
    ) -> [SpectralPeak] {
        guard count > 0 else { return [] }
        let levels = values(fromMeanSquare: [meanSquare[channel]], in: .dbfs)[0]
        let last = binCount - 1
        var candidates: [Int] = []
        for bin in 1..<last where levels[bin].isFinite && levels[bin] > levels[bin - 1] && levels[bin] >= levels[bin + 1] {
            if let frequencies, !frequencies.contains(frequency(ofBin: bin)) { continue }
            candidates.append(bin)
        }
        candidates.sort { levels[$0] > levels[$1] }
        if let prominence, let strongest = candidates.first {
            let floor = max(Self.medianLevel(levels, frequencies: frequencies, spectrum: self), levels[strongest] - Self.measurementRange)
            candidates.removeAll { levels[$0] < floor + prominence }
        }
        let separation = parameters.window.mainLobeHalfWidth * parameters.fftSize / parameters.windowSize
        var chosen: [Int] = []
        for bin in candidates where chosen.count < count {
            guard chosen.allSatisfy({ abs($0 - bin) > separation }) else { continue }
            if let prominence, !standsOut(levels, bin: bin, lobe: separation, by: prominence) { continue }
            chosen.append(bin)
        }
        // A note is named only where the resolution (the ENBW, as an analyser's RBW) is no wider
        // than a semitone: below that, a peak covers several notes and cannot tell which.
        let resolution = enbwHertz
        let window = chosen.isEmpty ? nil : WindowResponse.shared(parameters.window, size: parameters.windowSize, fftSize: parameters.fftSize)
        return chosen.map { bin in
            let alpha = levels[bin - 1], beta = levels[bin], gamma = levels[bin + 1]
            var offset = 0.0
            let curvature = alpha - 2 * beta + gamma
            if alpha.isFinite && gamma.isFinite && curvature < 0 {
                offset = max(-0.5, min(0.5, 0.5 * (alpha - gamma) / curvature))
                offset = window.flatMap { Self.refinedOffset($0, below: alpha, above: gamma) } ?? offset
            }
            // |W(δ)| / W(0): how much of a tone δ bins off the bin centre this bin sees.
            let response = (window?.magnitude(atOffset: offset) ?? windowSum) / windowSum
            let level = beta - 20 * log10(response)
            let frequency = (Double(bin) + offset) * binWidth
            return SpectralPeak(
                channel: channel, bin: bin, frequency: frequency, level: level,
                note: frequency * (pow(2, 1.0 / 12) - 1) >= resolution ? MusicalNote.nearest(to: frequency, a4: a4) : nil)
        }
    }

    /// How far under the strongest bin a tone can still be told from the FFT's rounding: in single
    /// precision its bumps lie 146–150 dB under a lone sine, where a spur 140 dB under it still
    /// reads within 0.3 dB (docs/ANALYZE.md, "Tones").
    static let measurementRange = 150.0

    /// The median level of the bins within `frequencies` (all but DC and Nyquist without).
    private static func medianLevel(_ levels: [Double], frequencies: ClosedRange<Double>?, spectrum: PowerSpectrum) -> Double {
        var inside = (1..<levels.count - 1).filter { frequencies?.contains(spectrum.frequency(ofBin: $0)) ?? true }.map { levels[$0] }
        guard !inside.isEmpty else { return -.infinity }
        let middle = inside.count / 2
        inside.sort()
        return inside[middle]
    }

    /// True when `levels[bin]` stands `prominence` dB or more above the median level of the bins
    /// around it: a sixth of an octave, and at least four lobes, either side, without the peak's
    /// own lobe; from at most 64 evenly spaced bins of it (the averaged bins vary slowly, and this
    /// keeps a scan over thousands of candidates cheap).
    ///
    /// Counted rather than selected: with the n values sorted, the median is the one of rank n/2,
    /// and level − v ≥ prominence holds for a prefix of them (subtraction is monotonic), so it
    /// holds for the median exactly when it holds for n/2 + 1 values or more (a quickselect was a
    /// large part of `scan`'s time over short files; docs/DECISIONS.md#peak-prominence). The count
    /// is known beforehand, so the pass stops as soon as the answer is: over noise, most candidates
    /// fail within the first half of their neighbours.
    private func standsOut(_ levels: [Double], bin: Int, lobe: Int, by prominence: Double) -> Bool {
        let level = levels[bin]
        let reach = max(4 * lobe, Int(Double(bin) * (pow(2, 1.0 / 6) - 1)))
        let first = max(1, bin - reach), last = min(levels.count - 1, bin + reach)
        let stride = max(1, (last - first + 1) / 64)
        // Points first + j·stride, j in 0..<points, less those within the peak's own lobe.
        let points = (last - first) / stride + 1
        func floorDivision(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
        let lobeFirst = max(0, -floorDivision(first - (bin - lobe), stride))
        let lobeLast = min(points - 1, floorDivision(bin + lobe - first, stride))
        let count = points - max(0, lobeLast - lobeFirst + 1)
        guard count > 0 else { return true }
        let needed = count / 2 + 1
        var below = 0, notBelow = 0
        for index in Swift.stride(from: first, through: last, by: stride) where abs(index - bin) > lobe {
            if level - levels[index] >= prominence {
                below += 1
                if below >= needed { return true }
            } else {
                notBelow += 1
                if notBelow > count - needed { return false }
            }
        }
        preconditionFailure("the neighbours counted \(below + notBelow), not \(count)")
    }

    /// The offset in (−½, ½) at which |W(1−δ)|/|W(1+δ)| equals the ratio of the neighbouring bins'
    /// magnitudes (given in dB), found by bisection; nil when the ratio is outside what the window
    /// can produce (noise, or another tone close by).
    private static func refinedOffset(_ window: WindowResponse, below: Double, above: Double) -> Double? {
        let measured = (above - below) / 20  // log10 of |X(k+1)| / |X(k−1)|
        func ratio(_ delta: Double) -> Double {
            log10(window.magnitude(atOffset: 1 - delta) / window.magnitude(atOffset: 1 + delta))
        }
        var low = -0.5, high = 0.5
        guard ratio(low) < measured, measured < ratio(high) else { return nil }
        for _ in 0..<32 {
            let middle = (low + high) / 2
            if ratio(middle) < measured { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}

/// |W(δ)|, a window's spectrum δ FFT bins from its centre, for 0 ≤ |δ| ≤ 1.5: tabulated once at
/// 1/64 bin (an O(N) sum each) and interpolated with cubic (Catmull–Rom) segments, which on a main
/// lobe is good to ~1e−7 — so refining many peaks costs a table, not a DTFT per step.
struct WindowResponse: Sendable {
    static let step = 1.0 / 64
    private let table: [Double]

    private struct Key: Hashable {
        var window: String
        var size: Int
        var fftSize: Int
    }
    private static let cache = ProcessCache<Key, WindowResponse>()

    /// The table for a window, size and FFT size, made once per process.
    static func shared(_ window: Window, size: Int, fftSize: Int) -> WindowResponse {
        cache.value(for: Key(window: window.name, size: size, fftSize: fftSize)) {
            WindowResponse(WindowTable.shared(window, size: size).coefficients, fftSize: fftSize)
        }
    }

    init(_ window: [Float], fftSize: Int) {
        // From −1 step to 1.5 + 2 steps, so every interpolation has its four points.
        let offsets = (-1...(Int(1.5 / Self.step) + 2)).map { Double($0) * Self.step }
        if let series = CosineSeries(window, fftSize: fftSize) {
            self.table = offsets.map { series.magnitude(atOffset: $0) }
            return
        }
        var table: [Double] = []
        table.reserveCapacity(offsets.count + 3)
        for first in stride(from: 0, to: offsets.count, by: 4) {
            var lanes = SIMD4<Double>(repeating: offsets[first])
            for lane in 1..<4 where first + lane < offsets.count { lanes[lane] = offsets[first + lane] }
            let magnitudes = Self.dtft(window, fftSize: fftSize, offsetBins: lanes)
            for lane in 0..<min(4, offsets.count - first) { table.append(magnitudes[lane]) }
        }
        self.table = table
    }

    /// W(δ)| of a window symmetric about its middle, from its even moments. With N = 2h points,
    /// w[n] = w[N − n] (every window `Window` makes) and φ = 2πδ/fftSize, W(δ)·e^(iφh) = R +
    /// w[0]·e^(iφh), where R = w[h] + 2·Σ_{m=1}^{h−1} w[h+m]·cos(φm) = Σ_k
    /// (−1)^k·(φh)^(2k)/(2k)!·μ_k and μ_k = w[h]·[k = 0] + 2·Σ_m w[h+m]·(m/h)^(2k): the window is
    /// summed once into `terms` moments (h·terms multiply-adds), and each offset costs `terms`
    /// more, where a DTFT per offset summed the whole window (docs/DECISIONS.md#window-tables). On
    /// the table φh ≤ π·1.53, where the 22nd term is under 1e−20 of μ_0 and the terms' sum is at
    /// most cosh(φh) ≈ 61 times μ_0: rounding stays under ~1e−13 of |W(0)|, as the DTFT's did.
    private struct CosineSeries {
        static let terms = 22
        private let moments: [Double]
        private let edge: Double
        private let half: Int
        private let fftSize: Int

        /// Nil unless `window` has an even number of points and is exactly symmetric.
        init?(_ window: [Float], fftSize: Int) {
            let count = window.count
            guard count >= 2, count % 2 == 0, count <= fftSize else { return nil }
            let half = count / 2
            for n in 1..<half where window[n] != window[count - n] { return nil }
            var moments = [Double](repeating: 0, count: Self.terms)
            for m in 0..<half {
                let weight = m == 0 ? Double(window[half]) : 2 * Double(window[half + m])
                let x = Double(m) / Double(half)
                var power = weight
                for k in 0..<Self.terms {
                    moments[k] += power
                    power *= x * x
                }
            }
            self.moments = moments
            edge = Double(window[0])
            self.half = half
            self.fftSize = fftSize
        }

        func magnitude(atOffset offset: Double) -> Double {
            let angle = 2 * Double.pi * offset / Double(fftSize) * Double(half)
            var term = 1.0, sum = 0.0
            for k in 0..<Self.terms {
                sum += term * moments[k]
                term *= -angle * angle / Double((2 * k + 1) * (2 * k + 2))
            }
            let re = sum + edge * cos(angle), im = edge * sin(angle)
            return (re * re + im * im).squareRoot()
        }
    }

    func magnitude(atOffset offset: Double) -> Double {
        let position = min(abs(offset), 1.5) / Self.step
        let index = min(Int(position), table.count - 4)
        let t = position - Double(index)
        let (p0, p1, p2, p3) = (table[index], table[index + 1], table[index + 2], table[index + 3])
        return p1 + 0.5 * t * (p2 - p0 + t * (2 * p0 - 5 * p1 + 4 * p2 - p3 + t * (3 * (p1 - p2) + p3 - p0)))
    }

    /// Σ w[n]·e^(−2πi·δ·n/fftSize)| for four offsets δ at once, with each phasor advanced by one
    /// complex multiplication per coefficient (restarted from exact values every 1024 steps;
    /// rounding stays near 1e−13). Each lane does what a scalar loop over one offset would, in the
    /// same order; four at a time the table costs half the instructions
    /// (docs/DECISIONS.md#window-tables).
    static func dtft(_ window: [Float], fftSize: Int, offsetBins: SIMD4<Double>) -> SIMD4<Double> {
        var re = SIMD4<Double>(), im = SIMD4<Double>()
        let step = -2 * Double.pi * offsetBins / Double(fftSize)
        let stepRe = SIMD4(cos(step[0]), cos(step[1]), cos(step[2]), cos(step[3]))
        let stepIm = SIMD4(sin(step[0]), sin(step[1]), sin(step[2]), sin(step[3]))
        var phasorRe = SIMD4<Double>(repeating: 1), phasorIm = SIMD4<Double>()
        window.withUnsafeBufferPointer { window in
            for n in 0..<window.count {
                if n % 1024 == 0 {
                    let angle = step * Double(n)
                    phasorRe = SIMD4(cos(angle[0]), cos(angle[1]), cos(angle[2]), cos(angle[3]))
                    phasorIm = SIMD4(sin(angle[0]), sin(angle[1]), sin(angle[2]), sin(angle[3]))
                }
                let w = Double(window[n])
                re += w * phasorRe
                im += w * phasorIm
                (phasorRe, phasorIm) = (phasorRe * stepRe - phasorIm * stepIm, phasorRe * stepIm + phasorIm * stepRe)
            }
        }
        return (re * re + im * im).squareRoot()
    }
}
