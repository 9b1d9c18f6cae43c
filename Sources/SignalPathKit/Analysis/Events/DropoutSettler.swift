/// Dropouts found by the two gap rules, held until they can no longer grow, so that each gap is
/// one row: what the rules find on one channel within 1 ms of each other is one gap (a run of
/// zeros broken by a sample of dither, and the fall around it); a gap that every channel shares
/// alike (starts and ends within 1 ms) is one row of all channels; and a gap that a silence row
/// already covers is not listed again.
struct DropoutSettler {
    /// What a gap holds.
    enum Content: Equatable {
        case zero
        /// A run of one value other than zero, at this level (dBFS).
        case held(level: Double)
        /// A fall this far (dB) below the sound around it, to this level (dBFS; nil for zero).
        case fall(depth: Double, level: Double?)

        var level: Double? {
            switch self {
            case .zero: return nil
            case .held(let level): return level
            case .fall(_, let level): return level
            }
        }

        /// What a gap made of both holds: a fall over a run found inside it is a fall.
        func joined(_ other: Content) -> Content {
            switch (self, other) {
            case (.zero, .zero): return .zero
            case (.held(let a), .held(let b)): return .held(level: max(a, b))
            case (.zero, .held), (.held, .zero): return .held(level: level ?? other.level!)
            case (.fall(let a, _), .fall(let b, _)): return .fall(depth: min(a, b), level: Self.louder(level, other.level))
            case (.fall(let depth, _), _), (_, .fall(let depth, _)): return .fall(depth: depth, level: Self.louder(level, other.level))
            }
        }

        func alike(_ other: Content) -> Bool {
            switch (self, other) {
            case (.zero, .zero), (.held, .held), (.fall, .fall): return true
            default: return false
            }
        }

        /// Words after the gap's length.
        var words: String {
            switch self {
            case .zero: return "of digital zero inside sound"
            case .held(let level): return "of one repeated value (\(UnitFormat.fixed(level, 1)) dBFS) inside sound"
            case .fall(let depth, nil) where depth == .infinity: return "of digital zero inside sound"
            case .fall(let depth, _): return "at \(UnitFormat.fixed(depth, 1)) dB below the sound around it"
            }
        }

        static func louder(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b else { return a ?? b }
            return max(a, b)
        }
    }

    struct Candidate: Equatable {
        /// Nil once it stands for every channel.
        var channel: Int?
        var frames: Range<Int64>
        var content: Content
        /// Edges found to the sample (a run of one value), which stand where another finding's
        /// edge lies within 1 ms of them.
        var exactStart: Bool
        var exactEnd: Bool
    }

    private let channels: Int
    /// How far apart two findings may be for one gap (1 ms).
    private let tolerance: Int64
    private var pending: [Candidate] = []
    private var silences: [Range<Int64>] = []

    init(channels: Int, tolerance: Int64) {
        self.channels = channels
        self.tolerance = tolerance
    }

    /// The end of the earliest candidate held: nothing ending later may be written before it.
    var earliestEnd: Int64? { pending.lazy.map(\.frames.upperBound).min() }

    mutating func add(_ candidate: Candidate) {
        var merged = candidate
        let tolerance = self.tolerance
        pending.removeAll { other in
            guard other.channel == candidate.channel, other.frames.lowerBound <= merged.frames.upperBound + tolerance,
                merged.frames.lowerBound <= other.frames.upperBound + tolerance
            else { return false }
            merged = Self.joined(merged, other, tolerance: tolerance)
            return true
        }
        pending.append(merged)
    }

    /// One gap from two findings of it: the outer edges, except where an exact edge and an
    /// estimated one agree within the tolerance.
    private static func joined(_ a: Candidate, _ b: Candidate, tolerance: Int64) -> Candidate {
        var joined = a
        joined.content = a.content.joined(b.content)
        func edge(_ a: Int64, _ aExact: Bool, _ b: Int64, _ bExact: Bool, outer: (Int64, Int64) -> Int64) -> (Int64, Bool) {
            if abs(a - b) <= tolerance, aExact != bExact { return aExact ? (a, true) : (b, true) }
            let chosen = outer(a, b)
            return (chosen, chosen == a ? aExact : bExact)
        }
        let (lower, lowerExact) = edge(a.frames.lowerBound, a.exactStart, b.frames.lowerBound, b.exactStart, outer: min)
        let (upper, upperExact) = edge(a.frames.upperBound, a.exactEnd, b.frames.upperBound, b.exactEnd, outer: max)
        joined.frames = lower..<upper
        joined.exactStart = lowerExact
        joined.exactEnd = upperExact
        // A run that is the whole gap says what it holds.
        for run in [a, b] where run.frames == joined.frames && run.exactStart && run.exactEnd { joined.content = run.content }
        return joined
    }

    /// A silence row (every channel below the threshold).
    mutating func addSilence(_ frames: Range<Int64>) { silences.append(frames) }

    /// Settles the candidates that can no longer change: those ending by `horizon` (when every
    /// channel's findings near them are in), unless `growing` says something still open on their
    /// channel may yet join them, or a silence still open (from `openSilence`) may cover them.
    mutating func settle(upTo horizon: Int64, openSilence: Int64?, growing: (Int, Int64) -> Bool, emit: (Candidate) -> Void) {
        pending.sort { ($0.frames.lowerBound, $0.channel ?? -1) < ($1.frames.lowerBound, $1.channel ?? -1) }
        func ready(_ candidate: Candidate) -> Bool {
            candidate.frames.upperBound <= horizon && !growing(candidate.channel ?? 0, candidate.frames.upperBound + tolerance)
                && (openSilence.map { $0 > candidate.frames.lowerBound + tolerance } ?? true)
        }
        var done = [Bool](repeating: false, count: pending.count)
        for index in pending.indices where !done[index] && ready(pending[index]) {
            var candidate = pending[index]
            done[index] = true
            if covered(candidate.frames) { continue }
            let partners = self.partners(of: index, excluding: done)
            // Every channel has it, but not every one is settled: hold it with them.
            if !partners.isEmpty, !partners.allSatisfy({ ready(pending[$0]) }) {
                done[index] = false
                continue
            }
            if !partners.isEmpty {
                for partner in partners {
                    done[partner] = true
                    let content = candidate.content.joined(pending[partner].content)
                    candidate.frames = min(candidate.frames.lowerBound, pending[partner].frames.lowerBound)..<max(candidate.frames.upperBound, pending[partner].frames.upperBound)
                    candidate.content = content
                }
                candidate.channel = nil
            }
            emit(candidate)
        }
        pending = pending.indices.filter { !done[$0] }.map { pending[$0] }
        let oldest = pending.lazy.map(\.frames.lowerBound).min() ?? horizon
        silences.removeAll { $0.upperBound + tolerance < oldest }
    }

    private func covered(_ frames: Range<Int64>) -> Bool {
        silences.contains { $0.lowerBound <= frames.lowerBound + tolerance && $0.upperBound + tolerance >= frames.upperBound }
    }

    /// One candidate of each other channel, alike and on the same frames (within the tolerance), if every one has it.
    private func partners(of index: Int, excluding done: [Bool]) -> [Int] {
        let candidate = pending[index]
        var found: [Int] = []
        guard channels > 1 else { return [] }
        for channel in 0..<channels where channel != candidate.channel {
            guard
                let partner = pending.indices.first(where: { other in
                    !done[other] && pending[other].channel == channel && pending[other].content.alike(candidate.content)
                        && abs(pending[other].frames.lowerBound - candidate.frames.lowerBound) <= tolerance
                        && abs(pending[other].frames.upperBound - candidate.frames.upperBound) <= tolerance
                })
            else { return [] }
            found.append(partner)
        }
        return found
    }
}
