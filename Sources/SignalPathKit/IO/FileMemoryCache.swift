/// Recently read byte ranges of one file, kept in memory within a byte budget.
///
/// Chunks live in an array sorted by offset and are found by binary search (`SortedChunks`). A
/// request inside one chunk is a hit served without copying; a request covered by several adjacent
/// chunks is a hit merged into one contiguous array; otherwise the lookup names exactly the missing
/// sub-ranges, so the caller reads only those. Storing skips bytes already held.
///
/// When the budget is exceeded, the chunk furthest from the most recent access is evicted first
/// (see `FileMemoryCache+Eviction.swift`). The byte count is exact at all times.
///
/// Safe to use from many threads: every operation runs under one lock, and returned bytes are
/// immutable values that stay valid after their chunk is evicted. A chunk holds a stored buffer
/// as it is (a DispatchIO read is not copied); the parts of a store that were partly cached
/// already are copied out, so that the byte count is the memory held.
public final class FileMemoryCache: Sendable {
    /// What a lookup found.
    public enum Lookup: Equatable, Sendable {
        /// All bytes of the range.
        case hit(FileBytes)
        /// Part or none of the range is cached; these sub-ranges (ascending, disjoint) are not.
        case miss(missing: [Range<Int64>])
    }

    /// Counters since the cache was made.
    public struct Statistics: Equatable, Sendable {
        public var hits = 0
        public var misses = 0
        public var evictions = 0
        public var evictedBytes = 0
        /// Fraction of lookups that were hits, or nil before the first lookup.
        public var hitRate: Double? { hits + misses == 0 ? nil : Double(hits) / Double(hits + misses) }
    }

    struct State {
        var chunks = SortedChunks()
        /// The range of the most recent lookup or store; eviction keeps what is near it.
        var latestAccess: Range<Int64>?
        var statistics = Statistics()
    }

    /// The most bytes the cache holds after any operation.
    public let byteLimit: Int
    let state: Protected<State>

    /// Makes an empty cache holding at most `byteLimit` bytes.
    public init(byteLimit: Int) {
        precondition(byteLimit >= 0)
        self.byteLimit = byteLimit
        state = Protected(State())
    }

    /// The bytes of `range` if they are all cached, otherwise the sub-ranges that are missing.
    ///
    /// - Complexity: O(log n + k) for n chunks of which k overlap the range, plus a copy when the
    ///   range spans several chunks.
    public func data(for range: Range<Int64>) -> Lookup {
        state.withLock { state in
            if range.isEmpty { return .hit(.empty) }
            state.latestAccess = range
            switch state.chunks.lookup(range) {
            case .hit(let bytes):
                state.statistics.hits += 1
                return .hit(bytes)
            case .miss(let missing):
                state.statistics.misses += 1
                return .miss(missing: missing)
            }
        }
    }

    /// Stores `bytes`, which start at byte `offset` of the file, skipping what is already cached,
    /// then evicts until the budget holds. Data larger than the whole budget is not stored.
    ///
    /// - Complexity: O(log n + k + n).
    public func store(_ bytes: FileBytes, at offset: Int64) {
        precondition(offset >= 0, "byte offsets are never negative")
        guard !bytes.isEmpty, bytes.count <= byteLimit else { return }
        state.withLock { state in
            state.latestAccess = offset..<offset + Int64(bytes.count)
            state.chunks.storeUncovered(bytes, at: offset)
            state.evictUntilWithin(byteLimit)
        }
    }

    /// Drops every chunk.
    public func removeAll() {
        state.withLock { $0.chunks.removeAll() }
    }

    /// The exact number of cached bytes.
    public var byteCount: Int { state.withLock { $0.chunks.byteCount } }

    /// The cached ranges in ascending order.
    public var cachedRanges: [Range<Int64>] { state.withLock { $0.chunks.chunks.map(\.range) } }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// A description of the first broken invariant (including the byte limit), or nil.
    func invariantViolation() -> String? {
        state.withLock { state in
            if let violation = state.chunks.invariantViolation() { return violation }
            if state.chunks.byteCount > byteLimit { return "byteCount \(state.chunks.byteCount) > limit \(byteLimit)" }
            return nil
        }
    }
}
