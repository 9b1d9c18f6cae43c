/// What each spectrum segment of `analyze` shows about where its content ends: the frame-by-frame
/// evidence behind `Authenticity` (docs/AUTHENTICITY.md).
///
/// A segment's |X|² is summed into `bandCount` equal bands from 0 Hz to Nyquist. A **sharp edge**
/// lies at band e when each of the four bands below it holds content and ≥ `stepDecibels` more
/// power than any of the three bands above the two-band gap after it: the shelf a codec's low-pass
/// or a resampler's anti-imaging filter leaves, in one segment. The highest such edge of each
/// segment is counted in `edgeCounts[e]`: a codec cuts at the same frequency in every frame, while
/// the top of natural content moves with the music. Requiring every band below to be full keeps a
/// lone partial (a tone's top harmonic, with nothing between it and the next) from passing for one.
///
/// A **hole** is a group of four bands between 4 kHz and the segment's edge whose power lies
/// ≥ `holeDecibels` under the strongest group on both sides within four groups: bands a
/// psychoacoustic coder switched off in this frame. Natural music rarely empties 4 bands
/// (344 Hz at 44.1 kHz) between loud neighbours; sparse synthetic partials do (a failure mode).
///
/// A segment's **top** is its highest band holding content: a codec's cut-off bounds every frame's
/// top, natural content's top moves with the music.
///
/// A segment's **floor top** is its highest band above `floorDecibels`, a level far under any
/// content but over 16-bit rounding noise: where the noise floor ends. A 16-bit source raised to a
/// higher rate in 24 bits or float keeps its rounding noise below the old Nyquist frequency and
/// only the new, far lower rounding above it, so the floor ends there in every segment.
///
/// Mergeable (sums), so chunks are combined in any grouping with the same result.
public struct SpectralEdgeStatistics: Sendable, Equatable {
    /// Bands the segment is split into (fewer when the FFT has fewer bins).
    public static let maximumBands = 256
    /// A segment's band must be this far above those past its edge.
    public static let stepDecibels = 25.0
    /// Content: a band's power at least this far below a full-scale sine's peak bin (about 20 dB
    /// above 16-bit quantization noise in a band of 16 bins).
    public static let contentDecibels = -95.0
    public static let holeDecibels = 35.0
    /// Holes are looked for above this frequency, where coders drop bands and music is noise-like.
    public static let holeFloorHertz = 4000.0
    /// The floor: 20 dB under 16-bit rounding noise in a band of 16 bins (about −115 dB) and
    /// 28 dB over 24-bit rounding's (about −163 dB).
    public static let floorDecibels = -135.0

    public var bandCount: Int
    /// Per band: segments whose highest sharp edge lies there.
    public var edgeCounts: [Int]
    /// Per band: segments whose highest band with content is that band.
    public var topCounts: [Int]
    /// Segments with content (any band above the content level).
    public var activeSegments = 0
    /// Per band: segments whose highest band above the floor level is that band.
    public var floorTopCounts: [Int]
    /// Groups of four bands examined for holes (content on both sides), and those that were holes.
    public var examinedGroups = 0
    public var holeGroups = 0

    public init(bandCount: Int) {
        self.bandCount = bandCount
        edgeCounts = [Int](repeating: 0, count: bandCount)
        topCounts = edgeCounts
        floorTopCounts = edgeCounts
    }

    /// The bands for an FFT of `fftSize` points.
    public static func bandCount(fftSize: Int) -> Int { min(maximumBands, fftSize / 2) }

    /// Segments with a sharp edge anywhere.
    public var segmentsWithEdges: Int { edgeCounts.reduce(0, +) }

    /// Segments with any band above the floor level.
    public var floorSegments: Int { floorTopCounts.reduce(0, +) }

    /// The band whose five-band neighbourhood holds the most edges (the lowest of equals), and
    /// that neighbourhood's share of all edges; nil without edges.
    public func edgeMode() -> (band: Int, share: Double)? { Self.mode(of: edgeCounts) }

    /// The same for the segments' floor tops.
    public func floorTopMode() -> (band: Int, share: Double)? { Self.mode(of: floorTopCounts) }

    static func mode(of counts: [Int]) -> (band: Int, share: Double)? {
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        var best = 0, bestCount = -1
        for band in counts.indices {
            let count = counts[max(0, band - 2)...min(counts.count - 1, band + 2)].reduce(0, +)
            if count > bestCount {
                best = band
                bestCount = count
            }
        }
        return (best, Double(bestCount) / Double(total))
    }

    public mutating func merge(_ other: SpectralEdgeStatistics) {
        precondition(other.bandCount == bandCount)
        for band in 0..<bandCount {
            edgeCounts[band] += other.edgeCounts[band]
            topCounts[band] += other.topCounts[band]
            floorTopCounts[band] += other.floorTopCounts[band]
        }
        activeSegments += other.activeSegments
        examinedGroups += other.examinedGroups
        holeGroups += other.holeGroups
    }
}
