import SignalPathAVX2

/// The stereo image of a channel pair (a two-channel file, or the front left and right of a
/// surround file): how alike the channels are, how far apart in time, and what summing them to
/// mono costs. Measured in `analyze`'s one pass (docs/ANALYZE.md, "Stereo image").
///
/// Zero-lag figures come from time-domain sums over every frame (`Sums`). The delay comes from the
/// averaged cross-spectrum of the spectrum segments the pass transforms anyway (conj(L)·R per bin,
/// two FFTs it already has), turned back into a cross-correlation by one inverse FFT at the end.
/// Rejected: a time-domain cross-correlation over ±10 ms, which costs 2·480 + 1 multiply-adds per
/// frame at 48 kHz (≈ 1000× the zero-lag sums) where the spectral route adds one complex
/// multiply-add per bin and segment.
public struct StereoImage: Sendable, Equatable {
    /// The pair's channels, 0-based.
    public var left: Int
    public var right: Int
    /// Zero-lag Pearson correlation, −1…+1; nil when a channel is constant (no variance).
    public var correlation: Double?
    /// The lag (samples, fractional) of the cross-correlation's largest magnitude within
    /// ±`searchedLag`: positive when the right channel lags the left. Nil when no lag reaches
    /// `|alignedCorrelation| ≥ alignmentThreshold` (nothing common to align).
    public var delaySamples: Double?
    /// The normalised cross-correlation at that lag, −1…+1.
    public var alignedCorrelation: Double?
    /// True when the best-aligned correlation is at or below `polarityThreshold`.
    public var polarityInverted: Bool?
    /// Left RMS over right RMS, dB; nil when either channel is digital silence.
    public var balance: Double?
    /// Level lost when summed to mono: the mean power of the channels over the power of (L + R) / 2,
    /// dB (0 for identical channels, 3.01 for independent ones of equal level); nil when the mono
    /// sum is digital silence (R = −L exactly) or both channels are.
    public var monoLoss: Double?
    /// The channels are identical to the precision of the format; nil when both are silent.
    public var monoAsStereo: Bool?
    /// The lags searched: ±this many samples (10 ms, fewer when the spectrum segment is too short
    /// for them to be measured; see `lagLimit`).
    public var searchedLag: Int

    /// The delay is searched within ±10 ms.
    public static let maximumLagSeconds = 0.01
    /// A best-aligned correlation at or below this is a polarity inversion.
    public static let polarityThreshold = -0.5
    /// Below this |correlation| at every lag there is no delay to report.
    public static let alignmentThreshold = 0.3
    /// Decimals of the delay in samples, in the search and in every output: a copy of the left
    /// channel delayed by a fraction of a sample and rounded to 16 bits reads exactly to 10⁻⁴
    /// (docs/ANALYZE.md has the figures, and how a difference between the channels widens it).
    public static let delayDecimals = 4
    /// The same step in milliseconds, to 10⁻⁶ ms (10⁻⁴ samples at up to 100 kHz).
    public static let delayMillisecondDecimals = 6
    /// Lags are searched only where the segment window's autocorrelation keeps at least this
    /// fraction of its zero-lag value (dividing by less would amplify noise).
    static let windowOverlapFloor = 0.1

    /// The pair `analyze` reports: both channels of a two-channel file, else the front left and
    /// right positions when the layout has both; nil otherwise.
    public static func pair(in layout: ChannelLayout) -> (left: Int, right: Int)? {
        if layout.channelCount == 2 { return (0, 1) }
        guard let left = layout.index(of: .frontLeft), let right = layout.index(of: .frontRight) else { return nil }
        return (left, right)
    }

    /// The largest |L − R| that still counts as identical: none for PCM and float data (identical
    /// codes decode to identical values), half a 16-bit step for lossy codecs, whose decoders
    /// round independently per channel.
    public static func identityTolerance(_ format: SampleFormat) -> Float {
        if case .compressed = format { return 1 / 65536 }
        return 0
    }

    // MARK: Sums

    /// What a chunk adds up for the pair; merged by addition in chunk order.
    struct Sums: Sendable {
        var frames: Int64 = 0
        var left = 0.0, right = 0.0
        var leftSquares = 0.0, rightSquares = 0.0
        var products = 0.0
        /// Σ ((L + R) / 2)².
        var monoSquares = 0.0
        var largestDifference: Float = 0
        /// Σ over segments of conj(X_L)·X_R, per bin 0...fftSize/2, interleaved (re, im).
        var cross: [Double]

        init(bins: Int) {
            cross = [Double](repeating: 0, count: 2 * bins)
        }

        /// Adds the frames `left` and `right` (equal lengths): eight at a time in Float within
        /// blocks of 128 frames, each block's sums then added in Double. Summing every frame in
        /// Double was slower; 16 Float terms a lane lose nothing that matters here. L = R still
        /// gives identical Σ L·R and Σ L² (the same operations in the same order), and R = −L an
        /// exactly silent mono sum. Eight lanes over 128 frames, where four took 64 (the same 16
        /// terms a lane): on AVX2 (`StereoSumsAVX2`) a register a sum, and half the reductions a
        /// frame (docs/DECISIONS.md#stereo-sums). `StereoSums` is the one source of both builds.
        mutating func add(_ left: UnsafeBufferPointer<Float>, _ right: UnsafeBufferPointer<Float>) {
            precondition(left.count == right.count)
            let count = left.count
            guard count > 0, let l = left.baseAddress, let r = right.baseAddress else { return }
            var largest = SIMD8<Float>()
            var totals: StereoSums.Totals = (self.left, self.right, leftSquares, rightSquares, products, monoSquares)
            var index = 0
            while index &+ 8 <= count {
                let (done, overflowing) =
                    Self.wide
                    ? StereoSumsAVX2.accumulate(l + index, r + index, count: count &- index, totals: &totals, largest: &largest)
                    : StereoSums.accumulate(l + index, r + index, count: count &- index, totals: &totals, largest: &largest)
                index &+= done
                guard overflowing > 0 else { break }
                // Float data may hold values whose squares overflow a Float (beyond ~1.8e19): such a
                // block is summed again in Double. (Σ L·R is bounded by Σ L² + Σ R².)
                for frame in index..<index &+ overflowing { Self.addInDouble(l[frame], r[frame], to: &totals) }
                index &+= overflowing
            }
            var largestDifference = Swift.max(
                Swift.max(Swift.max(largest[0], largest[1]), Swift.max(largest[2], largest[3])),
                Swift.max(Swift.max(largest[4], largest[5]), Swift.max(largest[6], largest[7])))
            while index < count {
                largestDifference = Swift.max(largestDifference, abs(l[index] - r[index]))
                Self.addInDouble(l[index], r[index], to: &totals)
                index &+= 1
            }
            (self.left, self.right, leftSquares, rightSquares, products, monoSquares) = totals
            frames += Int64(count)
            self.largestDifference = Swift.max(self.largestDifference, largestDifference)
        }

        /// Whether `add` runs `StereoSumsAVX2`: on processors with AVX2, where it gives the same bits
        /// with half the vector instructions.
        static let wide = ProcessorFeatures.hasX86_64_v3

        /// One frame's terms, in Double.
        private static func addInDouble(_ x: Float, _ y: Float, to totals: inout StereoSums.Totals) {
            let a = Double(x), b = Double(y)
            totals.left += a
            totals.right += b
            totals.leftSquares += a * a
            totals.rightSquares += b * b
            totals.products += a * b
            totals.mono += (a + b) * 0.5 * ((a + b) * 0.5)
        }

        /// Adds one segment's conj(X_L)·X_R, given both spectra interleaved (re, im), into `real`
        /// and `imaginary` (one Float per bin: a chunk's segments are summed there, four bins at a
        /// time, and the chunk's total added to `cross` in Double by `addCross(real:imaginary:)`;
        /// a Double per bin and segment cost as much again as the zero-lag sums).
        static func accumulateCross(
            _ left: UnsafeBufferPointer<Float>, _ right: UnsafeBufferPointer<Float>, real: UnsafeMutableBufferPointer<Float>,
            imaginary: UnsafeMutableBufferPointer<Float>
        ) {
            let bins = real.count
            let l = UnsafeRawPointer(left.baseAddress!), r = UnsafeRawPointer(right.baseAddress!)
            let re = UnsafeMutableRawPointer(real.baseAddress!), im = UnsafeMutableRawPointer(imaginary.baseAddress!)
            var bin = 0
            while bin &+ 4 <= bins {
                let a = l.loadUnaligned(fromByteOffset: bin &* 8, as: SIMD8<Float>.self)
                let b = r.loadUnaligned(fromByteOffset: bin &* 8, as: SIMD8<Float>.self)
                // Four bins' real and imaginary parts apart (the same shuffles as the stereo
                // deinterleave); (ar − j·ai)(br + j·bi) = ar·br + ai·bi + j·(ar·bi − ai·br).
                let ar = a.evenHalf, ai = a.oddHalf, br = b.evenHalf, bi = b.oddHalf
                let realPart = re.loadUnaligned(fromByteOffset: bin &* 4, as: SIMD4<Float>.self) + ar * br + ai * bi
                let imaginaryPart = im.loadUnaligned(fromByteOffset: bin &* 4, as: SIMD4<Float>.self) + ar * bi - ai * br
                re.storeBytes(of: realPart, toByteOffset: bin &* 4, as: SIMD4<Float>.self)
                im.storeBytes(of: imaginaryPart, toByteOffset: bin &* 4, as: SIMD4<Float>.self)
                bin &+= 4
            }
            while bin < bins {
                let ar = left[2 &* bin], ai = left[2 &* bin &+ 1], br = right[2 &* bin], bi = right[2 &* bin &+ 1]
                real[bin] += ar * br + ai * bi
                imaginary[bin] += ar * bi - ai * br
                bin &+= 1
            }
        }

        /// Adds a chunk's summed cross-spectrum (from `accumulateCross`) in Double.
        mutating func addCross(real: UnsafeBufferPointer<Float>, imaginary: UnsafeBufferPointer<Float>) {
            for bin in 0..<real.count {
                cross[2 &* bin] += Double(real[bin])
                cross[2 &* bin &+ 1] += Double(imaginary[bin])
            }
        }

        mutating func merge(_ other: Sums) {
            frames += other.frames
            left += other.left
            right += other.right
            leftSquares += other.leftSquares
            rightSquares += other.rightSquares
            products += other.products
            monoSquares += other.monoSquares
            largestDifference = Swift.max(largestDifference, other.largestDifference)
            for index in cross.indices { cross[index] += other.cross[index] }
        }
    }

    // MARK: Result

    /// The image from the pass's totals: `sums`, the channels' summed segment power (bins
    /// 0...fftSize/2 each), and the segments' window.
    init(
        left: Int, right: Int, sums: Sums, leftPower: ArraySlice<Double>, rightPower: ArraySlice<Double>,
        window: WindowTable, fftSize: Int, sampleRate: Int, identityTolerance: Float
    ) {
        self.left = left
        self.right = right
        let n = Double(max(1, sums.frames))
        let meanL = sums.left / n, meanR = sums.right / n
        let varianceL = sums.leftSquares / n - meanL * meanL, varianceR = sums.rightSquares / n - meanR * meanR
        if varianceL > 0 && varianceR > 0 {
            correlation = Swift.min(1, Swift.max(-1, (sums.products / n - meanL * meanR) / (varianceL * varianceR).squareRoot()))
        }
        if sums.leftSquares > 0 && sums.rightSquares > 0 { balance = 10 * log10(sums.leftSquares / sums.rightSquares) }
        let stereoPower = (sums.leftSquares + sums.rightSquares) / 2
        if stereoPower > 0 && sums.monoSquares > 0 { monoLoss = 10 * log10(stereoPower / sums.monoSquares) }
        if stereoPower > 0 { monoAsStereo = sums.largestDifference <= identityTolerance }

        let lagAutocorrelation = Self.sharedWindowAutocorrelation(window, upTo: Self.lagLimit(sampleRate: sampleRate, fftSize: fftSize))
        searchedLag = lagAutocorrelation.count - 1
        let aligned = Self.align(cross: sums.cross, leftPower: leftPower, rightPower: rightPower, fftSize: fftSize, windowOverlap: lagAutocorrelation)
        if let aligned {
            alignedCorrelation = aligned.correlation
            polarityInverted = aligned.correlation <= Self.polarityThreshold
            if abs(aligned.correlation) >= Self.alignmentThreshold { delaySamples = aligned.lag }
        }
    }

    /// ±10 ms in samples, but under half the FFT size (lags past it wrap around).
    static func lagLimit(sampleRate: Int, fftSize: Int) -> Int {
        max(0, min(Int((Double(sampleRate) * maximumLagSeconds).rounded()), fftSize / 2 - 1))
    }

    /// By the window's name and size, as `WindowTable.shared` keeps tables, rather than by hashing
    /// the coefficients themselves (docs/DECISIONS.md#window-tables).
    private struct AutocorrelationKey: Hashable {
        var window: String
        var size: Int
        var limit: Int
    }
    private static let autocorrelations = ProcessCache<AutocorrelationKey, [Double]>()

    /// `windowAutocorrelation`, made once per process for each window and limit: `scan` measures
    /// file after file with the same window (docs/DECISIONS.md#window-tables).
    static func sharedWindowAutocorrelation(_ window: WindowTable, upTo limit: Int) -> [Double] {
        autocorrelations.value(for: AutocorrelationKey(window: window.window.name, size: window.size, limit: limit)) {
            windowAutocorrelation(window.coefficients, upTo: limit)
        }
    }

    /// Σ w(n)·w(n+τ) for τ in 0...limit, stopping where it falls below `windowOverlapFloor` of its
    /// zero-lag value: the expected cross-correlation of windowed segments at lag τ is this times
    /// the signals' own. Summed directly, eight Float products at a time (the precision of the
    /// Float |W|²-by-FFT route it replaced, for less work than that route's planning or a sum in
    /// Double; docs/DECISIONS.md#window-tables).
    static func windowAutocorrelation(_ window: [Float], upTo limit: Int) -> [Double] {
        var values: [Double] = []
        window.withUnsafeBufferPointer { w in
            guard let base = w.baseAddress else { return }
            for lag in 0...min(limit, max(0, w.count - 1)) {
                let count = w.count - lag
                var sums = SIMD8<Float>()
                var index = 0
                while index + 8 <= count {
                    let near = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD8<Float>.self)
                    let far = UnsafeRawPointer(base + index + lag).loadUnaligned(as: SIMD8<Float>.self)
                    sums += near * far
                    index += 8
                }
                var value = 0.0
                for lane in 0..<8 { value += Double(sums[lane]) }
                while index < count {
                    value += Double(w[index]) * Double(w[index + lag])
                    index += 1
                }
                if let first = values.first, value < windowOverlapFloor * first { break }
                values.append(value)
            }
        }
        return values
    }

    /// The lag of the largest |normalised cross-correlation| within ±(windowOverlap.count − 1),
    /// refined between samples by band-limited interpolation of the correlation (its sum over
    /// bins at a fractional lag), and the correlation there. DC is left out, as Pearson's
    /// correlation subtracts the means. Nil when either channel's power is zero.
    static func align(
        cross: [Double], leftPower: ArraySlice<Double>, rightPower: ArraySlice<Double>, fftSize: Int, windowOverlap: [Double]
    ) -> (lag: Double, correlation: Double)? {
        let bins = fftSize / 2 + 1
        guard !windowOverlap.isEmpty, cross.count == 2 * bins else { return nil }
        // Full-spectrum power without DC: each inner bin stands for itself and its mirror.
        func power(_ values: ArraySlice<Double>) -> Double {
            var total = 0.0
            for bin in 1..<bins { total += (bin == bins - 1 ? 1 : 2) * values[values.startIndex + bin] }
            return total
        }
        let scale = (power(leftPower) * power(rightPower)).squareRoot()
        guard scale > 0 else { return nil }
        var spectrum = cross
        spectrum[0] = 0
        spectrum[1] = 0
        let correlation = RealFFT.inverse(spectrum, size: fftSize)
        let maximumLag = windowOverlap.count - 1
        func normalised(_ value: Double, lag: Double) -> Double {
            // The window's overlap between whole lags, linearly: it is smooth at this scale.
            let magnitude = Swift.min(abs(lag), Double(maximumLag))
            let lower = Int(magnitude), upper = Swift.min(lower + 1, maximumLag)
            let fraction = magnitude - Double(lower)
            let overlap = windowOverlap[lower] * (1 - fraction) + windowOverlap[upper] * fraction
            return value * windowOverlap[0] / overlap / scale
        }
        var best = 0, bestValue = normalised(correlation[0], lag: 0)
        for lag in -maximumLag...maximumLag where lag != 0 {
            let value = normalised(correlation[(lag + fftSize) % fftSize], lag: Double(lag))
            if abs(value) > abs(bestValue) {
                best = lag
                bestValue = value
            }
        }
        // Between samples: golden-section search of |ρ| within a sample either side.
        let sign = bestValue < 0 ? -1.0 : 1.0
        func at(_ lag: Double) -> Double {
            normalised(Self.correlation(spectrum, fftSize: fftSize, at: lag), lag: lag) * sign
        }
        var low = Double(max(best - 1, -maximumLag)), high = Double(min(best + 1, maximumLag))
        let ratio = (5.0.squareRoot() - 1) / 2
        var a = high - ratio * (high - low), b = low + ratio * (high - low)
        var valueA = at(a), valueB = at(b)
        let resolution = pow(10, -Double(delayDecimals))
        for _ in 0..<40 where high - low > resolution {
            if valueA > valueB {
                high = b
                b = a
                valueB = valueA
                a = high - ratio * (high - low)
                valueA = at(a)
            } else {
                low = a
                a = b
                valueA = valueB
                b = low + ratio * (high - low)
                valueB = at(b)
            }
        }
        let refined = (low + high) / 2
        let refinedValue = at(refined)
        // Keep the whole lag when interpolation finds nothing higher (an exact whole-sample delay,
        // or a flat peak): rounding alone must not move it. Lags to `delayDecimals`.
        guard refinedValue > bestValue * sign * (1 + 1e-9) else { return (Double(best), Swift.min(1, Swift.max(-1, bestValue))) }
        return ((refined / resolution).rounded() * resolution, Swift.min(1, Swift.max(-1, refinedValue * sign)))
    }

    /// The circular cross-correlation of a real spectrum (bins 0...fftSize/2, interleaved) at a
    /// fractional lag, on the scale of `RealFFT.inverse`: X₀ + 2·Σ Re(X_k·e^{j2πkτ/N}) +
    /// X_{N/2}·cos(πτ).
    ///
    /// Four bins at a time, each lane's phasor turned by e^{j4θ}: one phasor turned bin by bin made
    /// every step wait for the last, and the golden-section search calls this ~23 times per file
    /// (docs/DECISIONS.md#stereo-sums). The phasors are set afresh every 1024 bins so rounding
    /// cannot build up.
    static func correlation(_ spectrum: [Double], fftSize: Int, at lag: Double) -> Double {
        let bins = fftSize / 2 + 1
        let step = 2 * Double.pi * lag / Double(fftSize)
        let turnRe = cos(4 * step), turnIm = sin(4 * step)
        return spectrum.withUnsafeBufferPointer { x in
            let base = UnsafeRawPointer(x.baseAddress!)
            var sums = SIMD4<Double>(repeating: 0)
            var re = SIMD4<Double>(repeating: 0), im = SIMD4<Double>(repeating: 0)
            var bin = 1
            while bin &+ 4 <= bins &- 1 {
                if (bin &- 1) % 1024 == 0 {
                    for lane in 0..<4 {
                        re[lane] = cos(step * Double(bin &+ lane))
                        im[lane] = sin(step * Double(bin &+ lane))
                    }
                } else {
                    let nextRe = re * turnRe - im * turnIm
                    im = re * turnIm + im * turnRe
                    re = nextRe
                }
                let pairs = base.loadUnaligned(fromByteOffset: 2 &* bin &* 8, as: SIMD8<Double>.self)
                sums += pairs.evenHalf * re - pairs.oddHalf * im
                bin &+= 4
            }
            var total = x[0] + 2 * (sums[0] + sums[1] + sums[2] + sums[3])
            while bin < bins &- 1 {
                total += 2 * (x[2 &* bin] * cos(step * Double(bin)) - x[2 &* bin &+ 1] * sin(step * Double(bin)))
                bin &+= 1
            }
            return total + x[2 &* (bins &- 1)] * cos(Double.pi * lag)
        }
    }
}
