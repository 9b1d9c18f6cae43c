/// What `compare` found: whether two recordings decode to the same samples and, when they do not,
/// how B lines up with A and what is left when B, aligned, is subtracted from A.
public struct SignalComparison: Sendable {
    public static let schema = "signalpath.compare/1"

    public var pathA: String
    public var pathB: String
    public var sampleRateA: Int
    public var sampleRateB: Int
    /// The channels compared (`left`, `mix`, …), A's names.
    public var channelNames: [String]
    /// Where the range compared starts in A, and its length in A's frames.
    public var startSeconds: Double
    public var framesCompared: Int64
    /// True when the decoded samples of the range are bit for bit the same (and B ends where A
    /// does); then there is no alignment or residual to report.
    public var identical: Bool
    public var alignment: Alignment?
    public var residual: Residual?

    public var durationSeconds: Double { Double(framesCompared) / Double(sampleRateA) }

    /// Below this correlation after alignment A and B are not taken for versions of one signal:
    /// at 0.5 the null would be 1.25 dB deep at best (the measured pairs: docs/COMPARE.md).
    public static let relatedCorrelation = 0.5

    /// True when the files barely correlate after alignment (`relatedCorrelation`): what the
    /// alignment found (delay, gain) and so the residual say little.
    public var barelyCorrelates: Bool { residual.map { abs($0.correlation) < Self.relatedCorrelation } ?? false }

    /// The difference A − B/gain after alignment, over the frames where both have samples.
    public struct Residual: Sendable {
        /// A's frames where both files have samples, from `startSeconds`.
        public var overlapStartSeconds: Double
        public var overlapSeconds: Double
        /// RMS of all channels' residual samples (20·log10, a full-scale square wave is 0 dBFS).
        public var rmsDBFS: Double
        public var peakDBFS: Double
        /// A's RMS over the same frames.
        public var levelADBFS: Double
        /// How far the residual lies below A: A's RMS over the residual's, in dB.
        public var nullDepthDB: Double
        /// Pearson's correlation of A and aligned B over every sample compared.
        public var correlation: Double
        /// Per channel: the residual's RMS.
        public var channelRMSDBFS: [Double]
        /// Third-octave bands: A's, B's (aligned and scaled) and the residual's level.
        public var bands: [Band]
        /// The residual's RMS per whole second of the overlap, in order.
        public var secondRMSDBFS: [Double]
        /// The seconds where the residual is largest, largest first (up to five).
        public var worstSeconds: [Second]
    }

    public struct Band: Sendable {
        public var centreHz: Double
        public var nominalHz: Double
        public var levelADBFS: Double
        public var levelBDBFS: Double
        public var residualDBFS: Double
    }

    public struct Second: Sendable {
        /// Start of the second in A's time line (seconds from A's start).
        public var startSeconds: Double
        public var rmsDBFS: Double
    }
}
