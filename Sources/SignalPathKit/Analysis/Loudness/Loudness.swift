/// Loudness by ITU-R BS.1770-4 and EBU R128 (Tech 3341 / 3342), from the K-weighted energy of
/// consecutive 100 ms sub-blocks.
///
/// Gating blocks are 400 ms (4 sub-blocks) stepping 100 ms (75 % overlap); short-term blocks are
/// 3 s (30 sub-blocks) stepping 100 ms. Only whole blocks inside the measured range count.
public struct Loudness: Sendable, Equatable {
    /// Integrated loudness in LUFS: absolute gate −70 LUFS, then relative gate 10 LU below the
    /// loudness of the blocks above the absolute gate. Nil when no block passes (silence, or
    /// shorter than 400 ms).
    public var integrated: Double?
    /// Loudness range in LU (Tech 3342): short-term values above −70 LUFS and above the relative
    /// gate 20 LU below their mean energy; the spread between their 10th and 95th percentiles.
    public var range: Double?
    /// The loudest 400 ms block (momentary loudness), ungated.
    public var momentaryMax: Double?
    /// The loudest 3 s block (short-term loudness), ungated.
    public var shortTermMax: Double?

    /// The sample rates at which loudness is measured (null outside): from 3 364 Hz, below which
    /// the K-filter's 1.68 kHz shelf lies above Nyquist and the filter is unstable, to 2 822 400 Hz
    /// (DSD64 as PCM), libebur128's limit; beyond it the filter's settling time, ~0.19 s of audio,
    /// is more frames than a chunk of the analysis.
    public static let measurableSampleRates = 3364...2_822_400

    public static let absoluteGate = -70.0
    public static let relativeGate = -10.0
    public static let rangeRelativeGate = -20.0
    public static let rangePercentiles = (low: 0.10, high: 0.95)

    /// The gating-block sizes in sub-blocks.
    static let momentarySubBlocks = 4
    static let shortTermSubBlocks = 30

    /// Loudness from `energy[j]`: Σ over channels of Gᵢ · Σ (K-weighted sample)² in sub-block j,
    /// where sub-block j holds `frames[j]` frames.
    public init(subBlockEnergy energy: [Double], subBlockFrames frames: [Int]) {
        precondition(energy.count == frames.count)
        let momentary = Self.blockLoudness(energy, frames, length: Self.momentarySubBlocks)
        let shortTerm = Self.blockLoudness(energy, frames, length: Self.shortTermSubBlocks)
        momentaryMax = momentary.map(\.loudness).max().flatMap { $0.isFinite ? $0 : nil }
        shortTermMax = shortTerm.map(\.loudness).max().flatMap { $0.isFinite ? $0 : nil }
        integrated = Self.gatedLoudness(momentary, relativeGate: Self.relativeGate)
        range = Self.loudnessRange(shortTerm)
    }

    /// The weighted mean squares of every 400 ms gating block of the sub-blocks (stepping 100 ms):
    /// what the integrated loudness gates. Several programmes' blocks pooled give the loudness of
    /// them played in a row without their joins (ReplayGain 2.0's album loudness).
    public static func gatingBlocks(subBlockEnergy energy: [Double], subBlockFrames frames: [Int]) -> [Double] {
        blockLoudness(energy, frames, length: momentarySubBlocks).map(\.meanSquare)
    }

    /// The integrated loudness of gating blocks' mean squares (`gatingBlocks`), gated as one
    /// programme; nil when none passes the gates.
    public static func integrated(gatingBlocks meanSquares: [Double]) -> Double? {
        gatedLoudness(meanSquares.map { Block(meanSquare: $0, loudness: loudness(meanSquare: $0)) }, relativeGate: relativeGate)
    }

    /// −0.691 + 10·log10(mean square), the loudness of a block's weighted mean square.
    public static func loudness(meanSquare: Double) -> Double { -0.691 + 10 * log10(meanSquare) }

    struct Block {
        var meanSquare: Double
        var loudness: Double
    }

    /// Every block of `length` sub-blocks, stepping one sub-block.
    static func blockLoudness(_ energy: [Double], _ frames: [Int], length: Int) -> [Block] {
        guard energy.count >= length else { return [] }
        var blocks: [Block] = []
        blocks.reserveCapacity(energy.count - length + 1)
        // Sums are taken afresh for each block rather than as a running sum: no drift over hours.
        for first in 0...(energy.count - length) {
            var sum = 0.0, count = 0
            for j in first..<first + length {
                sum += energy[j]
                count += frames[j]
            }
            let meanSquare = sum / Double(count)
            blocks.append(Block(meanSquare: meanSquare, loudness: loudness(meanSquare: meanSquare)))
        }
        return blocks
    }

    /// The blocks above the absolute gate and above `relativeGate` LU below their own mean.
    static func gatedBlocks(_ blocks: [Block], relativeGate: Double) -> [Block] {
        let aboveAbsolute = blocks.filter { $0.loudness > absoluteGate }
        guard !aboveAbsolute.isEmpty else { return [] }
        let mean = aboveAbsolute.reduce(0) { $0 + $1.meanSquare } / Double(aboveAbsolute.count)
        let gate = loudness(meanSquare: mean) + relativeGate
        return aboveAbsolute.filter { $0.loudness > gate }
    }

    static func gatedLoudness(_ blocks: [Block], relativeGate: Double) -> Double? {
        let gated = gatedBlocks(blocks, relativeGate: relativeGate)
        guard !gated.isEmpty else { return nil }
        return loudness(meanSquare: gated.reduce(0) { $0 + $1.meanSquare } / Double(gated.count))
    }

    static func loudnessRange(_ shortTerm: [Block]) -> Double? {
        let values = gatedBlocks(shortTerm, relativeGate: rangeRelativeGate).map(\.loudness).sorted()
        guard !values.isEmpty else { return nil }
        return percentile(values, rangePercentiles.high) - percentile(values, rangePercentiles.low)
    }

    /// Linear interpolation between closest ranks (numpy's default) of sorted values.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down)), upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// BS.1770 channel weights by position: the LFE is left out (0), the surrounds weigh +1.5 dB
    /// (1.41), every other channel 1. The surrounds are the side and back positions, at ear height
    /// or above, as ffmpeg's ebur128 filter counts them: BS.1770-4 asks 1.41 for 60°–120° of
    /// azimuth, which the back channels of 5.1 in WAV order (Ls, Rs) stand for.
    public static func channelWeights(layout: ChannelLayout) -> [Double] {
        layout.positions.map { position in
            switch position {
            case .lowFrequency: return 0
            case .sideLeft, .sideRight, .backLeft, .backRight, .backCenter, .topBackLeft, .topBackCenter, .topBackRight: return 1.41
            default: return 1
            }
        }
    }
}
