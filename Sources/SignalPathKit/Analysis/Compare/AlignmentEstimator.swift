/// How a second recording lines up with a first: B(t) ≈ gain · A(t − delay(t)) with
/// delay(t) = delay + drift · t, t and the delays in A's frames.
public struct Alignment: Sendable, Equatable {
    /// A's frames by which B lags A at A's frame 0 (positive: B is later).
    public var delay: Double
    /// How much faster B's clock runs than A's, as a fraction (1e-6 is one ppm): B's delay grows
    /// by `drift` frames per frame of A.
    public var drift: Double
    /// B's amplitude over A's, signed: negative when B is inverted.
    public var gain: Double
    /// The excerpts' mean correlation at their best lag, in the band compared (0…1).
    public var excerptCorrelation: Double

    public func delay(atFrame frame: Int64) -> Double { delay + drift * Double(frame) }
}

/// Finds `Alignment` from excerpts spread over A's range: per excerpt, B's matching stretch
/// resampled to A's rate, the lag of the largest cross-correlation of the two (band-limited, by
/// FFT), then the fraction of a sample from the slope of their cross-spectrum's phase and the gain
/// from its magnitude; over the excerpts, the delay and the drift by a straight-line fit.
struct AlignmentEstimator {
    /// Frames per excerpt of A.
    static let excerptFrames = 32768
    /// Excerpts spread over the range (fewer when it is short).
    static let excerptCount = 8
    /// Segments of the cross-spectrum that refines the lag.
    static let segmentFrames = 8192
    /// A drift that moves the delay by less than this over the whole range is not corrected.
    static let negligibleDriftFrames = 0.05

    let a: SelectedFrames
    let b: SelectedFrames
    let range: Range<Int64>
    /// The largest delay searched, in A's frames, either way.
    let maximumLag: Int

    var rateA: Double { Double(a.file.format.sampleRate) }
    var rateB: Double { Double(b.file.format.sampleRate) }
    /// The band compared: above 20 Hz, below 0.45 of the lower rate (clear of resamplers' and
    /// coders' transition bands).
    var bandEdge: Double { 0.45 * min(rateA, rateB) }

    struct Measurement {
        var centre: Double
        var delay: Double
        var gain: Double
        var correlation: Double
        var weight: Double
    }

    /// Two recorders' clocks differ by parts per million (crystals: ±100 ppm); a line through the
    /// excerpts steeper than 1 % comes from excerpts that do not match (unrelated files), and
    /// resampling by it would be meaningless, or impossible at −100 %.
    static let largestDrift = 0.01

    func estimate() throws(SignalPathError) -> Alignment {
        let first = try fit(around: Alignment(delay: 0, drift: 0, gain: 1, excerptCorrelation: 0), lag: maximumLag)
        guard first.drift != 0 else { return first }
        // Within an excerpt a drift moves the delay too (100 ppm: 3 samples over 32 768 frames),
        // which blurs the phase slope and lowers the gain: measured again on B corrected for the
        // drift found, what is left is small, and the sums add it.
        let second = try fit(around: first, lag: 64)
        var refined = second
        refined.delay += first.delay
        refined.drift += first.drift
        return refined
    }

    /// The excerpts measured against B mapped onto A by `model`, and a straight line through what
    /// they find: the delay and drift beyond the model's, and the gain.
    private func fit(around model: Alignment, lag: Int) throws(SignalPathError) -> Alignment {
        let length = min(Self.excerptFrames, range.count)
        let count = max(1, min(Self.excerptCount, range.count / max(1, length)))
        var measurements: [Measurement] = []
        for index in 0..<count {
            let start = range.lowerBound + Int64(Double(range.count - length) * (Double(index) + 0.5) / Double(count))
            if let measurement = try measure(at: start, length: length, model: model, lag: lag) { measurements.append(measurement) }
        }
        guard let best = measurements.map(\.correlation).max(), best > 0 else {
            throw .invalidRequest(path: b.file.path, reason: "nothing in it matches \(a.file.path) (no correlation within \(maximumLag) frames)")
        }
        // Excerpts where the two barely match (silence, a passage one of them lacks) do not vote.
        let kept = measurements.filter { $0.correlation >= 0.5 * best && $0.weight > 0 }
        let totalWeight = kept.reduce(0) { $0 + $1.weight }
        let meanCentre = kept.reduce(0) { $0 + $1.weight * $1.centre } / totalWeight
        let meanDelay = kept.reduce(0) { $0 + $1.weight * $1.delay } / totalWeight
        let spread = kept.reduce(0) { $0 + $1.weight * ($1.centre - meanCentre) * ($1.centre - meanCentre) }
        var drift = 0.0
        if kept.count >= 2 && spread > 0 {
            drift = kept.reduce(0) { $0 + $1.weight * ($1.centre - meanCentre) * ($1.delay - meanDelay) } / spread
            if abs(model.drift + drift) * Double(range.count) < Self.negligibleDriftFrames { drift = -model.drift }
            if abs(model.drift + drift) > Self.largestDrift { drift = -model.drift }
        }
        let gain = kept.reduce(0) { $0 + $1.weight * $1.gain } / totalWeight
        let correlation = kept.reduce(0) { $0 + $1.correlation } / Double(kept.count)
        return Alignment(delay: meanDelay - drift * meanCentre, drift: drift, gain: gain, excerptCorrelation: correlation)
    }

    /// The excerpt of A at `start` against B: nil where A is silent.
    private func measure(at start: Int64, length: Int, model: Alignment, lag: Int) throws(SignalPathError) -> Measurement? {
        let first = mono(try a.excerpt(start..<start + Int64(length)), channels: a.channels)
        let energyA = first.reduce(0) { $0 + Double($1) * Double($1) }
        guard energyA > 0 else { return nil }
        // B's stretch from A's frame start − lag, at A's rate; `origin`: the A frame its sample 0 lies at.
        let (second, origin) = try stretchOfB(from: start - Int64(lag), frames: length + 2 * lag, model: model)
        let size = Self.transformSize(length + 2 * lag)
        let correlation = crossCorrelation(first, second, size: size)
        var bestLag = 0
        var bestValue = 0.0
        for shift in 0...2 * lag where abs(correlation[shift]) > abs(bestValue) {
            bestValue = correlation[shift]
            bestLag = shift
        }
        var energyB = 0.0
        for index in bestLag..<bestLag + length { energyB += Double(second[index]) * Double(second[index]) }
        guard energyB > 0 else { return nil }
        let matched = Array(second[bestLag..<bestLag + length])
        let (fraction, gain, weight) = refine(first, matched, inverted: bestValue < 0)
        let coarse = origin + Double(bestLag) - Double(start)
        // The normalisation uses the band-limited correlation against full-band energies: a guide
        // for which excerpts to trust, not a reported figure.
        let strength = min(1, abs(bestValue) / (Double(size) * (energyA * energyB).squareRoot()))
        return Measurement(centre: Double(start) + Double(length) / 2, delay: coarse + fraction, gain: gain, correlation: strength, weight: weight)
    }

    /// The mean of the channels.
    private func mono(_ frames: [Float], channels: Int) -> [Float] {
        guard channels > 1 else { return frames }
        let count = frames.count / channels
        return (0..<count).map { frame in
            var sum: Float = 0
            for channel in 0..<channels { sum += frames[frame * channels + channel] }
            return sum / Float(channels)
        }
    }

    /// `frames` frames of B (mono) at A's rate, mapped onto A by `model`, from near A's frame
    /// `start`, and the A frame (fractional, by the model) its first sample lies at.
    private func stretchOfB(from start: Int64, frames: Int, model: Alignment) throws(SignalPathError) -> ([Float], Double) {
        if rateA == rateB && model.drift == 0 {
            let first = start + Int64(model.delay.rounded())
            return (mono(try b.excerpt(first..<first + Int64(frames)), channels: b.channels), Double(first) - model.delay)
        }
        let perFrame = rateB / rateA, stretch = 1 + model.drift
        func frameOfB(_ frameOfA: Int64) -> Double { (Double(frameOfA) * stretch + model.delay) * perFrame }
        // Lead-in and tail for the resampler's filter, so that the kept part is clear of its edges.
        let margin = 4096
        let firstB = Int64(frameOfB(start).rounded(.down)) - Int64(margin)
        let lastB = Int64(frameOfB(start + Int64(frames)).rounded(.up)) + Int64(margin)
        let input = mono(try b.excerpt(firstB..<lastB), channels: b.channels)
        let resampler = try Resampler(inputRate: rateB, outputRate: rateA / stretch, channels: 1)
        var output: [Float] = []
        input.withUnsafeBufferPointer { resampler.process($0, appendingTo: &output) }
        resampler.flush(appendingTo: &output)
        // Output sample j is B's frame firstB + j · stretch · perFrame: the model's A frame origin + j.
        let originOfOutput = (Double(firstB) / perFrame - model.delay) / stretch
        let skip = max(0, Int((Double(start) - originOfOutput).rounded(.up)))
        var kept = Array(output.dropFirst(skip).prefix(frames))
        kept.append(contentsOf: repeatElement(0, count: frames - kept.count))
        return (kept, originOfOutput + Double(skip))
    }

    static func transformSize(_ frames: Int) -> Int {
        var size = 1024
        while size < frames { size *= 2 }
        return size
    }

    /// c[k] = Σₙ first[n] · second[n + k] for k in 0…second.count − first.count, band-limited to
    /// 20 Hz … `bandEdge` (scaled by `size`, FFTW's convention).
    private func crossCorrelation(_ first: [Float], _ second: [Float], size: Int) -> [Double] {
        let transform = RealFFT(size: size)
        var spectrumA = [Float](repeating: 0, count: size + 2)
        transform.transform { input in
            for index in 0..<size { input[index] = index < first.count ? first[index] : 0 }
        }
        transform.withLastSpectrum { for index in 0..<size + 2 { spectrumA[index] = $0[index] } }
        var cross = [Double](repeating: 0, count: size + 2)
        transform.transform { input in
            for index in 0..<size { input[index] = index < second.count ? second[index] : 0 }
        }
        let binWidth = rateA / Double(size)
        let low = Int((20 / binWidth).rounded(.up)), high = Int((bandEdge / binWidth).rounded(.down))
        transform.withLastSpectrum { spectrumB in
            for bin in max(1, low)...min(size / 2, high) {
                // conj(A) · B: the correlation of A against B shifted later.
                let ar = Double(spectrumA[2 * bin]), ai = Double(spectrumA[2 * bin + 1])
                let br = Double(spectrumB[2 * bin]), bi = Double(spectrumB[2 * bin + 1])
                cross[2 * bin] = ar * br + ai * bi
                cross[2 * bin + 1] = ar * bi - ai * br
            }
        }
        return RealFFT.inverse(cross, size: size)
    }

    /// The fraction of a sample by which `second` lags `first` (already matched to the sample),
    /// from the phase slope of their averaged cross-spectrum in the band; the gain of `second`
    /// over `first` there (signed), and the band's energy as the excerpt's weight.
    private func refine(_ first: [Float], _ second: [Float], inverted: Bool) -> (fraction: Double, gain: Double, weight: Double) {
        let segment = min(Self.segmentFrames, first.count)
        let window = WindowTable.shared(.hann, size: segment).coefficients
        let transform = RealFFT(size: Self.transformSize(segment))
        let bins = transform.size / 2 + 1
        var cross = [Double](repeating: 0, count: 2 * bins)
        var powerA = [Double](repeating: 0, count: bins)
        var spectrumA = [Float](repeating: 0, count: 2 * bins)
        var start = 0
        while start + segment <= first.count {
            transform.transform { input in
                for index in 0..<transform.size { input[index] = index < segment ? first[start + index] * window[index] : 0 }
            }
            transform.withLastSpectrum { for index in 0..<2 * bins { spectrumA[index] = $0[index] } }
            transform.transform { input in
                for index in 0..<transform.size { input[index] = index < segment ? second[start + index] * window[index] : 0 }
            }
            transform.withLastSpectrum { spectrumB in
                for bin in 0..<bins {
                    let ar = Double(spectrumA[2 * bin]), ai = Double(spectrumA[2 * bin + 1])
                    let br = Double(spectrumB[2 * bin]), bi = Double(spectrumB[2 * bin + 1])
                    // B · conj(A): phase −ω·δ for B = A delayed by δ.
                    cross[2 * bin] += br * ar + bi * ai
                    cross[2 * bin + 1] += bi * ar - br * ai
                    powerA[bin] += ar * ar + ai * ai
                }
            }
            start += max(1, segment / 2)
        }
        let binWidth = rateA / Double(transform.size)
        let band = max(1, Int((20 / binWidth).rounded(.up)))...min(bins - 1, Int((bandEdge / binWidth).rounded(.down)))
        let sign = inverted ? -1.0 : 1.0
        var fraction = 0.0
        // Twice: the second fit measures what the first left, whose phases are small everywhere.
        for _ in 0..<2 {
            var numerator = 0.0, denominator = 0.0
            for bin in band {
                let omega = 2 * Double.pi * Double(bin) / Double(transform.size)
                let re = sign * cross[2 * bin], im = sign * cross[2 * bin + 1]
                // Take out the fraction found so far: multiply by e^{+iωδ}.
                let c = cos(omega * fraction), s = sin(omega * fraction)
                let phase = atan2(im * c + re * s, re * c - im * s)
                let weight = (re * re + im * im).squareRoot()
                numerator += weight * omega * phase
                denominator += weight * omega * omega
            }
            guard denominator > 0 else { break }
            fraction -= numerator / denominator
        }
        var inPhase = 0.0, energy = 0.0
        for bin in band {
            let omega = 2 * Double.pi * Double(bin) / Double(transform.size)
            inPhase += cross[2 * bin] * cos(omega * fraction) - cross[2 * bin + 1] * sin(omega * fraction)
            energy += powerA[bin]
        }
        return (fraction, energy > 0 ? inPhase / energy : 0, energy)
    }
}
