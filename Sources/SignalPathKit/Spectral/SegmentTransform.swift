/// One segment's trip through the FFT: a channel (or the mix of all) of interleaved frames,
/// windowed and zero-padded, transformed, left as |X[k]|² in `power`.
///
/// Owns its FFT buffers and scratch, made once; transforming allocates nothing. Not Sendable: one
/// worker owns it.
public final class SegmentTransform {
    private let fft: RealFFT
    private let window: [Float]
    /// |X[k]|² of the last transform, bins 0...fftSize/2.
    public private(set) var power: [Float]

    public init(fftSize: Int, window: WindowTable) {
        fft = RealFFT(size: fftSize)
        self.window = window.coefficients
        power = [Float](repeating: 0, count: fftSize / 2 + 1)
    }

    public var binCount: Int { fft.binCount }

    /// Transforms the window-length segment that starts at frame `firstFrame` of `samples`
    /// (interleaved, `channels` per frame): channel `channel`, or with nil the mean of all channels.
    public func transform(_ samples: UnsafeBufferPointer<Float>, firstFrame: Int, channels: Int, channel: Int?) {
        let windowSize = window.count
        let base = firstFrame * channels
        precondition(base + windowSize * channels <= samples.count)
        window.withUnsafeBufferPointer { window in
            fft.powerSpectrum(into: &power) { input in
                if let channel {
                    for n in 0..<windowSize { input[n] = window[n] * samples[base &+ n &* channels &+ channel] }
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

    /// Hands `body` the last transform's complex spectrum, interleaved (re, im), bins 0...fftSize/2.
    func withSpectrum<Result>(_ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        fft.withLastSpectrum(body)
    }

    /// The bin of `bins` with the most power in the last transform, and the power of `bins` together.
    func strongestBin(in bins: ClosedRange<Int>) -> (bin: Int, power: Double) {
        power.withUnsafeBufferPointer { power in
            var strongest = bins.lowerBound, total = 0.0
            for bin in bins {
                total += Double(power[bin])
                if power[bin] > power[strongest] { strongest = bin }
            }
            return (strongest, total)
        }
    }

    /// Combines the last transform's power into `values` (one channel's bins) as `averaging` does;
    /// median keeps segments apart and is not combined here.
    public func combine(into values: UnsafeMutableBufferPointer<Double>, _ averaging: Averaging) {
        power.withUnsafeBufferPointer { power in
            let bins = binCount
            switch averaging {
            case .mean: for bin in 0..<bins { values[bin] += Double(power[bin]) }
            case .max: for bin in 0..<bins { values[bin] = Swift.max(values[bin], Double(power[bin])) }
            case .min: for bin in 0..<bins { values[bin] = Swift.min(values[bin], Double(power[bin])) }
            case .median: preconditionFailure("median keeps every segment's value")
            }
        }
    }
}
