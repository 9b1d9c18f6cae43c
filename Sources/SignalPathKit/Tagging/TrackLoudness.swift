/// What ReplayGain needs of one track, from one loudness pass: its gating blocks (kept so that an
/// album's can be gated together), its integrated loudness and its peaks.
public struct TrackLoudness: Sendable {
    /// The weighted mean square of every 400 ms gating block (`Loudness.gatingBlocks`): 8 bytes per 100 ms.
    public var gatingBlocks: [Double]
    /// Integrated loudness, LUFS; nil for silence or under 400 ms.
    public var integrated: Double?
    /// The largest |sample| of any channel, linear (1 at full scale).
    public var samplePeak: Double
    /// The true peak (BS.1770-4's 4× FIR), linear.
    public var truePeak: Double

    public init(gatingBlocks: [Double], integrated: Double?, samplePeak: Double, truePeak: Double) {
        self.gatingBlocks = gatingBlocks
        self.integrated = integrated
        self.samplePeak = samplePeak
        self.truePeak = truePeak
    }

    /// Measures the whole of `file` on up to `workers` tasks.
    public static func measure(_ file: AudioFile, workers: Int, progress: (@Sendable (Double) -> Void)? = nil) async throws(SignalPathError) -> TrackLoudness {
        guard let frameCount = file.format.frames, frameCount > 0 else {
            throw .invalidRequest(path: file.path, reason: "holds no audio to measure")
        }
        guard Loudness.measurableSampleRates.contains(file.format.sampleRate) else {
            throw .invalidRequest(path: file.path, reason: "loudness is not measured at \(file.format.sampleRate) Hz")
        }
        var energy: [Double] = [], frames: [Int] = []
        let analysis = try await SignalAnalyzer(file: file, frames: 0..<frameCount, scope: .loudness)
            .run(workers: workers, progress: progress) { subBlockEnergy, subBlockFrames in
                energy.append(subBlockEnergy)
                frames.append(subBlockFrames)
            }
        let blocks = Loudness.gatingBlocks(subBlockEnergy: energy, subBlockFrames: frames)
        return TrackLoudness(
            gatingBlocks: blocks, integrated: Loudness.integrated(gatingBlocks: blocks),
            samplePeak: Double(analysis.channels.map(\.statistics.peak).max() ?? 0),
            truePeak: analysis.truePeak.isFinite ? pow(10, analysis.truePeak / 20) : 0)
    }

    /// The loudness of tracks played in a row: their gating blocks gated as one programme
    /// (ReplayGain 2.0's album gain, as rsgain and loudgain compute it); nil when none passes.
    public static func albumLoudness(_ tracks: [TrackLoudness]) -> Double? {
        Loudness.integrated(gatingBlocks: tracks.flatMap(\.gatingBlocks))
    }
}
