/// Short-term loudness (BS.1770-4 / EBU Tech 3341: 3 s of K-weighted energy) every 100 ms, from
/// consecutive 100 ms sub-block energies as `AnalysisWorker` and `EventWorker` make them.
///
/// Kept small and on its own so that it can move onto the `loudness` command's series type: it
/// holds the last 30 sub-blocks and nothing else.
struct ShortTermLoudness {
    private var energy: [Double]
    private var frames: [Int]
    private var next = 0
    private var filled = 0

    init() {
        energy = [Double](repeating: 0, count: Loudness.shortTermSubBlocks)
        frames = [Int](repeating: 0, count: Loudness.shortTermSubBlocks)
    }

    /// Adds one whole sub-block (Σ over channels of weight · Σ K-weighted sample², and its
    /// frames); returns the loudness of the 3 s ending with it, or nil before the first full window
    /// and for a window of digital silence.
    mutating func add(energy value: Double, frames count: Int) -> Double? {
        energy[next] = value
        frames[next] = count
        next = (next + 1) % energy.count
        filled = min(filled + 1, energy.count)
        guard filled == energy.count else { return nil }
        // Summed afresh each time, as `Loudness.blockLoudness` does: no drift over hours.
        var sum = 0.0, total = 0
        for index in 0..<energy.count {
            sum += energy[index]
            total += frames[index]
        }
        let value = Loudness.loudness(meanSquare: sum / Double(total))
        return value.isFinite ? value : nil
    }
}
