import SignalPathAVX2

/// One segment's trip through the FFT: a channel (or the mix of all) of interleaved frames,
/// windowed and zero-padded, transformed, left as |X[k]|² in `power`.
///
/// Owns its FFT buffers and scratch, made once; transforming allocates nothing. Not Sendable: one
/// worker owns it.
public final class SegmentTransform {
    private let fft: RealFFT
    private let window: [Float]
    /// The window times 2^-15, for 16-bit samples windowed as they lie in the file: exact (a power
    /// of two), so each product is the one that converting first (x · 2^-15, also exact) and then
    /// windowing rounds.
    private lazy var int16Window: [Float] = window.map { $0 * 0x1p-15 }
    /// |X[k]|² of the last transform, bins 0...fftSize/2.
    public private(set) var power: [Float]

    public init(fftSize: Int, window: WindowTable) {
        fft = RealFFT(size: fftSize)
        self.window = window.coefficients
        power = [Float](repeating: 0, count: fftSize / 2 + 1)
    }

    public var binCount: Int { fft.binCount }

    /// Where a transform's power goes besides `power`: added to `sums` (one channel's bins, as
    /// `combine(into:_:)` adds for `.mean`), and with a `band`, that band's strongest bin and power
    /// found (as `strongestBin(in:)` finds them). On processors with AVX2 the three are one pass
    /// (`PowerSpectrumAVX2`), with the same results.
    public struct Accumulation {
        let sums: UnsafeMutableBufferPointer<Double>
        let band: ClosedRange<Int>?

        public init(sums: UnsafeMutableBufferPointer<Double>, band: ClosedRange<Int>?) {
            self.sums = sums
            self.band = band
        }
    }

    /// Transforms the window-length segment that starts at frame `firstFrame` of `samples`
    /// (interleaved, `channels` per frame): channel `channel`, or with nil the mean of all
    /// channels. With `accumulation`, its power is also summed there, and the band's strongest
    /// bin and power returned.
    @discardableResult
    public func transform(
        _ samples: UnsafeBufferPointer<Float>, firstFrame: Int, channels: Int, channel: Int?, accumulating accumulation: Accumulation? = nil
    ) -> (bin: Int, power: Double)? {
        let windowSize = window.count
        let base = firstFrame * channels
        precondition(base + windowSize * channels <= samples.count)
        return window.withUnsafeBufferPointer { window in
            transformed(accumulating: accumulation) { input in
                if let channel {
                    Self.windowed(samples, from: base &+ channel, stride: channels, by: window, into: input)
                } else {
                    let scale = 1 / Float(channels)
                    for n in 0..<windowSize {
                        var sum: Float = 0
                        for c in 0..<channels { sum += samples[base &+ n &* channels &+ c] }
                        input[n] = window[n] * sum * scale
                    }
                }
                for n in windowSize..<input.count { input[n] = 0 }
            }
        }
    }

    /// Transforms what `load` puts in the FFT's input, into `power` and, with `accumulation`,
    /// into its sums.
    private func transformed(accumulating accumulation: Accumulation?, load: (UnsafeMutableBufferPointer<Float>) -> Void) -> (bin: Int, power: Double)? {
        guard let accumulation else {
            fft.powerSpectrum(into: &power, load: load)
            return nil
        }
        precondition(accumulation.sums.count >= binCount)
        if Self.wide {
            fft.transform(load: load)
            let bins = binCount
            return fft.withLastSpectrum { spectrum in
                power.withUnsafeMutableBufferPointer { power in
                    PowerSpectrumAVX2.power(
                        spectrum.baseAddress!, bins: bins, into: power.baseAddress!, adding: accumulation.sums.baseAddress!, band: accumulation.band)
                }
            }
        }
        fft.powerSpectrum(into: &power, load: load)
        combine(into: accumulation.sums, .mean)
        return accumulation.band.map { strongestBin(in: $0) }
    }

    /// Whether a transform's power, sums and strongest bin are one pass (`PowerSpectrumAVX2`).
    static let wide = ProcessorFeatures.hasX86_64_v3

    /// As `transform(_:firstFrame:channels:channel:)` for one channel of a segment's 16-bit samples
    /// as they lie in a 16-bit PCM file (interleaved, host byte order, unaligned), converted while
    /// they are windowed: the same bits as decoding them to Float first, without the decode's pass
    /// and copy (`PCMDecoder.withInt16Frames`).
    @discardableResult
    func transform(int16 samples: UnsafeRawBufferPointer, channels: Int, channel: Int, accumulating accumulation: Accumulation? = nil) -> (bin: Int, power: Double)? {
        let windowSize = window.count
        precondition(channel >= 0 && channel < channels && samples.count >= windowSize * channels * 2)
        return int16Window.withUnsafeBufferPointer { window in
            transformed(accumulating: accumulation) { input in
                Self.windowed(int16: samples.baseAddress!, channel: channel, stride: channels, by: window, into: input)
                for n in windowSize..<input.count { input[n] = 0 }
            }
        }
    }

    /// `input[n] = window[n] · Float(sample n of channel `channel`)` over interleaved 16-bit
    /// samples from `frames` on, eight frames at a time for one or two channels (two as
    /// `StereoInt16.channel(low:of:)` splits them: with every other Int16 lane taken instead,
    /// `spectrum` ran slower than decoding first; docs/DECISIONS.md#pcm16-in-place), in
    /// `SegmentWindowing`: one source, compiled here and in `WindowAVX2`.
    static func windowed(
        int16 frames: UnsafeRawPointer, channel: Int, stride: Int, by window: UnsafeBufferPointer<Float>,
        into input: UnsafeMutableBufferPointer<Float>, wide: Bool = SegmentTransform.wide
    ) {
        let count = window.count
        let target = input.baseAddress!, weights = window.baseAddress!
        let channelIsLow = (channel == 0) == (1.littleEndian == 1)
        var n =
            wide
            ? WindowAVX2.windowed(int16: frames, channelIsLow: channelIsLow, stride: stride, window: weights, count: count, into: target)
            : SegmentWindowing.windowed(int16: frames, channelIsLow: channelIsLow, stride: stride, window: weights, count: count, into: target)
        while n < count {
            target[n] = weights[n] * Float(frames.loadUnaligned(fromByteOffset: 2 &* (n &* stride &+ channel), as: Int16.self))
            n &+= 1
        }
    }

    /// `input[n] = window[n] · samples[first + n·stride]` for every n of the window. One channel of
    /// one or two is taken eight frames at a time (two interleaved channels split by a shuffle), not
    /// by the strided scalar loop (docs/DECISIONS.md#segment-loops), in `SegmentWindowing`: one
    /// source, compiled here and in `WindowAVX2`. The products are the scalar loop's, so the
    /// results are bit for bit the same.
    static func windowed(
        _ samples: UnsafeBufferPointer<Float>, from first: Int, stride: Int, by window: UnsafeBufferPointer<Float>,
        into input: UnsafeMutableBufferPointer<Float>, wide: Bool = SegmentTransform.wide
    ) {
        let count = window.count
        let source = samples.baseAddress! + first, target = input.baseAddress!, weights = window.baseAddress!
        var n =
            wide
            ? WindowAVX2.windowed(source, stride: stride, window: weights, count: count, into: target)
            : SegmentWindowing.windowed(source, stride: stride, window: weights, count: count, into: target)
        while n < count {
            target[n] = weights[n] * source[n &* stride]
            n &+= 1
        }
    }

    /// Hands `body` the last transform's complex spectrum, interleaved (re, im), bins 0...fftSize/2.
    func withSpectrum<Result>(_ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        fft.withLastSpectrum(body)
    }

    /// The bin of `bins` with the most power in the last transform (the first of equals), and the
    /// power of `bins` together.
    ///
    /// Four bins at a time, with a running maximum and sum per lane: one bin after another, each
    /// sum waited for the one before (docs/DECISIONS.md#segment-loops). The sum's order differs
    /// from a scalar loop's in the last bits of a Double.
    func strongestBin(in bins: ClosedRange<Int>) -> (bin: Int, power: Double) {
        power.withUnsafeBufferPointer { Self.strongestBin(of: $0, in: bins) }
    }

    /// `strongestBin(in:)` over the power values `power` (none negative, none NaN).
    static func strongestBin(of power: UnsafeBufferPointer<Float>, in bins: ClosedRange<Int>) -> (bin: Int, power: Double) {
        precondition(bins.lowerBound >= 0 && bins.upperBound < power.count)
        let base = power.baseAddress!
        let end = bins.upperBound + 1
        var index = bins.lowerBound
        // Power is never negative, so the first bin of each lane beats −1.
        var largest = SIMD4<Float>(repeating: -1)
        var largestAt = SIMD4<Int32>(repeating: Int32(index))
        var at = SIMD4<Int32>(0, 1, 2, 3) &+ Int32(index)
        var sums = SIMD4<Double>(repeating: 0)
        while index &+ 4 <= end {
            let value = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD4<Float>.self)
            sums += SIMD4<Double>(Double(value[0]), Double(value[1]), Double(value[2]), Double(value[3]))
            let greater = value .> largest
            largest.replace(with: value, where: greater)
            largestAt.replace(with: at, where: greater)
            at &+= 4
            index &+= 4
        }
        var strongest = bins.lowerBound, strongestPower: Float = -1
        for lane in 0..<4 where largest[lane] > strongestPower || (largest[lane] == strongestPower && Int(largestAt[lane]) < strongest) {
            strongest = Int(largestAt[lane])
            strongestPower = largest[lane]
        }
        var total = (sums[0] + sums[1]) + (sums[2] + sums[3])
        while index < end {
            total += Double(base[index])
            if base[index] > strongestPower {
                strongest = index
                strongestPower = base[index]
            }
            index &+= 1
        }
        return (strongest, total)
    }

    /// Combines the last transform's power into `values` (one channel's bins) as `averaging` does;
    /// median keeps segments apart and is not combined here.
    public func combine(into values: UnsafeMutableBufferPointer<Double>, _ averaging: Averaging) {
        power.withUnsafeBufferPointer { power in
            let bins = binCount
            switch averaging {
            case .mean:
                // Four bins per step, each the scalar loop's one addition (same results;
                // docs/DECISIONS.md#segment-loops).
                let source = power.baseAddress!, target = values.baseAddress!
                var bin = 0
                while bin &+ 4 <= bins {
                    let added = UnsafeRawPointer(source + bin).loadUnaligned(as: SIMD4<Float>.self)
                    let sums = UnsafeRawPointer(target + bin).loadUnaligned(as: SIMD4<Double>.self)
                    UnsafeMutableRawPointer(target + bin).storeBytes(of: sums + SIMD4<Double>(added), as: SIMD4<Double>.self)
                    bin &+= 4
                }
                while bin < bins {
                    target[bin] += Double(source[bin])
                    bin &+= 1
                }
            case .max: for bin in 0..<bins { values[bin] = Swift.max(values[bin], Double(power[bin])) }
            case .min: for bin in 0..<bins { values[bin] = Swift.min(values[bin], Double(power[bin])) }
            case .median: preconditionFailure("median keeps every segment's value")
            }
        }
    }
}
