/// Eviction policy: drop the chunk furthest from the most recent access.
///
/// A reader of audio moves through a file (playback, scrubbing, a sequential scan), so what lies
/// near the latest request is what will be wanted next, and what is far away is the cheapest to
/// lose. Because chunks are sorted and disjoint, the furthest chunk is always the first or the last
/// one: choosing it is O(1), with no per-chunk bookkeeping. Ties go to the first chunk.
extension FileMemoryCache.State {
    /// Evicts chunks until at most `limit` bytes remain.
    ///
    /// - Complexity: O(n) per evicted chunk (removing the first element shifts the array).
    mutating func evictUntilWithin(_ limit: Int) {
        while chunks.byteCount > limit, let last = chunks.chunks.last, let first = chunks.chunks.first {
            let index: Int
            if let access = latestAccess {
                let firstDistance = Self.distance(from: first.range, to: access)
                let lastDistance = Self.distance(from: last.range, to: access)
                index = lastDistance > firstDistance ? chunks.chunks.count - 1 : 0
            } else {
                index = 0
            }
            let evicted = chunks.remove(at: index)
            statistics.evictions += 1
            statistics.evictedBytes += evicted.bytes.count
        }
    }

    /// The gap in bytes between two ranges; zero when they overlap or touch.
    static func distance(from chunk: Range<Int64>, to access: Range<Int64>) -> Int64 {
        if chunk.upperBound <= access.lowerBound { return access.lowerBound - chunk.upperBound }
        if chunk.lowerBound >= access.upperBound { return chunk.lowerBound - access.upperBound }
        return 0
    }
}
