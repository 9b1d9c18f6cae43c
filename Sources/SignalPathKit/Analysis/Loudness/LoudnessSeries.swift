/// Momentary (400 ms) and short-term (3 s) loudness over time, by BS.1770-4 / EBU Tech 3341, from
/// the K-weighted energies of consecutive 100 ms sub-blocks handed in in order, one at a time.
///
/// Each sub-block ends a momentary window (the last 4 sub-blocks) and a short-term window (the
/// last 30); every `step`-th sub-block gives a `Point` whose time is the end of those windows, as
/// ffmpeg's ebur128 log has it. Values below the absolute gate (−70 LUFS) or before the first full
/// window are nil. Only the last 30 sub-blocks are kept, so a series of any length takes constant
/// memory; the maxima and their times are over every window, whatever the step.
public struct LoudnessSeries: Sendable {
    public struct Point: Sendable, Equatable {
        /// The end of the measurement windows, seconds from the start of the file.
        public var time: Double
        public var momentary: Double?
        public var shortTerm: Double?

        public init(time: Double, momentary: Double?, shortTerm: Double?) {
            self.time = time
            self.momentary = momentary
            self.shortTerm = shortTerm
        }
    }

    /// The loudest window and when it ends (seconds from the start of the file); nil before the
    /// first full window. Ungated, as `Loudness.momentaryMax` and `shortTermMax` are.
    public struct Maximum: Sendable, Equatable {
        public var loudness: Double
        public var time: Double
    }

    /// Sub-blocks between points: 1 for every 100 ms.
    public let step: Int
    private let sampleRate: Int
    /// The first frame of the range (absolute), where sub-block 0 starts.
    private let startFrame: Int64
    /// The last `Loudness.shortTermSubBlocks` energies and frame counts, in a ring.
    private var energies: [Double]
    private var frames: [Int]
    /// Sub-blocks taken so far.
    public private(set) var count = 0
    public private(set) var momentaryMax: Maximum?
    public private(set) var shortTermMax: Maximum?

    /// A series of the range that starts at absolute frame `startFrame`, with a point every
    /// `step` sub-blocks (100 ms each).
    public init(sampleRate: Int, startFrame: Int64, step: Int = 1) {
        precondition(step >= 1)
        self.sampleRate = sampleRate
        self.startFrame = startFrame
        self.step = step
        energies = [Double](repeating: 0, count: Loudness.shortTermSubBlocks)
        frames = [Int](repeating: 0, count: Loudness.shortTermSubBlocks)
    }

    /// Takes the next sub-block: Σ over channels of weight · Σ (K-weighted sample)² over its
    /// `frameCount` frames. Returns the point it completes, if one is due.
    public mutating func add(energy: Double, frames frameCount: Int) -> Point? {
        let slot = count % Loudness.shortTermSubBlocks
        energies[slot] = energy
        frames[slot] = frameCount
        count += 1
        let end = Double(startFrame + SubBlockPieces.start(of: count, sampleRate: sampleRate)) / Double(sampleRate)
        let momentary = windowLoudness(Loudness.momentarySubBlocks)
        let shortTerm = windowLoudness(Loudness.shortTermSubBlocks)
        if let momentary, momentary > momentaryMax?.loudness ?? -.infinity { momentaryMax = Maximum(loudness: momentary, time: end) }
        if let shortTerm, shortTerm > shortTermMax?.loudness ?? -.infinity { shortTermMax = Maximum(loudness: shortTerm, time: end) }
        guard count % step == 0 else { return nil }
        return Point(time: end, momentary: Self.gated(momentary), shortTerm: Self.gated(shortTerm))
    }

    /// The loudness of the last `length` sub-blocks, nil before there are that many or for a
    /// window of digital silence (−∞). Summed afresh each time, as `Loudness.blockLoudness` does:
    /// a running sum would drift over hours and differ from it in the last bits.
    private func windowLoudness(_ length: Int) -> Double? {
        guard count >= length else { return nil }
        var sum = 0.0, frameCount = 0
        for back in (1...length).reversed() {
            let slot = (count - back) % Loudness.shortTermSubBlocks
            sum += energies[slot]
            frameCount += frames[slot]
        }
        let loudness = Loudness.loudness(meanSquare: sum / Double(frameCount))
        return loudness.isFinite ? loudness : nil
    }

    /// A value at or below the absolute gate is not reported (nil), as in gating.
    private static func gated(_ loudness: Double?) -> Double? {
        loudness.flatMap { $0 > Loudness.absoluteGate ? $0 : nil }
    }
}
