/// What `SignalAnalyzer` measures and by which conventions.
public struct AnalysisSettings: Sendable, Equatable {
    /// The averaged spectrum behind tones, distortion and the spectral summary. Kaiser β = 20 has
    /// side lobes near −190 dB, so a tone's leakage does not pass for noise even with 24-bit audio.
    public var spectrum = SpectrumParameters(fftSize: 8192, window: .kaiser(beta: 20), overlap: 0.5)
    public var rmsReference = RMSReference.square
    /// Samples below this (dBFS, magnitude) are silence.
    public var silenceThreshold = -60.0
    /// Runs of at least this many consecutive full-scale samples are clipping.
    public var minimumClipRun = 3
    /// Strongest tones reported.
    public var toneCount = 5
    /// Harmonics up to this order count in THD.
    public var highestHarmonic = 10
    /// Reference pitch for note names.
    public var a4 = 440.0
    /// How the true peak is read: BS.1770's 4× FIR (conformant) or the accurate interpolator.
    public var truePeakMode = TruePeakMode.bs1770
    /// Whether authenticity searches for a coder's frame grid (rule 7 of docs/AUTHENTICITY.md): a
    /// fixed few milliseconds of one core per picking (`FrameGridProbe`), which `scan`, over many
    /// short files, leaves out (docs/DECISIONS.md#frame-grid-cost).
    public var searchesFrameGrid = true
    /// Whether the pass computes the audio MD5 (`AudioMD5`): one sequential MD5 over all the
    /// samples, so only when asked (`analyze --md5`).
    public var computesAudioMD5 = false
    /// Seconds from the start that the Chromaprint fingerprint covers; nil for none (`AudioFingerprint`).
    public var fingerprintSeconds: Double? = nil
    /// A tone stands at least this many dB above the median of the spectrum around it.
    public static let toneProminence = 10.0
    /// The noise floor is this percentile of the 100 ms blocks' RMS (digital silence left out).
    public static let noiseFloorPercentile = 0.10

    public init() {}
}

/// What an RMS of 0 dBFS means.
public enum RMSReference: String, Sendable, CaseIterable {
    /// A full-scale square wave reads 0 dBFS, a full-scale sine −3.01 (sox, ffmpeg, Audacity).
    case square
    /// A full-scale sine reads 0 dBFS (AES17), a full-scale square +3.01.
    case sine

    /// Added to 20·log10(RMS).
    public var offset: Double { self == .square ? 0 : 3.0103 }

    public var description: String {
        self == .square ? "full-scale square wave = 0 dBFS (sine reads -3.01)" : "full-scale sine = 0 dBFS (AES17)"
    }
}
