/// Searches an excerpt of one channel for a coder's frame grid (`FrameGridStatistics`). Windows,
/// transforms and buffers are made once per worker; `search` allocates nothing.
///
/// Per window, on its coder's hop at the file's rate (`FrameGridStatistics.Window.hop`): every offset's picking frame (the first; in a first excerpt, apart, the last too)
/// is counted (1024 transforms), and the `candidates` offsets with the most zeros there are looked
/// at closer. A candidate's **standing** is, frame by frame over the other frames, how far its
/// count exceeds the larger of the same counts `neighbour` samples either side: a coder's zeros lie
/// on its grid only (white noise through Vorbis q6: half of the coefficients at the grid's offset,
/// under 0.2 % one sample off), while a chance high count in the picking frame does not carry on to
/// the others, and a burst or a fade inside the excerpt moves the neighbours' counts with the
/// candidate's. The excerpt's excess is the best
/// candidate's standing minus the best standing among `controls` offsets spread over the hop,
/// which is what chance gives: without a grid the two are alike, and their difference sums to
/// about nothing over excerpts. About 1,260 transforms per window and picking, against 6,144 for counting
/// every frame at every offset (at a 1024-sample hop; half as many, of half the size, at 512).
final class FrameGridProbe {
    /// The longest hop (AAC's, and Vorbis's from 26 kHz): excerpts start on its grid and hold
    /// `frames` + 2 of it; a shorter hop searches the excerpt's first `frames` + 2 hops.
    static let hop = 1024
    /// Frames per excerpt. Six, not four: the weakest grids in the corpus (FFmpeg's AAC at
    /// 256 kbps on mixes of partials) stand 0.014–0.035 over chance instead of 0.009–0.013, while
    /// the largest excess without a grid stays 0.011 (docs/AUTHENTICITY.md, rule 7).
    static let frames = 6
    /// Samples an excerpt holds: its frames (two hops long, one hop apart) at every offset of one hop.
    static let excerptLength = (frames + 2) * hop
    static let candidates = 8
    static let controls = 8
    /// How far the neighbours a candidate is compared with lie from it.
    static let neighbour = 2
    /// Seconds a range must hold to be searched: in a shorter one an excerpt's search would be most
    /// of the work (docs/DECISIONS.md#frame-grid-cost).
    static let shortestRange = 4
    /// The highest sample rate searched: the corpus's coded files are at 22.05 to 48 kHz.
    static let highestRate = 48000
    /// Excerpts come from chunks 0, 1, 4, 16 and 64 (the middle of each): at most five per file,
    /// whatever its length, about 8 ms of one core each (docs/AUTHENTICITY.md, "Cost").
    static func searches(chunk: Int) -> Bool { [0, 1, 4, 16, 64].contains(chunk) }
    /// Coefficients from here up are counted: an eighth of the sample rate and above, where coders
    /// switch coefficients off and music seldom has none.
    static func firstCoefficient(hop: Int) -> Int { hop / 4 }
    /// Zero: under three standard deviations of 16-bit rounding (q²/12 per sample, Σw²/2 per
    /// coefficient for these windows, whose Σw² is N/2) — or of 24-bit rounding, for a 24-bit or
    /// float decode of content with nothing over 16-bit rounding in its upper band (the bench's
    /// 10-minute AAC decoded to float: every coefficient there under the 16-bit level at every
    /// offset, the grid's zeros 100 times lower still). Each picking counts both and goes on with
    /// the level whose counts vary more over the offsets.
    static func zeroLevels(hop: Int) -> (Float, Float) {
        let deviation = (Double(hop) / 2 / 12).squareRoot()
        return (Float(3 * deviation * pow(2, -15)), Float(3 * deviation * pow(2, -23)))
    }

    /// One window searched on its coder's hop.
    private struct Grid {
        var hop: Int
        var window: [Float]
        var transform: ModifiedCosineTransform
        var zeroLevels: (Float, Float)
    }
    /// Per window, in `FrameGridStatistics.Window.allCases` order.
    private let grids: [Grid]
    /// The best offsets in the picking frame, most zeros first.
    private var leaders: [(offset: Int, count: Int)]
    /// The picking frame's counts per offset at each level.
    private var counts: [Int], fineCounts: [Int]

    init(sampleRate: Int) {
        var transforms: [Int: ModifiedCosineTransform] = [:]
        grids = FrameGridStatistics.Window.allCases.map { window in
            let hop = window.hop(sampleRate: sampleRate)
            let transform = transforms[hop] ?? ModifiedCosineTransform(coefficients: hop)
            transforms[hop] = transform
            return Grid(hop: hop, window: Self.coefficients(window, size: 2 * hop), transform: transform, zeroLevels: Self.zeroLevels(hop: hop))
        }
        leaders = []
        leaders.reserveCapacity(Self.candidates + 1)
        counts = [Int](repeating: 0, count: Self.hop)
        fineCounts = counts
    }

    /// The window's `size` values.
    static func coefficients(_ window: FrameGridStatistics.Window, size: Int) -> [Float] {
        let n = Double(size)
        switch window {
        case .vorbis:
            return (0..<size).map {
                let inner = sin(Double.pi * (Double($0) + 0.5) / n)
                return Float(sin(Double.pi / 2 * inner * inner))
            }
        case .kaiserBesselDerived:
            // w[n] = √(Σ_{j≤n} k[j] / Σ_{j≤N/2} k[j]) over a Kaiser window k of N/2 + 1 points, β = 4π.
            let half = size / 2, beta = 4 * Double.pi
            let kaiser = (0...half).map { index -> Double in
                let ratio = 2 * Double(index) / Double(half) - 1
                return Window.besselI0(beta * max(0, 1 - ratio * ratio).squareRoot())
            }
            let total = kaiser.reduce(0, +)
            var running = 0.0
            let rising = (0..<half).map { index -> Float in
                running += kaiser[index]
                return Float((running / total).squareRoot())
            }
            return rising + rising.reversed()
        }
    }

    /// Searches `excerpt` (`excerptLength` samples) and adds what it finds to `statistics`; with
    /// `bothEnds`, candidates are picked from the last frame too.
    func search(_ excerpt: UnsafeBufferPointer<Float>, bothEnds: Bool = true, into statistics: inout FrameGridStatistics) {
        precondition(excerpt.count >= Self.excerptLength)
        for (index, grid) in grids.enumerated() {
            let hop = grid.hop
            grid.window.withUnsafeBufferPointer { window in
                // Candidates from the first frame and, apart, from the last: a block switch or a
                // transient in one of them leaves the other to find the grid.
                for end in 0..<(bothEnds ? 2 : 1) {
                    let picking = end * (Self.frames - 1)
                    for offset in 0..<hop { (counts[offset], fineCounts[offset]) = zeros(excerpt, at: offset + picking * hop, grid, window) }
                    let fine = Self.spread(fineCounts[..<hop]) > Self.spread(counts[..<hop])
                    leaders.removeAll(keepingCapacity: true)
                    for offset in 0..<hop {
                        let count = fine ? fineCounts[offset] : counts[offset]
                        // Ties keep the earlier offset.
                        guard leaders.count < Self.candidates || count > leaders[leaders.count - 1].count else { continue }
                        let place = leaders.firstIndex { $0.count < count } ?? leaders.count
                        leaders.insert((offset, count), at: place)
                        if leaders.count > Self.candidates { leaders.removeLast() }
                    }
                    var best = Int.min, chance = Int.min
                    for leader in leaders { best = max(best, standing(excerpt, at: leader.offset, besides: picking, fine: fine, grid, window)) }
                    let first = leaders[0].offset
                    for step in 0..<Self.controls {
                        let control = (first + hop / (2 * Self.controls) + step * hop / Self.controls) % hop
                        chance = max(chance, standing(excerpt, at: control, besides: picking, fine: fine, grid, window))
                    }
                    statistics.excess[index] += best - chance
                }
            }
            statistics.examined[index] += (bothEnds ? 2 : 1) * (Self.frames - 1) * (hop - Self.firstCoefficient(hop: hop))
        }
    }

    /// How far the counts at `offset` in the frames other than `picking` stand above those
    /// `neighbour` samples either side, frame by frame, where they do: a Vorbis block switch inside
    /// the excerpt moves the grid, and the frames on one side of it still count.
    private func standing(
        _ excerpt: UnsafeBufferPointer<Float>, at offset: Int, besides picking: Int, fine: Bool, _ grid: Grid, _ window: UnsafeBufferPointer<Float>
    ) -> Int {
        let hop = grid.hop
        func zeros(at start: Int) -> Int {
            let both = self.zeros(excerpt, at: start, grid, window)
            return fine ? both.1 : both.0
        }
        let before = (offset + hop - Self.neighbour) % hop, after = (offset + Self.neighbour) % hop
        var total = 0
        for frame in 0..<Self.frames where frame != picking {
            let shift = frame * hop
            let sides = max(zeros(at: before + shift), zeros(at: after + shift))
            total += max(0, zeros(at: offset + shift) - sides)
        }
        return total
    }

    /// How far the counts vary over the offsets: the largest minus the mean.
    private static func spread(_ counts: ArraySlice<Int>) -> Double {
        Double(counts.max() ?? 0) - Double(counts.reduce(0, +)) / Double(max(1, counts.count))
    }

    /// Coefficients from `firstCoefficient` up under each of `zeroLevels` in the frame at `start`.
    private func zeros(_ excerpt: UnsafeBufferPointer<Float>, at start: Int, _ grid: Grid, _ window: UnsafeBufferPointer<Float>) -> (Int, Int) {
        grid.transform.countBelow(grid.zeroLevels, from: Self.firstCoefficient(hop: grid.hop), in: excerpt, from: start, window: window)
    }
}
