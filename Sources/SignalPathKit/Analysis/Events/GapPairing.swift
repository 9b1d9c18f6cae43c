/// Pairs each channel's gap edges in frame order: a fall opens a gap, a rise closes it, and the
/// 1 ms blocks between them must stay down (docs/EVENTS.md, "Gaps inside sound"). Fed by
/// `EventCombiner` on the merging task, so its state is changed in place, block after block.
struct GapPairing {
    /// A gap found: its channel and frames, and its mean square.
    struct Gap: Equatable {
        var channel: Int
        var frames: Range<Int64>
        var meanSquare: Double
        /// How far (dB) its mean level lies below the quieter of the 10 ms on either side.
        var depth: Double
    }

    private struct Open {
        var fall: GapEdge
        /// Σ x² of the whole blocks inside the gap so far.
        var squares = 0.0
    }

    private let depth: Double
    private let hold: Double
    /// Each channel's edges not yet reached, in frame order.
    private var pending: [[GapEdge]]
    private var open: [Open?]

    init(channels: Int) {
        depth = pow(10, -EventSettings.gapDepth / 10)
        hold = pow(10, -EventSettings.gapHold / 10)
        pending = [[GapEdge]](repeating: [], count: channels)
        open = [Open?](repeating: nil, count: channels)
    }

    /// Where the channel's open gap starts, if one is open.
    func openStart(_ channel: Int) -> Int64? { open[channel]?.fall.frame }

    /// A merged chunk's edges, per channel, after those of the chunks before it.
    mutating func add(_ edges: [[GapEdge]]) {
        for (channel, list) in edges.enumerated() { pending[channel].append(contentsOf: list) }
    }

    /// One 1 ms block of one channel: the edges up to its start are taken first; a block wholly
    /// inside an open gap then adds to its sum, or ends it when the level has come back.
    mutating func block(_ frames: Range<Int64>, channel: Int, squares: Double, found: (Gap) -> Void) {
        take(upTo: frames.lowerBound, channel: channel, found: found)
        guard var gap = open[channel], frames.lowerBound >= gap.fall.boundary else { return }
        // A block the gap's rise falls inside is sound in part: the rise's own sum counts its quiet part.
        if pending[channel].prefix(while: { $0.frame < frames.upperBound }).contains(where: { $0.kind == .rise }) { return }
        if squares > gap.fall.flank * hold * Double(frames.count) {
            open[channel] = nil
            return
        }
        gap.squares += squares
        open[channel] = gap
    }

    /// The edges left at the end of the input.
    mutating func finish(found: (Gap) -> Void) {
        for channel in pending.indices { take(upTo: .max, channel: channel, found: found) }
    }

    private mutating func take(upTo frame: Int64, channel: Int, found: (Gap) -> Void) {
        var taken = 0
        for edge in pending[channel] {
            guard edge.frame <= frame else { break }
            taken += 1
            switch edge.kind {
            case .fall:
                // A second fall inside an open gap changes nothing: the level before the first is the reference.
                if open[channel] == nil { open[channel] = Open(fall: edge) }
            case .rise:
                if let gap = open[channel], let decided = judge(gap, rise: edge, channel: channel) { found(decided) }
                open[channel] = nil
            }
        }
        pending[channel].removeFirst(taken)
    }

    /// A gap whose mean level lies `gapDepth` below the sound on both sides.
    private func judge(_ gap: Open, rise: GapEdge, channel: Int) -> Gap? {
        let fall = gap.fall
        guard rise.frame > fall.frame else { return nil }
        let meanSquare: Double
        if fall.boundary <= rise.boundary {
            meanSquare = (fall.partial + gap.squares + rise.partial) / Double(rise.frame - fall.frame)
        } else {
            // Inside one block: the two edge windows cover the gap.
            meanSquare = max(fall.window, rise.window)
        }
        let reference = min(fall.flank, rise.flank)
        guard meanSquare <= depth * reference else { return nil }
        return Gap(
            channel: channel, frames: fall.frame..<rise.frame, meanSquare: meanSquare,
            depth: meanSquare > 0 ? 10 * log10(reference / meanSquare) : .infinity)
    }
}
