/// The sums `compare` keeps over its pass, piece by piece in order: per channel Σa², Σab, Σb², Σr²
/// of A, B (aligned, divided by its gain) and the residual r = a − b; the residual's peak; its
/// energy per second; and Welch spectra (Hann, `segmentFrames` points) of the three signals'
/// channel means, from segments spread evenly over the overlap.
struct ResidualAccumulator {
    let channels: Int
    let sampleRate: Int
    let inverseGain: Float
    private var sumAA: [Double], sumAB: [Double], sumBB: [Double], sumRR: [Double]
    private var peak: Float = 0
    private var secondEnergy: [Double] = []
    private var secondSamples: [Int] = []
    private var framesSeen = 0
    // Spectra.
    private let transform: RealFFT
    private let window: WindowTable
    /// Segments start every `segmentHop` frames of the overlap (whole segments within a piece).
    private let segmentHop: Int
    private var powers: [[Double]]
    private var segments = 0
    private var scratch: [Float]
    /// One segment of a signal's channel mean, windowed.
    private var segment: [Float]

    init(channels: Int, sampleRate: Int, inverseGain: Float, totalFrames: Int, segmentFrames: Int, maximumSegments: Int) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.inverseGain = inverseGain
        sumAA = Array(repeating: 0, count: channels)
        (sumAB, sumBB, sumRR) = (sumAA, sumAA, sumAA)
        transform = RealFFT(size: segmentFrames)
        window = WindowTable.shared(.hann, size: segmentFrames)
        // Half-overlapping segments, or fewer, further apart, when there would be too many.
        let hop = segmentFrames / 2
        segmentHop = max(hop, ((totalFrames / maximumSegments) + hop - 1) / hop * hop)
        powers = Array(repeating: Array(repeating: 0, count: segmentFrames / 2 + 1), count: 3)
        scratch = Array(repeating: 0, count: segmentFrames / 2 + 1)
        segment = Array(repeating: 0, count: segmentFrames)
    }

    /// Adds `frames` interleaved frames of A and of B (aligned, not yet divided by the gain).
    mutating func add(a: [Float], b: [Float], frames: Int) {
        addSums(a: a, b: b, frames: frames)
        addSpectra(a: a, b: b, frames: frames)
        framesSeen += frames
    }

    /// The sums, the peak and the energy per second, in blocks that do not cross a second's edge,
    /// summed in Float lanes, then added in Double.
    private mutating func addSums(a: [Float], b: [Float], frames: Int) {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var block = 0
                while block < frames {
                    let second = (framesSeen + block) / sampleRate
                    let blockEnd = min(frames, block + 1024, (second + 1) * sampleRate - framesSeen)
                    if secondEnergy.count <= second {
                        secondEnergy.append(0)
                        secondSamples.append(0)
                    }
                    let energy =
                        8 % channels == 0
                        ? addInLanes(a, b, samples: block * channels..<blockEnd * channels) : addByChannel(a, b, frames: block..<blockEnd)
                    secondEnergy[second] += energy
                    secondSamples[second] += (blockEnd - block) * channels
                    block = blockEnd
                }
            }
        }
    }

    /// One block's interleaved `samples` when the channels divide eight: eight lanes over the
    /// run, lane l always holding channel l % channels. Returns the residual's energy.
    private mutating func addInLanes(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>, samples: Range<Int>) -> Double {
        let scale = inverseGain
        var energy: Double = 0
        var aa = SIMD8<Float>(repeating: 0), ab = aa, bb = aa, rr = aa, largest = aa
        var index = samples.lowerBound
        let end = samples.upperBound
        while index + 8 <= end {
            let x = UnsafeRawPointer(a.baseAddress! + index).loadUnaligned(as: SIMD8<Float>.self)
            let y = UnsafeRawPointer(b.baseAddress! + index).loadUnaligned(as: SIMD8<Float>.self) * scale
            let r = x - y
            aa += x * x
            ab += x * y
            bb += y * y
            let square = r * r
            rr += square
            // The largest r², by a lane mask: pointwiseMax is not inlined.
            largest.replace(with: square, where: square .> largest)
            index += 8
        }
        for lane in 0..<8 {
            let channel = lane % channels
            sumAA[channel] += Double(aa[lane])
            sumAB[channel] += Double(ab[lane])
            sumBB[channel] += Double(bb[lane])
            sumRR[channel] += Double(rr[lane])
            energy += Double(rr[lane])
        }
        peak = max(peak, largest.max().squareRoot())
        while index < end {
            let x = a[index], y = b[index] * scale, r = x - y
            let channel = index % channels
            sumAA[channel] += Double(x * x)
            sumAB[channel] += Double(x * y)
            sumBB[channel] += Double(y * y)
            sumRR[channel] += Double(r * r)
            energy += Double(r * r)
            peak = max(peak, abs(r))
            index += 1
        }
        return energy
    }

    /// One block of `frames` when the channels do not divide eight: channel by channel, striding
    /// over the interleaved frames. Returns the residual's energy.
    private mutating func addByChannel(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>, frames: Range<Int>) -> Double {
        let scale = inverseGain
        var energy: Double = 0
        for channel in 0..<channels {
            var aa: Float = 0, ab: Float = 0, bb: Float = 0, rr: Float = 0
            var largest: Float = 0
            var index = frames.lowerBound * channels + channel
            for _ in frames {
                let x = a[index], y = b[index] * scale, r = x - y
                aa += x * x
                ab += x * y
                bb += y * y
                rr += r * r
                largest = max(largest, abs(r))
                index += channels
            }
            sumAA[channel] += Double(aa)
            sumAB[channel] += Double(ab)
            sumBB[channel] += Double(bb)
            sumRR[channel] += Double(rr)
            energy += Double(rr)
            peak = max(peak, largest)
        }
        return energy
    }

    /// The Welch spectra: each segment that starts in these `frames` (and lies whole in them).
    private mutating func addSpectra(a: [Float], b: [Float], frames: Int) {
        let scale = inverseGain
        for segmentStart in segmentsStarting(in: framesSeen..<framesSeen + frames) {
            let offset = segmentStart - framesSeen
            for signal in 0..<3 {
                // The channels' mean of A (0), of B divided by the gain (1) or of the residual (2), windowed.
                let share = 1 / Float(channels)
                let coefficients = window.coefficients
                segment.withUnsafeMutableBufferPointer { segment in
                    a.withUnsafeBufferPointer { a in
                        b.withUnsafeBufferPointer { b in
                            for index in 0..<segment.count {
                                var x: Float = 0, y: Float = 0
                                let first = (offset + index) * channels
                                for channel in 0..<channels {
                                    x += a[first + channel]
                                    y += b[first + channel]
                                }
                                let value = signal == 0 ? x : signal == 1 ? y * scale : x - y * scale
                                segment[index] = value * share * coefficients[index]
                            }
                        }
                    }
                }
                transform.powerSpectrum(into: &scratch) { input in
                    for index in 0..<input.count { input[index] = segment[index] }
                }
                for bin in 0..<scratch.count { powers[signal][bin] += Double(scratch[bin]) }
            }
            segments += 1
        }
    }

    /// The starts (in frames of the overlap) of the segments that lie whole in `frames`.
    private func segmentsStarting(in frames: Range<Int>) -> [Int] {
        var first = (frames.lowerBound + segmentHop - 1) / segmentHop * segmentHop
        var starts: [Int] = []
        while first + transform.size <= frames.upperBound {
            starts.append(first)
            first += segmentHop
        }
        return starts
    }

    func result(startSeconds: Double) -> SignalComparison.Residual {
        let samples = Double(framesSeen * channels)
        let aa = sumAA.reduce(0, +), ab = sumAB.reduce(0, +), bb = sumBB.reduce(0, +), rr = sumRR.reduce(0, +)
        let seconds = zip(secondEnergy, secondSamples).enumerated().map { second, pair in
            SignalComparison.Second(startSeconds: startSeconds + Double(second), rmsDBFS: Self.dbfs(meanSquare: pair.0 / Double(max(1, pair.1))))
        }
        let worst = seconds.enumerated().sorted { ($0.element.rmsDBFS, -$0.offset) > ($1.element.rmsDBFS, -$1.offset) }.prefix(5).map(\.element)
        return SignalComparison.Residual(
            overlapStartSeconds: startSeconds, overlapSeconds: Double(framesSeen) / Double(sampleRate),
            rmsDBFS: Self.dbfs(meanSquare: rr / samples), peakDBFS: 20 * log10(Double(peak)), levelADBFS: Self.dbfs(meanSquare: aa / samples),
            nullDepthDB: 10 * log10(aa / rr), correlation: aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0,
            channelRMSDBFS: sumRR.map { Self.dbfs(meanSquare: $0 / Double(framesSeen)) }, bands: bands(), secondRMSDBFS: seconds.map(\.rmsDBFS),
            worstSeconds: Array(worst))
    }

    static func dbfs(meanSquare: Double) -> Double { 10 * log10(meanSquare) }

    /// Third-octave band levels of the three spectra (mean square per bin, as `PowerSpectrum` scales it).
    private func bands() -> [SignalComparison.Band] {
        guard segments > 0 else { return [] }
        let size = transform.size
        let norm = 1 / (window.sum * window.sum * Double(segments))
        let meanSquares = powers.map { power in
            power.enumerated().map { bin, value in value * norm * (bin == 0 || bin == size / 2 ? 1 : 2) }
        }
        let binWidth = Double(sampleRate) / Double(size)
        let enbw = window.enbwBins
        return OctaveBand.bands(fraction: 3, upTo: Double(sampleRate) / 2).map { band in
            let levels = meanSquares.map { Self.dbfs(meanSquare: band.meanSquare(of: $0, binWidth: binWidth, enbwBins: enbw)) }
            return SignalComparison.Band(centreHz: band.centre, nominalHz: band.nominal, levelADBFS: levels[0], levelBDBFS: levels[1], residualDBFS: levels[2])
        }
    }
}
