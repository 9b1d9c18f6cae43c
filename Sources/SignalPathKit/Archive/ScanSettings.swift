/// What a scan does to each file, and the key that says so in every row.
public struct ScanSettings: Sendable {
    public var analysis: AnalysisSettings
    /// The rules of `--profile` (a `check` verdict per file), or nil.
    public var rules: DeliveryRules?
    /// Runs the events pass too (`--events`).
    public var findsEvents: Bool
    /// Stores each file's SHA-256 and recognises moved files by it (`--content-hash`).
    public var hashesContent: Bool
    /// Files analysed side by side; each file's chunks also run on up to this many workers.
    public var jobs: Int
    /// Analyses again the unchanged files whose rows were made with other settings (`--rescan`);
    /// without it their rows are kept as they are.
    public var rescansOtherSettings: Bool

    public init(analysis: AnalysisSettings, rules: DeliveryRules?, findsEvents: Bool, hashesContent: Bool, jobs: Int, rescansOtherSettings: Bool = false) {
        self.analysis = analysis
        self.rules = rules
        self.findsEvents = findsEvents
        self.hashesContent = hashesContent
        self.jobs = jobs
        self.rescansOtherSettings = rescansOtherSettings
    }

    /// Every setting that changes a stored result, as text: a row is reused only under the same
    /// key, and `merge` refuses databases whose keys differ. The tool's version is not part of it
    /// (it is its own column): a new release does not make an archive be read again. The versions
    /// in it move when a release changes what a stored result means: `analyze/2` (clip events
    /// grouped as `events` groups them, tones above the spectrum's floor), `events/2` (gaps of
    /// every length). Rows of an older version are kept and said, and `--rescan` renews them.
    public var key: String {
        let analysis = self.analysis
        var parts = [
            "analyze/2", "rms=\(analysis.rmsReference.rawValue)", "silence=\(UnitFormat.shortest(analysis.silenceThreshold))",
            "clip-run=\(analysis.minimumClipRun)", "tones=\(analysis.toneCount)", "harmonics=\(analysis.highestHarmonic)",
            "fft=\(analysis.spectrum.fftSize)", "window=\(analysis.spectrum.window.name)", "a4=\(UnitFormat.shortest(analysis.a4))",
            "true-peak=\(analysis.truePeakMode.rawValue)",
        ]
        if let rules {
            parts.append("check=\(rules.profile?.name ?? "custom")")
            parts.append("target=\(rules.target.map { UnitFormat.shortest($0) } ?? "-")±\(rules.tolerance.map { UnitFormat.shortest($0) } ?? "-")")
            if let mono = rules.monoTarget { parts.append("mono-target=\(UnitFormat.shortest(mono))") }
            let peakTolerance = rules.truePeakTolerance > 0 ? "+" + UnitFormat.shortest(rules.truePeakTolerance) : ""
            parts.append("max-true-peak=\(rules.maximumTruePeak.map { UnitFormat.shortest($0) } ?? "-")" + peakTolerance)
        }
        if findsEvents { parts.append("events/2") }
        // Identity columns (`--md5`, `--fingerprint`): extras, as a verdict is (ScanSettings+Coverage).
        if analysis.computesAudioMD5 { parts.append("md5") }
        if let seconds = analysis.fingerprintSeconds { parts.append("fingerprint=\(UnitFormat.shortest(seconds))") }
        return parts.joined(separator: ";")
    }
}
