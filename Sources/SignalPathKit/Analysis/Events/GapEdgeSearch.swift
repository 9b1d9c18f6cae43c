/// Where a channel's level drops sharply below the sound before it, or comes back sharply to sound
/// after a quiet stretch: the two edges of a gap, found to the sample (docs/EVENTS.md, "Gaps
/// inside sound"). The combiner pairs them.
struct GapEdge: Sendable, Equatable {
    enum Kind: Sendable { case fall, rise }
    var kind: Kind
    /// A fall's first quiet frame, or the first frame of sound after a rise (relative to the range).
    var frame: Int64
    /// Mean square of the 10 ms before a fall, or after a rise.
    var flank: Double
    /// Mean square of the 1 ms inside the gap next to the edge.
    var window: Double
    /// The nearest 1 ms block boundary on the gap's side, and Σ x² between it and the edge.
    var boundary: Int64
    var partial: Double
}

/// Finds one channel's gap edges among a chunk's frames.
///
/// A fall is at frame p when the 1 ms from p is `gapDepth` below the 10 ms before p, that 10 ms is
/// sound, and p − 1 is not such a frame; a rise is at r when the 1 ms before r is `gapDepth` below
/// the 10 ms from r and `gapHold` below the 1 ms from r, that 10 ms is sound, and r + 1 is not
/// such a frame. The combiner takes the first fall and the first rise after it: a fall cannot
/// come late (inside a gap the 10 ms before is quiet), but without the step a quiet moment of what
/// a gap holds would pass for its rise once the sound after it is within 10 ms. Each test reads only the
/// frames around its position, summed in one fixed order, so a chunk finds the same edges among
/// its frames whatever its neighbours are: the events do not depend on the chunking.
///
/// Testing every frame would cost a sum of 11 ms of squares per sample. A coarse pass of half
/// windows finds the only places a test can pass — a half window holds at most the energy of the
/// 1 ms window that contains it, and the 11 ms next to it at least that of the flank — and only
/// there are the frames tested.
struct GapEdgeSearch {
    let samples: UnsafePointer<Float>
    /// The frame of `samples[0]`, and the end of the loaded frames (relative to the range).
    let base: Int64
    let available: Int64
    let present: Range<Int64>
    let flankFrames: Int
    let gapFrames: Int
    /// Mean squares: the least "sound", and the largest ratio of window to flank.
    let sound: Double
    let depth: Double
    /// How far the 1 ms after a rise lies above the 1 ms before it, at least (a power ratio).
    let step: Double
    let blockStart: (Int) -> Int64
    let block: (Int64) -> Int

    static func coarseFrames(gapFrames: Int) -> Int { max(1, gapFrames / 2) }

    /// Frames a chunk must load on each side of its own for the search.
    static func reach(flankFrames: Int, gapFrames: Int) -> Int { flankFrames + gapFrames + 2 * coarseFrames(gapFrames: gapFrames) + 2 }

    func edges() -> [GapEdge] {
        guard !present.isEmpty else { return [] }
        let (falls, rises) = candidates()
        var found: [GapEdge] = []
        for interval in merged(falls) {
            for frame in interval.lowerBound + 1...interval.upperBound where present.contains(frame) && fallsAt(frame) && !fallsAt(frame - 1) {
                found.append(fall(at: frame))
            }
        }
        for interval in merged(rises) {
            for frame in interval.lowerBound..<interval.upperBound where present.contains(frame) && risesAt(frame) && !risesAt(frame + 1) {
                found.append(rise(at: frame))
            }
        }
        return found.sorted { $0.frame < $1.frame }
    }

    // MARK: The tests at one frame

    private func squares(_ frames: Range<Int64>) -> Double {
        EventWorker.sumOfSquares(samples + Int(frames.lowerBound - base), count: frames.count)
    }

    /// Whether the gap's frames and its flank are loaded: at the range's ends they are not there.
    private func loaded(_ frames: Range<Int64>) -> Bool { frames.lowerBound >= max(0, base) && frames.upperBound <= available }

    func fallsAt(_ frame: Int64) -> Bool {
        let flank = frame - Int64(flankFrames)..<frame, window = frame..<frame + Int64(gapFrames)
        guard loaded(flank.lowerBound..<window.upperBound) else { return false }
        let before = squares(flank)
        guard before >= sound * Double(flankFrames) else { return false }
        return squares(window) * Double(flankFrames) <= depth * Double(gapFrames) * before
    }

    func risesAt(_ frame: Int64) -> Bool {
        let window = frame - Int64(gapFrames)..<frame, flank = frame..<frame + Int64(flankFrames)
        guard loaded(window.lowerBound..<flank.upperBound) else { return false }
        let after = squares(flank)
        guard after >= sound * Double(flankFrames) else { return false }
        let inside = squares(window)
        return inside * Double(flankFrames) <= depth * Double(gapFrames) * after && inside <= step * squares(frame..<frame + Int64(gapFrames))
    }

    private func fall(at frame: Int64) -> GapEdge {
        let index = block(frame)
        let boundary = blockStart(index) == frame ? frame : blockStart(index + 1)
        return GapEdge(
            kind: .fall, frame: frame, flank: squares(frame - Int64(flankFrames)..<frame) / Double(flankFrames),
            window: squares(frame..<frame + Int64(gapFrames)) / Double(gapFrames), boundary: boundary, partial: squares(frame..<boundary))
    }

    private func rise(at frame: Int64) -> GapEdge {
        let boundary = blockStart(block(frame))
        return GapEdge(
            kind: .rise, frame: frame, flank: squares(frame..<frame + Int64(flankFrames)) / Double(flankFrames),
            window: squares(frame - Int64(gapFrames)..<frame) / Double(gapFrames), boundary: boundary, partial: squares(boundary..<frame))
    }

    // MARK: Where the tests can pass

    /// Ranges of frames to test (each with the frame before a fall's first, or after a rise's last).
    private func candidates() -> (falls: [ClosedRange<Int64>], rises: [ClosedRange<Int64>]) {
        let coarse = Int64(Self.coarseFrames(gapFrames: gapFrames)), window = Int64(gapFrames), flank = Int64(flankFrames)
        let reach = window + flank + 2 * coarse
        let start = max(base, max(0, present.lowerBound - reach)), end = min(available, present.upperBound + reach)
        guard end - start >= coarse else { return ([], []) }
        let count = Int((end - start + coarse - 1) / coarse)
        // Prefix sums of the coarse blocks' squares: the flanks' upper bounds.
        var prefix = [Double](repeating: 0, count: count + 1)
        var energy = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let lower = start + Int64(index) * coarse
            energy[index] = squares(lower..<min(end, lower + coarse))
            prefix[index + 1] = prefix[index] + energy[index]
        }
        func blockIndex(_ frame: Int64) -> Int { Int((frame - start) / coarse) }
        // A flank holds no more than the blocks around it, which must hold sound; a little slack,
        // as the bounds hold exactly but their sums in another order may differ by ulps.
        let ratio = depth * Double(window) / Double(flank) * 1.01, least = sound * Double(flank) * 0.99
        var falls: [ClosedRange<Int64>] = [], rises: [ClosedRange<Int64>] = []
        for index in 0..<count {
            let lower = start + Int64(index) * coarse
            guard lower + coarse <= end else { break }
            let upper = lower + coarse
            // Falls at p ∈ [upper − window, lower] have this block in their window and their flank in [lower − window − flank, lower).
            let before = prefix[index] - prefix[max(0, blockIndex(max(start, lower - window - flank)))]
            if before >= least, energy[index] <= ratio * before { falls.append(upper - window - 1...lower) }
            // Rises at r ∈ [upper, lower + window] have it in their window and their flank in [upper, lower + window + flank).
            let last = min(count, blockIndex(min(end - 1, lower + window + flank)) + 1)
            let after = prefix[last] - prefix[index + 1]
            if after >= least, energy[index] <= ratio * after { rises.append(upper...lower + window + 1) }
        }
        return (falls, rises)
    }

    private func merged(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
        var result: [ClosedRange<Int64>] = []
        for range in ranges {
            if let last = result.last, range.lowerBound <= last.upperBound + 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
