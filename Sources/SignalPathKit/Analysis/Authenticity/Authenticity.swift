/// Is the file what it claims: a judgement of its origin from the averaged spectrum and the
/// segments' edges, with the evidence as named numbers (docs/AUTHENTICITY.md has each rule, its
/// failure modes and the corpus results behind the thresholds).
public struct Authenticity: Sendable, Equatable {
    public enum Verdict: String, Sendable, CaseIterable {
        /// Positive evidence and no sign of a codec or a resampler: content reaches the file's own
        /// band edge above `codedBandTop`, where coders cut at all but their highest settings.
        case losslessOrigin = "lossless_origin"
        /// A fixed shelf below Nyquist, steep, with nothing above it, in most frames: a lossy
        /// codec's low-pass (or a brick-wall filter: see the document's failure modes).
        case lossyOrigin = "lossy_origin"
        /// Content ends where a lower standard rate's Nyquist frequency lies, with an anti-imaging
        /// filter's shape.
        case upsampled
        /// Nothing confirms or refutes: band-limited content that could be either (speech, old or
        /// dull recordings), or a file whose whole band lies where coders keep everything (22.05
        /// and 32 kHz) with no shelf, cut frame or frame grid to show one.
        case inconclusive
    }

    public var verdict: Verdict
    /// 0–1: how strongly the evidence points to the verdict.
    public var confidence: Double
    /// Where the averaged spectrum's shelf lies (the level halfway between the bands before and
    /// after it), Hz; nil without a shelf of at least `shelfDrop`.
    public var cutoff: Double?
    /// Level of the third octave below the cut-off minus that of the third octave above it, dB.
    public var steepness: Double?
    /// Level just above the cut-off (to a third octave) relative to the noise floor below it
    /// (the 10th percentile of the bands from 1 kHz to the cut-off), dB.
    public var levelAboveCutoff: Double?
    /// The same level relative to the rounding noise of the bits in use (white, q²/12), dB:
    /// about 0 or less when nothing but rounding lies above the cut-off.
    public var levelAboveRounding: Double?
    /// Of the segments with content, the fraction whose content stays at or below the cut-off
    /// (two bands of margin): 1 when no frame ever reaches past it.
    public var cutoffConstancy: Double?
    /// Segments with a sharp edge anywhere, of those with content.
    public var edgeFraction: Double
    /// Of the segments with content, those with a sharp edge within two bands of the cut-off.
    public var edgesAtCutoff: Double?
    /// Of the segments with content, those whose content reaches the cut-off (two bands of margin).
    public var reachingCutoff: Double?
    /// Where the segments' sharp edges gather: the centre of the five bands holding most of them,
    /// Hz, and their share of all edges (nil without edges).
    public var edgeMode: Double?
    public var edgeModeShare: Double?
    /// The highest frequency whose band holds more than rounding (`roundingMargin` over it), Hz.
    public var contentTop: Double?
    /// Band groups above 4 kHz switched off between loud neighbours, of those examined; nil when
    /// none were.
    public var holeFraction: Double?
    /// For a shelf in an upsample's window: of the segments with content, those whose content
    /// reaches the lower rate's Nyquist frequency (two bands of margin). FFmpeg's default resampler
    /// leaks images past it, so its shelf lies above where the kept content ends.
    public var reachingSourceNyquist: Double?
    /// Where the segments' noise floors end (`SpectralEdgeStatistics`' floor top): the centre of
    /// the five bands holding most of them, Hz, and their share of the segments with a floor.
    public var noiseFloorTop: Double?
    public var noiseFloorTopShare: Double?
    /// A coder's frame grid (`FrameGridStatistics`): the window whose grid stands out most, and by
    /// how much (the excess as a share of the coefficients examined); nil where none was searched.
    public var frameGridWindow: FrameGridStatistics.Window?
    public var frameGridExcess: Double?
    /// For `upsampled`: the rate the content points to.
    public var sourceRate: Int?
    /// Where the evidence points to a codec family: a hint, not a finding.
    public var codecHint: String?
    /// Bits in use (the most of any channel) below the container's bit depth.
    public var bitDepthPadded: Bool?
    public var bitsInUse: Int?
    /// Both channels identical (the stereo image's test).
    public var monoAsStereo: Bool?

    // The thresholds: each tuned on the corpus of `Tests/Reference/authenticity_corpus.py`
    // (docs/AUTHENTICITY.md, "Corpus results").
    /// The least drop from the four bands before a shelf to the three after its gap, dB.
    public static let shelfDrop = 20.0
    /// A shelf steeper than this (dB per third octave) can be a codec's or a resampler's.
    public static let steepShelf = 30.0
    /// Above the cut-off: nothing but rounding (within this many dB of it) ...
    public static let roundingMargin = 10.0
    /// ... or this far below the floor under the cut-off (24-bit and float data, whose rounding
    /// lies far below anything recorded).
    public static let belowFloor = -30.0
    /// A cut-off at or above this fraction of Nyquist is the file's own anti-aliasing filter.
    public static let ownBandEdge = 0.955
    /// Coders keep content up to here at ordinary settings: Opus codes to 20 kHz at every bit rate,
    /// and at 22.05 and 32 kHz FFmpeg's AAC from 64 kbps, Vorbis and Opus keep the whole band and
    /// LAME cuts at 0.91–0.96 of Nyquist. Content at the top of the band, or the file's own
    /// anti-aliasing shelf, is evidence of lossless origin only above it; a file whose band ends
    /// below it gets no `lossless_origin` from the spectrum (docs/AUTHENTICITY.md, rule 1).
    public static let codedBandTop = 20_000.0
    /// Half the standard rates: a shelf at a resampler's signature of one of these
    /// (`steepResampler` or `leakyResampler` of it) that is well below the file's Nyquist points
    /// to an upsample from twice it. The windows of different rates do not overlap, so at most
    /// one rate matches. 16 kHz (a 32 kHz source) and 8 kHz are left out: LAME at 96 kbps cuts at
    /// 15.2–15.4 kHz and low bitrates near 8–11 kHz, and a shelf alone cannot tell those from an
    /// upsample.
    public static let standardNyquists = [11025, 22050, 24000, 44100, 48000]
    /// Sox's and soxr's anti-imaging filters: the shelf at 0.97–0.99 of the old Nyquist frequency
    /// (a sweep's end lower), and the 24-bit noise floor's end at 0.94–0.99.
    public static let steepResampler = 0.94...1.0
    /// FFmpeg's default resampler leaks images past the old Nyquist frequency: its shelf lies at
    /// 1.15–1.17 of it.
    public static let leakyResampler = 1.14...1.2
    /// The least share of segments whose content reaches the cut-off: a shelf that frames seldom
    /// reach (a sweep passing through once) says nothing about a codec or a resampler.
    public static let leastReach = 0.04
    /// Frames cut by a coder without a shelf on average (`judgeFrames`).
    public static let frameEdges = 0.1
    public static let frameEdgeShare = 0.3
    public static let frameEdgeHeight = 0.6
    public static let frameEdgeHoles = 0.03
    /// The least share of segments whose noise floor ends in one place for it to show an upsample
    /// (`judgeNoiseFloor`).
    public static let floorTopShare = 0.8
    /// The least frame-grid excess that shows a coder (`judgeFrameGrid`).
    public static let frameGridExcessShown = 0.01
    /// Bands between the frames' edges and the shelf above which they show a coder (`framesCutBelow`).
    public static let framesBelowShelf = 3.0
    /// Natural content reaching the band edge: the top tenth below Nyquist this far over rounding.
    public static let contentOverRounding = 10.0

    /// The rule behind the verdict, for `conventions`.
    public static var rule: String {
        let percent = { (value: Double) in UnitFormat.shortest(value * 100) }
        return "cut-off: the largest drop (>= \(UnitFormat.shortest(shelfDrop)) dB) of the channels' mean spectrum in 256 equal bands, from 1 kHz up; "
            + "a codec's or resampler's shelf: >= \(UnitFormat.shortest(steepShelf)) dB per third octave with nothing above it but rounding "
            + "(<= \(UnitFormat.shortest(roundingMargin)) dB over the bits in use's q^2/12) or <= \(UnitFormat.shortest(belowFloor)) dB under the floor below it; "
            + "reached by >= \(percent(leastReach)) % of the segments with content (a shelf at FFmpeg's fraction of a lower rate's Nyquist, below: at that Nyquist or at the shelf); "
            + "such a shelf at >= \(percent(ownBandEdge)) % of Nyquist is the file's own anti-aliasing (lossless_origin above \(UnitFormat.shortest(codedBandTop / 1000)) kHz, "
            + "else inconclusive), at \(percent(steepResampler.lowerBound))-\(percent(steepResampler.upperBound)) % (sox, soxr) or "
            + "\(percent(leakyResampler.lowerBound))-\(percent(leakyResampler.upperBound)) % (FFmpeg's default) "
            + "of a lower standard rate's Nyquist upsampled, elsewhere lossy_origin, but lossy_origin in the first two cases too when the frames show a coder (below) "
            + "with their edges >= \(UnitFormat.shortest(framesBelowShelf)) bands under the shelf; without one, lossy_origin when >= \(percent(frameEdges)) % of the segments "
            + "have a sharp edge, >= \(percent(frameEdgeShare)) % of those edges lie within two bands of one frequency >= \(percent(frameEdgeHeight)) % of Nyquist "
            + "and < \(percent(frameEdgeHoles)) % of the band groups are holes (a coder cutting frame by frame), else lossless_origin when the top tenth "
            + "of the band, above \(UnitFormat.shortest(codedBandTop / 1000)) kHz (what coders keep), holds content >= \(UnitFormat.shortest(contentOverRounding)) dB over rounding, "
            + "else inconclusive; "
            + "lossless_origin or inconclusive become upsampled when >= \(percent(floorTopShare)) % of the segments' noise floors "
            + "(bands over \(UnitFormat.shortest(SpectralEdgeStatistics.floorDecibels)) dB) end within two bands of one frequency at sox's fraction of a lower rate's Nyquist; "
            + "at rates up to \(FrameGridProbe.highestRate / 1000) kHz, any verdict becomes lossy_origin when a coder's frame grid (MDCT coefficients from an eighth of the rate up "
            + "under 3 sigma of 16- or 24-bit rounding; KBD window of 2048 samples every 1024, Vorbis's of twice its hop, every 1024 samples from 26 kHz, 512 from 15 kHz, 256 below) stands out at one offset by >= \(percent(frameGridExcessShown)) % "
            + "of the coefficients examined, over its neighbours and over chance"
    }

    /// The verdict on a file of `format` whose channels' mean spectrum is `meanSquare` (FS² per
    /// bin, a full-scale sine's peak bin = ¼; the window's Σw²/(Σw)² is `noiseBandwidth`) and
    /// whose segments showed `edges`.
    public init(
        meanSquare: [Double], binWidth: Double, noiseBandwidth: Double, edges: SpectralEdgeStatistics, frameGrid: FrameGridStatistics? = nil,
        format: AudioFormat, bitsInUse: Int?, monoAsStereo: Bool?
    ) {
        let sampleRate = format.sampleRate
        let nyquist = Double(sampleRate) / 2
        self.bitsInUse = bitsInUse
        self.monoAsStereo = monoAsStereo
        bitDepthPadded = Self.isPadded(bitsInUse: bitsInUse, format: format.sampleFormat)
        edgeFraction = edges.activeSegments > 0 ? Double(edges.segmentsWithEdges) / Double(edges.activeSegments) : 0
        holeFraction = edges.examinedGroups > 0 ? Double(edges.holeGroups) / Double(edges.examinedGroups) : nil
        // The optional evidence starts as nil (absent) and is filled as far as the file allows.
        if let mode = edges.edgeMode() {
            edgeMode = (Double(mode.band) + 0.5) * Double(format.sampleRate) / 2 / Double(edges.bandCount)
            edgeModeShare = mode.share
        }
        if case .compressed(let codec) = format.sampleFormat {
            verdict = .lossyOrigin
            confidence = 1
            codecHint = codec
            return
        }
        verdict = .inconclusive
        confidence = 0
        // Whichever way the spectrum's rules end, the noise floor may still show an upsample, and
        // a coder's frame grid overrules them all.
        defer {
            judgeNoiseFloor(edges, nyquist: nyquist)
            judgeFrameGrid(frameGrid)
        }
        let spectrum = BandedSpectrum(meanSquare: meanSquare, binWidth: binWidth, bands: edges.bandCount)
        // Rounding to the bits in use: white noise of q²/12 (full scale ±1, q = 2^(1-bits)), on the same scale.
        let bits = Double(bitsInUse ?? format.sampleFormat.bitDepth ?? 24)
        let rounding = 10 * log10(4 * pow(2, 2 * (1 - bits)) / 12 * noiseBandwidth)
        // The top tenth of the band, above what coders keep (none at 32 kHz and below).
        let top = (from: max(0.9 * nyquist, Self.codedBandTop), to: 0.99 * nyquist)
        let hasContentAtTop = top.from < top.to && spectrum.level(from: top.from, to: top.to) - rounding >= Self.contentOverRounding
        contentTop = spectrum.levels.lastIndex { $0 - rounding > Self.roundingMargin }.map { (Double($0) + 0.5) * spectrum.bandWidth }
        guard edges.activeSegments > 0 else {
            verdict = .inconclusive
            confidence = 0
            return
        }
        let withoutShelf = Self.judgeFrames(
            edgeFraction: edgeFraction, mode: edgeMode, modeShare: edgeModeShare, holes: holeFraction, nyquist: nyquist,
            hasContentAtTop: hasContentAtTop)
        guard let shelf = spectrum.steepestShelf(from: 1000, drop: Self.shelfDrop) else {
            (verdict, confidence) = withoutShelf
            return
        }
        judgeShelf(
            at: spectrum.crossing(of: shelf), spectrum: spectrum, edges: edges, rounding: rounding, nyquist: nyquist, sampleRate: sampleRate,
            withoutShelf: withoutShelf)
    }

    /// The mean spectrum's shelf at `cutoff`: how steep it is, what lies above it and how many
    /// segments reach it; a codec's or a resampler's shelf when steep, empty above and reached
    /// often enough (its place then tells which), else the verdict `withoutShelf`.
    private mutating func judgeShelf(
        at cutoff: Double, spectrum: BandedSpectrum, edges: SpectralEdgeStatistics, rounding: Double, nyquist: Double, sampleRate: Int,
        withoutShelf: (Verdict, Double)
    ) {
        self.cutoff = cutoff
        let steepness =
            spectrum.level(from: cutoff * pow(2, -1.0 / 3), to: cutoff * 0.99) - spectrum.level(from: cutoff * 1.01, to: min(cutoff * pow(2, 1.0 / 3), nyquist))
        self.steepness = steepness
        let above = spectrum.level(from: cutoff * 1.02, to: min(cutoff * pow(2, 1.0 / 3), nyquist))
        let overFloor = above - spectrum.floor(from: 1000, to: cutoff)
        levelAboveCutoff = overFloor
        levelAboveRounding = above - rounding
        let cutoffBand = min(edges.bandCount - 1, Int(cutoff / spectrum.bandWidth) + 2)
        let within = edges.topCounts[...cutoffBand].reduce(0, +)
        let constancy = Double(within) / Double(edges.activeSegments)
        cutoffConstancy = constancy
        let near = max(0, cutoffBand - 4)...cutoffBand
        edgesAtCutoff = Double(near.reduce(0) { $0 + edges.edgeCounts[$1] }) / Double(edges.activeSegments)
        /// Segments whose top lies at or above two bands under `frequency`'s band.
        func reaching(_ frequency: Double) -> Double {
            let band = min(edges.bandCount - 1, Int(frequency / spectrum.bandWidth) + 2)
            return Double(edges.topCounts[max(0, band - 4)...].reduce(0, +)) / Double(edges.activeSegments)
        }
        let reach = reaching(cutoff)
        reachingCutoff = reach
        let source = Self.sourceNyquist(of: cutoff, nyquist: nyquist, signatures: [Self.steepResampler, Self.leakyResampler])
        // A leaky resampler's shelf lies past the old Nyquist frequency, where only its images
        // reach; the content it kept is judged where it ends.
        if let source, cutoff > Double(source) { reachingSourceNyquist = reaching(Double(source)) }
        let emptyAbove = above - rounding <= Self.roundingMargin || overFloor <= Self.belowFloor
        guard steepness >= Self.steepShelf && emptyAbove && max(reach, reachingSourceNyquist ?? 0) >= Self.leastReach else {
            (verdict, confidence) = withoutShelf
            return
        }
        // Confidence grows with the shelf's steepness and how consistently frames stay below it.
        let strength = 0.5 * min(1, steepness / 60) + 0.5 * constancy
        let framesCut = Self.framesCutBelow(
            cutoff: cutoff, bandWidth: spectrum.bandWidth, mode: edgeMode, withoutShelf: withoutShelf)
        if let framesCut, cutoff >= Self.ownBandEdge * nyquist || source != nil {
            // A coder's frames under a shelf that alone would read as the file's own band edge
            // or an upsample's.
            (verdict, confidence) = framesCut
            codecHint = Self.codecHint(cutoff: cutoff, sampleRate: sampleRate)
        } else if cutoff >= Self.ownBandEdge * nyquist {
            // The file's own anti-aliasing filter, or, below `codedBandTop`, as well a coder's
            // that kept everything up to it.
            if cutoff > Self.codedBandTop {
                verdict = .losslessOrigin
                confidence = 0.7
            }
        } else if let source {
            verdict = .upsampled
            sourceRate = 2 * source
            confidence = strength
        } else {
            verdict = .lossyOrigin
            confidence = strength
            codecHint = Self.codecHint(cutoff: cutoff, sampleRate: sampleRate)
        }
    }

    /// The verdict without a codec's or a resampler's shelf in the mean spectrum. Coders that keep
    /// the whole band on average (LAME V0, FFmpeg's AAC at 256 kbps, Vorbis q6 and q8) still cut
    /// many frames sharply near one high frequency: ≥ `frameEdges` of the segments with a sharp
    /// edge, ≥ `frameEdgeShare` of those edges within two bands of one frequency at or above
    /// `frameEdgeHeight` of Nyquist, and (almost) no holes. Genuine renders and noises show no
    /// such edges (≤ 0.2 % of segments in the corpus), sweeps spread theirs (≤ 7 % in one place),
    /// and mixes of sparse partials gather theirs low (≤ 0.44 of Nyquist) among holes (≥ 3.6 %).
    static func judgeFrames(edgeFraction: Double, mode: Double?, modeShare: Double?, holes: Double?, nyquist: Double, hasContentAtTop: Bool)
        -> (Verdict, Double)
    {
        if edgeFraction >= frameEdges, let mode, let modeShare, modeShare >= frameEdgeShare, mode >= frameEdgeHeight * nyquist,
            (holes ?? 0) < frameEdgeHoles
        {
            return (.lossyOrigin, min(1, 0.5 * min(1, edgeFraction / 0.3) + 0.5 * modeShare))
        }
        return hasContentAtTop ? (.losslessOrigin, 0.6) : (.inconclusive, 0)
    }

    /// The standard Nyquist frequency (under the file's own band edge) at one of whose
    /// `signatures` (fractions of it) `frequency` lies; nil when none.
    static func sourceNyquist(of frequency: Double, nyquist: Double, signatures: [ClosedRange<Double>]) -> Int? {
        standardNyquists.first { source in
            Double(source) <= ownBandEdge * nyquist && signatures.contains { $0.contains(frequency / Double(source)) }
        }
    }

    /// The frames' verdict when they show a coder (`judgeFrames`) cutting them at least
    /// `framesBelowShelf` bands under the mean spectrum's shelf. An anti-imaging filter cuts every
    /// frame at the shelf itself (the corpus's upsamples: edges within 1.3 bands of it); FFmpeg's
    /// AAC at 192 kbps, Vorbis q6–q8 and LAME V0 at 48 kHz cut frames 3.8–21 bands below a shelf
    /// at 21.1–22.7 kHz, where an upsample from 44.1 kHz would put its own.
    static func framesCutBelow(cutoff: Double, bandWidth: Double, mode: Double?, withoutShelf: (Verdict, Double)) -> (Verdict, Double)? {
        guard withoutShelf.0 == .lossyOrigin, let mode, mode <= cutoff - framesBelowShelf * bandWidth else { return nil }
        return withoutShelf
    }

    /// A 16-bit source raised to a higher rate in 24 bits or float: its rounding noise ends at the
    /// old Nyquist frequency in every segment, with only the far lower new rounding above. When
    /// the spectrum's rules found no codec and no upsample, ≥ `floorTopShare` of the segments'
    /// floors ending within two bands of one place at `steepResampler` of a lower standard
    /// rate's Nyquist (and under the file's own band edge) is `upsampled`. In the corpus: every
    /// sox and soxr upsample into 24 bits ≥ 0.99, sweeps included (their content's shelf is
    /// reached too seldom for rule 2); genuine files ≤ 0.66 (mixes of partials, away from any
    /// standard rate) and at Nyquist itself for 16-bit ones; dull masters ≤ 0.39.
    mutating func judgeNoiseFloor(_ edges: SpectralEdgeStatistics, nyquist: Double) {
        guard let mode = edges.floorTopMode() else { return }
        let top = (Double(mode.band) + 0.5) * nyquist / Double(edges.bandCount)
        noiseFloorTop = top
        noiseFloorTopShare = mode.share
        guard verdict == .losslessOrigin || verdict == .inconclusive, mode.share >= Self.floorTopShare, top < Self.ownBandEdge * nyquist,
            let source = Self.sourceNyquist(of: top, nyquist: nyquist, signatures: [Self.steepResampler])
        else { return }
        verdict = .upsampled
        sourceRate = 2 * source
        confidence = mode.share
    }

    /// A coder's frame grid standing out by ≥ `frameGridExcessShown` is `lossy_origin`, whatever
    /// the spectrum showed: no resampler, filter or recording leaves a 1024-sample grid of
    /// switched-off MDCT coefficients (docs/AUTHENTICITY.md, rule 7). The window names the family.
    mutating func judgeFrameGrid(_ grid: FrameGridStatistics?) {
        guard let strongest = grid?.strongest else { return }
        frameGridWindow = strongest.window
        frameGridExcess = strongest.share
        guard strongest.share >= Self.frameGridExcessShown else { return }
        if verdict != .lossyOrigin {
            verdict = .lossyOrigin
            confidence = min(1, 0.5 + strongest.share / (4 * Self.frameGridExcessShown))
            sourceRate = nil
        }
        // The window names the family more surely than a cut-off does: of a cut-off's settings,
        // those of the family stay.
        let family: String
        switch strongest.window {
        case .vorbis: family = "vorbis"
        case .kaiserBesselDerived: family = "aac"
        }
        let settings = (codecHint ?? "").split(separator: " or ").map(String.init).filter { $0.hasPrefix(family + " ") }
        codecHint = settings.isEmpty ? family : settings.joined(separator: " or ")
    }

    /// True when fewer bits are in use than the container holds (16 of 24; PCM in a float file).
    static func isPadded(bitsInUse: Int?, format: SampleFormat) -> Bool? {
        guard let bitsInUse else { return nil }
        switch format {
        case .pcm(let bits, _), .lossless(_, let bits): return bitsInUse < bits
        case .float(let bits): return bitsInUse <= (bits == 32 ? 24 : 53)
        case .ulaw, .alaw, .compressed: return nil
        }
    }
}
