/// How a spectrum is computed: FFT and window sizes, window, overlap, averaging.
public struct SpectrumParameters: Sendable, Equatable {
    /// Points per FFT (even, 16…2²²). Larger than `windowSize` means zero-padding.
    public var fftSize: Int
    /// Samples per segment, ≤ `fftSize`.
    public var windowSize: Int
    public var window: Window
    /// Fraction of a segment shared with the next, 0 ≤ overlap < 1 (0.5 = 50 %).
    public var overlap: Double
    public var averaging: Averaging

    public static let fftSizeRange = 16...(1 << 22)

    public init(
        fftSize: Int = 4096, windowSize: Int? = nil, window: Window = .hann, overlap: Double = 0.5,
        averaging: Averaging = .mean
    ) {
        self.fftSize = fftSize
        self.windowSize = windowSize ?? fftSize
        self.window = window
        self.overlap = overlap
        self.averaging = averaging
    }

    /// Frames from one segment's start to the next's.
    public var hop: Int { max(1, windowSize - Int((overlap * Double(windowSize)).rounded())) }

    /// The parameters for `frames` (a range ending at `Int64.max` is a stream of unknown length):
    /// a range shorter than the window is one segment, the window shrunk to it and zero-padded to
    /// the FFT size.
    public func fitted(to frames: Range<Int64>) -> SpectrumParameters {
        guard frames.upperBound != Int64.max, Int64(windowSize) > Int64(frames.count) else { return self }
        var fitted = self
        fitted.windowSize = max(2, Int(frames.count))
        return fitted
    }

    /// The FFT size for a wanted bin width: the smallest even size of the form 2^a·3^b·5^c (fast in
    /// FFTW) whose bins are no wider than `binWidth` Hz, within `fftSizeRange`.
    public static func fftSize(forBinWidth binWidth: Double, sampleRate: Int) -> Int {
        let wanted = max(Double(fftSizeRange.lowerBound), (Double(sampleRate) / binWidth).rounded(.up))
        var size = Int(min(wanted, Double(fftSizeRange.upperBound)))
        while size < fftSizeRange.upperBound && !(size % 2 == 0 && isSmooth(size)) { size += 1 }
        return size
    }

    private static func isSmooth(_ value: Int) -> Bool {
        var rest = value
        for factor in [2, 3, 5] { while rest % factor == 0 { rest /= factor } }
        return rest == 1
    }
}

/// How segments' spectra are combined over a range.
public enum Averaging: String, Sendable, CaseIterable {
    /// Mean of power (Welch's method).
    case mean
    /// Per-bin maximum: peak hold.
    case max
    /// Per-bin minimum.
    case min
    /// Per-bin median of power, divided by the median's bias for χ²₂ noise (as scipy does), so that
    /// on noise it estimates the mean; robust against transients.
    case median
}

/// The unit of a spectrum's values.
public enum SpectrumScale: String, Sendable, CaseIterable {
    /// Amplitude in dB re full scale, single-sided, corrected for the window's coherent gain: a sine
    /// of amplitude A on a bin centre reads 20·log10(A) (full scale 0.00, half scale −6.02).
    case dbfs
    /// Power spectral density in dB re 1 FS²/Hz, ENBW-corrected (scipy.signal.welch, scaling='density').
    case psd
    /// Power in dB re 1 FS² (scipy's scaling='spectrum'): a full-scale sine reads −3.01 dB.
    case power
    /// Linear amplitude in full-scale units: a full-scale sine reads 1.0.
    case linear

    /// True for the dB scales.
    public var isDecibels: Bool { self != .linear }

    /// What 0 dB (or 1.0) means, for people and for machine output.
    public var reference: String {
        switch self {
        case .dbfs: return "dB re full scale: a full-scale sine on a bin centre reads 0 dBFS"
        case .psd: return "dB re 1 FS²/Hz (power spectral density, ENBW-corrected)"
        case .power: return "dB re 1 FS² (a full-scale sine reads -3.01 dB)"
        case .linear: return "linear amplitude, full-scale sine = 1"
        }
    }

    /// The suffix of CSV column names: `left_dbfs`.
    public var unitSuffix: String {
        switch self {
        case .dbfs: return "dbfs"
        case .psd: return "db_re_fs2_per_hz"
        case .power: return "db_re_fs2"
        case .linear: return "fs"
        }
    }
}
