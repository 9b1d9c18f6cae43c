/// The averaged spectrum of a range of a file, per channel, with everything that states its
/// conventions: window, FFT size, bin width, overlap, segments averaged.
///
/// Holds the combined |X[k]|² of the raw FFT (mean, max, min or median over segments); `values(in:)`
/// turns them into a scale.
public struct PowerSpectrum: Sendable {
    public var path: String
    /// The stream analysed, when reports name it (`AudioFile.namedStream`).
    public var stream: AudioStream?
    public var sampleRate: Int
    /// The frames analysed.
    public var frames: Range<Int64>
    /// The parameters actually used (the window shrinks to a range shorter than it).
    public var parameters: SpectrumParameters
    /// Σw and Σw² of the window.
    public var windowSum: Double
    public var windowSumOfSquares: Double
    /// Segments combined.
    public var segments: Int
    public var channelNames: [String]
    /// Combined |X[k]|² per channel, for bins 0...fftSize/2.
    public var power: [[Double]]

    public var binCount: Int { parameters.fftSize / 2 + 1 }
    /// Hz between bins: fs / fftSize.
    public var binWidth: Double { Double(sampleRate) / Double(parameters.fftSize) }
    public func frequency(ofBin bin: Int) -> Double { Double(bin) * binWidth }
    public var frequencies: [Double] { (0..<binCount).map(frequency(ofBin:)) }

    /// The window's coherent gain, Σw / N.
    public var coherentGain: Double { windowSum / Double(parameters.windowSize) }
    /// Equivalent noise bandwidth in Hz: fs·Σw²/(Σw)².
    public var enbwHertz: Double { Double(sampleRate) * windowSumOfSquares / (windowSum * windowSum) }
    /// Equivalent noise bandwidth in bins of the FFT (zero-padding widens it in bins).
    public var enbwBins: Double { enbwHertz / binWidth }

    public var startSeconds: Double { Double(frames.lowerBound) / Double(sampleRate) }
    public var endSeconds: Double { Double(frames.upperBound) / Double(sampleRate) }

    /// True for the bins that have a mirror image (all but DC and, for even sizes, Nyquist): they
    /// count twice in a single-sided spectrum.
    func isDoubled(bin: Int) -> Bool { bin != 0 && bin != parameters.fftSize / 2 }

    /// Mean square (in FS², a full-scale sine = 0.5) per bin from |X|²: what `power` scale shows
    /// in linear units, and what weighting, smoothing and bands work on.
    public func meanSquare() -> [[Double]] {
        let norm = 1 / (windowSum * windowSum)
        return power.map { channel in
            channel.enumerated().map { bin, value in value * norm * (isDoubled(bin: bin) ? 2 : 1) }
        }
    }

    /// Converts mean-square values (as `meanSquare()` gives) to `scale`; −∞ dB where there is no
    /// power at all (digital silence).
    public func values(fromMeanSquare meanSquare: [[Double]], in scale: SpectrumScale) -> [[Double]] {
        powers(fromMeanSquare: meanSquare, in: scale).map { channel in
            channel.map { linear in scale == .linear ? linear.squareRoot() : 10 * log10(linear) }
        }
    }

    /// The power quantity whose 10·log10 is `values(in: scale)` (for `.linear`, whose square root
    /// it is), per channel and bin. A picture that shows the largest of several bins takes it
    /// here and converts only that one: the logarithm is monotonic, and it was a tenth of the
    /// time of a spectrogram chart when taken for every bin.
    public func powers(in scale: SpectrumScale) -> [[Double]] {
        // One pass, the same products as meanSquare() then powers(fromMeanSquare:) in the same
        // order (so the same values), without the array between them: a spectrogram chart asks
        // for one per frame.
        let norm = 1 / (windowSum * windowSum), factor = linearFactor(scale)
        return power.map { channel in
            channel.enumerated().map { bin, value in
                let doubled = isDoubled(bin: bin)
                return value * norm * (doubled ? 2 : 1) * (doubled || scale == .psd ? factor : 1)
            }
        }
    }

    /// Mean square → the scale's linear quantity, for the bins a single-sided spectrum doubles.
    private func linearFactor(_ scale: SpectrumScale) -> Double {
        switch scale {
        case .dbfs, .linear: return 2  // amplitude² of a sine: A² = 2 · mean square
        case .power: return 1
        case .psd: return (windowSum * windowSum) / (windowSumOfSquares * Double(sampleRate))
        }
    }

    private func powers(fromMeanSquare meanSquare: [[Double]], in scale: SpectrumScale) -> [[Double]] {
        let factor = linearFactor(scale)
        return meanSquare.map { channel in
            // DC and Nyquist are not doubled in a single-sided spectrum, and a DC offset d reads d.
            channel.enumerated().map { bin, value in value * (isDoubled(bin: bin) || scale == .psd ? factor : 1) }
        }
    }

    /// The spectrum in `scale`, per channel and bin.
    public func values(in scale: SpectrumScale) -> [[Double]] {
        values(fromMeanSquare: meanSquare(), in: scale)
    }
}

/// Building a spectrum from segments: the one place where summed |X|² and a segment count become
/// a `PowerSpectrum` (spectrum, analyze and spectrogram all come here).
extension PowerSpectrum {
    /// `segments` segments a hop apart from `firstFrame`, combined into `power` (per channel and
    /// bin): the frames they cover and the window's sums follow from `parameters`.
    init(
        path: String, sampleRate: Int, parameters: SpectrumParameters, channelNames: [String], firstFrame: Int64, segments: Int,
        power: [[Double]]
    ) {
        let window = WindowTable.shared(parameters.window, size: parameters.windowSize)
        // The span the segments cover: trailing frames short of a whole segment are not analysed.
        let span = Int64(segments - 1) * Int64(parameters.hop) + Int64(parameters.windowSize)
        self.init(
            path: path, sampleRate: sampleRate, frames: firstFrame..<firstFrame + span, parameters: parameters,
            windowSum: window.sum, windowSumOfSquares: window.sumOfSquares, segments: segments, channelNames: channelNames, power: power)
    }

    /// The mean power of `segments` segments a hop apart from `firstFrame`, from the sums of their
    /// |X|² (`summedPower`: channel after channel, `fftSize / 2 + 1` bins each).
    init(
        path: String, sampleRate: Int, parameters: SpectrumParameters, channelNames: [String], firstFrame: Int64, segments: Int,
        summedPower sums: [Double]
    ) {
        self.init(
            path: path, sampleRate: sampleRate, parameters: parameters, channelNames: channelNames, firstFrame: firstFrame, segments: segments,
            power: Self.meanPower(summed: sums, channels: channelNames.count, segments: segments))
    }

    /// Per channel and bin, the mean of `segments` segments' |X|² from their sums (channel after
    /// channel, the same number of bins each).
    static func meanPower(summed sums: [Double], channels: Int, segments: Int) -> [[Double]] {
        precondition(channels > 0 && sums.count % channels == 0)
        let bins = sums.count / channels
        return (0..<channels).map { channel in sums[channel * bins..<(channel + 1) * bins].map { $0 / Double(segments) } }
    }
}
