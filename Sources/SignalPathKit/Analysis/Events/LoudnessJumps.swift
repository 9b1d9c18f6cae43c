/// The loudness-jump rule on the in-order 100 ms sub-blocks: short-term loudness (3 s) that
/// changes by more than the limit within `EventSettings.jumpSpan`, both ends above the absolute
/// gate; consecutive triggering sub-blocks are one jump.
struct LoudnessJumps {
    struct Jump: Equatable {
        var start: Int64, end: Int64
        /// Short-term loudness before and after, LUFS.
        var from: Double, to: Double
    }

    private let limit: Double
    /// Sub-blocks between the two loudness values compared.
    private let span: Int
    private var shortTerm = ShortTermLoudness()
    private var recent: [Double?] = []
    private var open: Jump?

    init(limit: Double) {
        self.limit = limit
        span = Int((EventSettings.jumpSpan * 10).rounded())
    }

    /// Adds the next whole sub-block (`frames`, its K-weighted `energy`); `windowStart(span)` is the
    /// first frame of the sub-block `span − 1` before this one, where a jump found now starts.
    mutating func add(energy: Double, frames: Range<Int64>, windowStart: (_ span: Int) -> Int64, closed: (Jump) -> Void) {
        let value = shortTerm.add(energy: energy, frames: frames.count)
        recent.append(value)
        if recent.count > span + 1 { recent.removeFirst() }
        guard recent.count == span + 1, let before = recent[0], let now = value,
            before > Loudness.absoluteGate, now > Loudness.absoluteGate, abs(now - before) > limit
        else { return close(closed) }
        if open == nil { open = Jump(start: windowStart(span), end: frames.upperBound, from: before, to: now) }
        open?.end = frames.upperBound
        open?.to = now
    }

    /// Hands the open jump, if any, to `closed`.
    mutating func close(_ closed: (Jump) -> Void) {
        guard let jump = open else { return }
        open = nil
        closed(jump)
    }
}
