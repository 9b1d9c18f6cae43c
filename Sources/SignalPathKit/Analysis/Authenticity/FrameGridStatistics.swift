/// A lossy coder's frame grid in decoded audio: the evidence that survives when a coder kept the
/// whole band (docs/AUTHENTICITY.md, rule 7).
///
/// AAC and Vorbis code each frame as MDCT coefficients of a 2048-sample window every 1024
/// samples (Vorbis at 26 kHz and up; `Window.hop`) and switch off (quantise to zero) those under
/// the masking threshold. Decoded and
/// written as PCM, the signal analysed again with the same window on the same grid gives those
/// coefficients back as zeros plus the output's rounding; analysed anywhere else, or with another
/// window, each coefficient mixes many of the coded ones and is rarely that small. So in an
/// excerpt, the coefficients (above an eighth of the sample rate) under three standard
/// deviations of rounding are counted at each of the 1024 offsets: a coded file has one offset
/// that stands out, a genuine one has none. The **excess** is how far the best offset stands out
/// of its neighbours, minus what chance gives (`FrameGridProbe`). Each excerpt finds its own
/// offset (Vorbis moves its grid around every run of short blocks); excesses are summed.
///
/// Mergeable (sums), so chunks are combined in any grouping with the same result.
public struct FrameGridStatistics: Sendable, Equatable {
    /// The windows coders frame with. Not the sine window, which AAC also allows for long blocks:
    /// no encoder on this machine uses it, so there is no real file to tune or test it on, and
    /// searching it cost a third more (docs/AUTHENTICITY.md, failure modes).
    public enum Window: String, Sendable, CaseIterable {
        /// sin(π/2 · sin²(π(n + ½)/N)): Vorbis's.
        case vorbis
        /// Kaiser–Bessel-derived with α = 4: AAC's long window (FFmpeg's encoder uses it).
        case kaiserBesselDerived = "kbd"

        /// The window's name for a report.
        public var label: String {
            switch self {
            case .vorbis: return "Vorbis window"
            case .kaiserBesselDerived: return "KBD window"
            }
        }

        /// The coder's hop (half its long window) at `sampleRate`: AAC's frames are 1024 samples
        /// at every rate; libvorbis 1.3.7 picks long blocks of 2048 samples from 26 kHz, 1024
        /// from 15 kHz and 512 below (read from its headers at 8–48 kHz).
        public func hop(sampleRate: Int) -> Int {
            switch self {
            case .kaiserBesselDerived: return 1024
            case .vorbis: return sampleRate >= 26_000 ? 1024 : sampleRate >= 15_000 ? 512 : 256
            }
        }
    }

    /// Per window (`Window.allCases` order): Σ over excerpts and pickings of the best candidate's
    /// standing minus the best control's (`FrameGridProbe.search`).
    public var excess: [Int]
    /// Per window: the coefficients counted per offset, over all excerpts (fewer for a shorter hop).
    public var examined: [Int]

    public init() {
        excess = [Int](repeating: 0, count: Window.allCases.count)
        examined = excess
    }

    public mutating func merge(_ other: FrameGridStatistics) {
        for index in excess.indices {
            excess[index] += other.excess[index]
            examined[index] += other.examined[index]
        }
    }

    /// The window whose excess is the largest share of the coefficients it examined, and that
    /// share; nil when nothing was examined.
    public var strongest: (window: Window, share: Double)? {
        let shares = excess.indices.map { examined[$0] > 0 ? Double(excess[$0]) / Double(examined[$0]) : nil }
        guard let best = shares.indices.filter({ shares[$0] != nil }).max(by: { shares[$0]! < shares[$1]! }) else { return nil }
        return (Window.allCases[best], shares[best]!)
    }
}
