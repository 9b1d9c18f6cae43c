/// The thresholds of `events`: the five options, and the fixed parts of each rule (docs/EVENTS.md).
public struct EventSettings: Sendable, Equatable {
    /// Silence: every channel below this level (dBFS, sample by sample, as ffmpeg's silencedetect).
    public var silenceThreshold = -60.0
    /// Silence: at least this long (seconds).
    public var minimumSilence = 0.5
    /// Clipping: runs of at least this many full-scale samples.
    public var minimumClipRun = 3
    /// DC offset: spans whose 1 s mean exceeds this (a fraction of full scale: 0.01 is 1 %).
    public var maximumDC = 0.01
    /// Loudness jump: short-term loudness changing by more than this (LU) within 1 s.
    public var maximumJump = 10.0

    /// Clipping runs closer than this (seconds) are one event.
    public static let clipMergeGap = 0.010
    /// Gaps: the shortest one listed, and the window the level inside a gap is judged over at
    /// each of its edges (seconds).
    public static let gapWindow = 0.001
    /// Gaps: the level each side of the gap is measured over this long (seconds).
    public static let flankLength = 0.010
    /// Gaps: "sound" on a side is at least this far above the silence threshold (dB).
    /// Nothing more is asked of the sound next to a gap: rules on its edges (the 2 ms next to it
    /// at half the level, the step into it at a quarter) kept 111 of 450 gaps cut at random into
    /// voiced speech, and no edge measure tried (RMS or peak over 2–5 ms) left out espeak-ng's
    /// stop closures without losing real cuts (docs/EVENTS.md).
    public static let soundAboveSilence = 20.0
    /// Gaps: the 1 ms next to an edge lies at least this far (dB) below the 10 ms on its other
    /// side, and so does the gap's mean level below both sides …
    public static let gapDepth = 40.0
    /// … and no 1 ms block inside the gap comes back to within this far (dB) of the level before
    /// it: sound that swells under a deep fall does not end it, sound that returns does.
    public static let gapHold = 20.0
    /// DC offset is the mean over this long (seconds), every 100 ms.
    public static let dcWindow = 1.0
    /// … and each of its 100 ms means lies within this fraction of that mean. On 10 min of the
    /// bench's −20 dBFS pink noise (flat below 33 Hz) 537 of 5 991 1 s means exceed 1 % (up to
    /// 2.4 %) but none is steady; the 100 ms means of +2 % under recorded speech stay within 18 %.
    public static let dcSteadiness = 0.5
    /// Loudness jumps compare short-term loudness this far apart (seconds).
    public static let jumpSpan = 1.0

    public init() {}

    /// The silence threshold as an amplitude.
    var silenceAmplitude: Float { Float(pow(10, silenceThreshold / 20)) }
}
