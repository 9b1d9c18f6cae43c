/// Step 3 of `AnalysisWorker`: each channel's level statistics (`LevelStatistics`), and the rules
/// they are counted by, from the file's sample format.
extension AnalysisWorker {
    /// How the file's samples are counted: full scale, clip runs, silence, bits.
    static func levelRules(_ analyzer: SignalAnalyzer) -> LevelStatistics.Rules {
        LevelStatistics.Rules(
            fullScale: analyzer.file.format.sampleFormat.fullScale,
            minimumClipRun: analyzer.settings.minimumClipRun,
            // Clipping events as `events` groups its runs (EventCombiner's gap, in frames).
            clipEventGap: Int((EventSettings.clipMergeGap * Double(analyzer.file.format.sampleRate)).rounded()),
            silenceThreshold: Float(pow(10, analyzer.settings.silenceThreshold / 20)),
            finestBitExponent: analyzer.file.format.sampleFormat.finestBitExponent,
            samplesAreFinite: true)  // zeroNonFinite runs first
    }

    /// Step 3: the channel's level statistics over its own frames, and each 100 ms sub-block's
    /// Σ sample² added to `squares` (per sub-block and channel, channel fastest).
    func measureLevels(_ channel: Int, _ frames: ChunkFrames, squares: inout [Double]) -> LevelStatistics {
        var levels = LevelStatistics()
        let rangeStart = analyzer.frames.lowerBound
        for (piece, slot) in analyzer.subBlockPieces(frames.present) {
            squares[slot * channels + channel] += levels.accumulate(samples(channel, piece, frames), firstFrame: rangeStart + piece.lowerBound, rules: rules)
        }
        return levels
    }
}
