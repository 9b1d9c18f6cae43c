/// The DC rule on one channel's 100 ms sums, in order: a span opens where the mean over 1 s is
/// above the limit and steady, and runs from the first to the last 100 ms block of such windows
/// whose own mean is above it (docs/EVENTS.md). Spans less than 1 s apart are one span, as
/// clipping runs less than 10 ms apart are one event: a span that closes is held until no window
/// can reopen it, so one stretch of offset is one row however its qualifying windows fall.
struct DCOffsetSpans {
    struct Span: Equatable {
        var start: Int64
        var end: Int64
        /// Σ x and frames from the start to the last block above the limit.
        var sum: Double
        var frames: Int64
        var mean: Double { sum / Double(max(1, frames)) }
    }

    private struct Block {
        var sum: Double
        var frames: Int64
        var start: Int64
        var end: Int64 { start + frames }
        var mean: Double { sum / Double(frames) }
    }

    private let limit: Double
    private let windowBlocks: Int
    private var window: [Block] = []
    private var open: Span?
    /// Σ x and frames past the open span's last strong block, or past the closed span's end.
    private var pendingSum = 0.0, pendingFrames: Int64 = 0
    /// The last span closed, not yet written.
    private var closed: Span?

    init(limit: Double) {
        self.limit = limit
        windowBlocks = Int((EventSettings.dcWindow * 10).rounded())
    }

    /// The end of a span decided but held back: nothing ending later may be written before it.
    var heldEnd: Int64? { closed?.end }

    mutating func step(_ frames: Range<Int64>, sum: Double, found: (Span) -> Void) {
        let block = Block(sum: sum, frames: Int64(frames.count), start: frames.lowerBound)
        window.append(block)
        if window.count > windowBlocks { window.removeFirst() }
        pendingSum += sum
        pendingFrames += block.frames
        let strong = abs(block.mean) > limit
        let mean = window.reduce(0) { $0 + $1.sum } / Double(window.reduce(0) { $0 + $1.frames })
        // A DC offset is steady: sub-audio content (pink noise, rumble) moves a 1 s mean as far,
        // but not steadily (docs/EVENTS.md has the measurement behind the ±50 %).
        let steady = window.allSatisfy { abs($0.mean - mean) <= EventSettings.dcSteadiness * abs(mean) }
        let flagged = window.count == windowBlocks && abs(mean) > limit && steady
        if var span = open {
            if strong { span.extend(to: block.end, adding: &pendingSum, &pendingFrames) }
            open = span
            if !flagged { close() }
        } else if flagged, let first = window.firstIndex(where: { abs($0.mean) > limit }) {
            reopen(from: first, found: found)
        }
        // No window can reach back to within 1 s of the closed span any more.
        if let span = closed, let earliest = window.first, earliest.start > span.end + window.reduce(0, { $0 + $1.frames }) {
            found(span)
            closed = nil
        }
    }

    mutating func finish(found: (Span) -> Void) {
        close()
        if let span = closed { found(span) }
        closed = nil
    }

    /// Opens a span at the window's block `first`, or goes on with the span closed last.
    private mutating func reopen(from first: Int, found: (Span) -> Void) {
        let last = window.lastIndex { abs($0.mean) > limit }!
        // Σ x of the window's blocks after its last strong one: they stay pending.
        let after = window[(last + 1)...].reduce((0.0, Int64(0))) { ($0.0 + $1.sum, $0.1 + $1.frames) }
        if var span = closed {
            closed = nil
            if window[first].start <= span.end + window.reduce(0, { $0 + $1.frames }) {
                pendingSum -= after.0
                pendingFrames -= after.1
                span.extend(to: window[last].end, adding: &pendingSum, &pendingFrames)
                pendingSum = after.0
                pendingFrames = after.1
                open = span
                return
            }
            found(span)
        }
        var span = Span(start: window[first].start, end: window[first].start, sum: 0, frames: 0)
        var sum = 0.0, frames: Int64 = 0
        for index in first...last {
            sum += window[index].sum
            frames += window[index].frames
        }
        span.extend(to: window[last].end, adding: &sum, &frames)
        pendingSum = after.0
        pendingFrames = after.1
        open = span
    }

    private mutating func close() {
        guard let span = open else { return }
        open = nil
        closed = span
    }
}

extension DCOffsetSpans.Span {
    /// Takes in what lay pending up to a new last strong block.
    fileprivate mutating func extend(to end: Int64, adding sum: inout Double, _ frames: inout Int64) {
        self.end = end
        self.sum += sum
        self.frames += frames
        sum = 0
        frames = 0
    }
}
