/// How the true peak is measured: which reconstruction of the continuous signal its peak is read from.
public enum TruePeakMode: String, Sendable, CaseIterable {
    /// ITU-R BS.1770-4 Annex 2: 4× with the Recommendation's 48-tap FIR. Conformant, and what
    /// meters agree on; it under-reads band-limited peaks near 0.45·fs by up to ~0.5 dB.
    case bs1770
    /// `OversamplingInterpolator`: a flat passband to 0.45·fs and 8× with a parabolic fit at each
    /// local maximum; within 0.1 dB of the continuous-time peak of band-limited signals.
    case accurate

    /// The rule, for `conventions`.
    public var description: String {
        switch self {
        case .bs1770:
            return "ITU-R BS.1770-4 Annex 2: 4× oversampling with the 48-tap FIR of the Recommendation; never below the sample peak"
        case .accurate:
            return "8× oversampling (three half-band stages of 40, 8 and 4 taps, Kaiser-windowed) flat within ±0.01 dB to 0.45·fs, "
                + "−6 dB at 0.5·fs, images from 0.55·fs down ≥ 60 dB; a parabola through each local maximum and its neighbours; "
                + "never below the sample peak. Material with energy near fs/2 (hard clipping) reads by its reconstruction filter"
        }
    }
}
