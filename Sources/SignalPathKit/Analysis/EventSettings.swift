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
    /// Dropouts: a run of one value lasts at least this long (seconds).
    public static let minimumDropout = 0.001
    /// Dropouts: the level each side of the gap is measured over this long (seconds).
    public static let flankLength = 0.010
    /// Dropouts: "sound" on a side is at least this far above the silence threshold (dB).
    public static let soundAboveSilence = 20.0
    /// Dropouts: the sound goes on right up to the run on both sides: the RMS of the `edgeLength`
    /// next to it is at least this fraction of the RMS of the 10 ms. Measured on espeak-ng
    /// speech, whose stop closures are runs of exact zero 11–425 ms long with speech at about
    /// −25 dBFS on both sides: the voice decays into each closure or grows out of it (its last
    /// or first samples lie 10–60 dB below the speech around it), where an interruption cuts
    /// the waveform at its level. (A rule on the single sample next to the run missed a third of
    /// the gaps cut into noise: a noise sample is small as often as that.)
    public static let minimumEdge = 0.5
    public static let edgeLength = 0.002
    /// Dropouts: and the step into and out of the run is at least this fraction of that RMS.
    public static let minimumStep = 0.25
    /// Collapses: the level falls at least this far (dB) below the 10 ms before …
    public static let collapseDepth = 40.0
    /// … and comes back within this long (seconds).
    public static let maximumCollapse = 0.200
    /// DC offset is the mean over this long (seconds), every 100 ms.
    public static let dcWindow = 1.0
    /// Loudness jumps compare short-term loudness this far apart (seconds).
    public static let jumpSpan = 1.0

    public init() {}

    /// The silence threshold as an amplitude.
    var silenceAmplitude: Float { Float(pow(10, silenceThreshold / 20)) }
}
