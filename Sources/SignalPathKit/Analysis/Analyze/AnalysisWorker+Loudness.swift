/// Step 6 of `AnalysisWorker`: K-weighted energy per 100 ms sub-block (`KWeighting`), two channels
/// per loop.
extension AnalysisWorker {
    /// Where a pair's K-weighting splits the chunk's frames in two, filtered side by side: the
    /// sub-block boundary nearest their middle, when each half is at least twice the filter's
    /// settling time (the second half settles from rest over the frames before it, as every chunk
    /// does). Fixed by the chunk's frames, so results do not depend on the number of workers.
    private func pairSplit(_ frames: ChunkFrames) -> Int64? {
        let settling = Int64(analyzer.weighting.settlingFrames)
        guard analyzer.measuresLoudness, frames.present.count >= 4 * settling else { return nil }
        let middle = analyzer.subBlockStart(analyzer.subBlock(containing: (frames.present.lowerBound + frames.present.upperBound) / 2))
        guard middle - settling >= frames.present.lowerBound, middle < frames.present.upperBound else { return nil }
        return middle
    }

    /// Step 6 for the pair of channels `first` and `first + 1`, split at `middle` or whole: the
    /// halves' filters run in step (`KWeighting`'s four lanes), each half's sub-blocks collected
    /// as it passes them; when one half ends, the other goes on alone. The first half (or the
    /// whole) is filtered exactly as without a split.
    private func addPairEnergy(_ first: Int, _ frames: ChunkFrames, splitAt middle: Int64?, energy: inout [Double]) {
        let weighting = analyzer.weighting, weights = analyzer.channelWeights
        typealias Segment = (frames: Range<Int64>, slot: Int?)
        // Slots count from the chunk's first sub-block; `subBlockPieces` counts from its range's.
        let firstSubBlock = analyzer.subBlock(containing: frames.present.lowerBound)
        func run(settling: Range<Int64>, _ own: Range<Int64>) -> [Segment] {
            let offset = analyzer.subBlock(containing: own.lowerBound) - firstSubBlock
            return ([(settling, nil)] + analyzer.subBlockPieces(own).map { ($0.frames, Optional($0.slot + offset)) }).filter { !$0.frames.isEmpty }
        }
        let chunkSettling = frames.loaded.lowerBound..<frames.own.lowerBound
        let runs =
            middle.map { middle in
                [
                    run(settling: chunkSettling, frames.present.lowerBound..<middle),
                    run(settling: (middle - Int64(weighting.settlingFrames))..<middle, middle..<frames.present.upperBound),
                ]
            } ?? [run(settling: chunkSettling, frames.present)]
        var next = [Int](repeating: 0, count: runs.count)
        var position = runs.map { $0.first?.frames.lowerBound ?? 0 }
        var state = KWeighting.QuadState(low: KWeighting.PairState(), high: KWeighting.PairState())
        var sums = SIMD4<Double>()
        // Closes segment `next[half]` of its run when the filter has passed its end.
        func passed(_ half: Int, pair: SIMD2<Double>) -> Bool {
            let segment = runs[half][next[half]]
            guard position[half] == segment.frames.upperBound else { return false }
            if let slot = segment.slot { energy[slot] += weights[first] * pair[0] + weights[first + 1] * pair[1] }
            next[half] += 1
            if next[half] < runs[half].count { position[half] = runs[half][next[half]].frames.lowerBound }
            return true
        }
        while runs.count == 2 && next[0] < runs[0].count && next[1] < runs[1].count {
            let count = min(runs[0][next[0]].frames.upperBound - position[0], runs[1][next[1]].frames.upperBound - position[1])
            let (a, b) = (position[0]..<position[0] + count, position[1]..<position[1] + count)
            weighting.filter(
                samples(first, a, frames), samples(first + 1, a, frames), samples(first, b, frames), samples(first + 1, b, frames),
                state: &state, adding: &sums)
            position[0] += count
            position[1] += count
            if passed(0, pair: sums.lowHalf) { sums.lowHalf = SIMD2() }
            if passed(1, pair: sums.highHalf) { sums.highHalf = SIMD2() }
        }
        for half in runs.indices where next[half] < runs[half].count {
            var pair = half == 0 ? state.low : state.high
            var pairSums = half == 0 ? sums.lowHalf : sums.highHalf
            while next[half] < runs[half].count {
                let piece = position[half]..<runs[half][next[half]].frames.upperBound
                weighting.filter(samples(first, piece, frames), samples(first + 1, piece, frames), state: &pair, adding: &pairSums)
                position[half] = piece.upperBound
                if passed(half, pair: pairSums) { pairSums = SIMD2() }
            }
        }
    }

    /// Step 6: K-weighted energy per sub-block, summed over channels with their BS.1770 weights.
    /// Each filter starts from rest at the start of the settling frames. Two channels per loop
    /// where there are two: their filter chains are independent, so one loop runs both in about
    /// the time of one.
    func addWeightedEnergy(_ frames: ChunkFrames, energy: inout [Double]) {
        let weighting = analyzer.weighting, weights = analyzer.channelWeights
        let settling = frames.loaded.lowerBound..<frames.own.lowerBound
        let middle = pairSplit(frames)
        for first in stride(from: 0, to: channels, by: 2) {
            if first + 1 < channels {
                addPairEnergy(first, frames, splitAt: middle, energy: &energy)
            } else {
                var state = KWeighting.State()
                _ = weighting.filter(samples(first, settling, frames), state: &state)
                for (piece, slot) in analyzer.subBlockPieces(frames.present) {
                    energy[slot] += weights[first] * weighting.filter(samples(first, piece, frames), state: &state)
                }
            }
        }
    }
}
