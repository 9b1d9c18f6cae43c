/// Non-overlapping byte-range chunks of one file, kept in an array sorted by lower bound.
///
/// The storage behind `FileMemoryCache`; not thread-safe by itself. Because chunks never overlap,
/// their upper bounds are sorted too, which is what the binary searches rely on.
///
/// Invariants (checked by `invariantViolation()` in tests): chunks sorted by lower bound, no overlaps,
/// no empty chunks, and `byteCount` equal to the sum of the chunk sizes.
struct SortedChunks {
    struct Chunk: Equatable {
        var lowerBound: Int64
        var bytes: FileBytes

        var upperBound: Int64 { lowerBound + Int64(bytes.count) }
        var range: Range<Int64> { lowerBound..<upperBound }
    }

    /// What a lookup found: the bytes of the whole range, or the sub-ranges no chunk covers.
    enum Lookup: Equatable {
        case hit(FileBytes)
        case miss(missing: [Range<Int64>])
    }

    private(set) var chunks: [Chunk] = []
    /// The exact number of bytes held, always equal to the sum of chunk sizes.
    private(set) var byteCount = 0

    var isEmpty: Bool { chunks.isEmpty }

    /// Index of the first chunk whose upper bound is above `offset`, or `chunks.count`.
    ///
    /// - Complexity: O(log n).
    func firstIndex(endingAfter offset: Int64) -> Int {
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = low + (high - low) / 2
            if chunks[middle].upperBound <= offset {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// The bytes of `range` if chunks cover all of it (a range inside one chunk is served without
    /// copying), otherwise the uncovered sub-ranges in ascending order.
    ///
    /// - Complexity: O(log n + k), where k is the number of chunks overlapping `range`, plus a copy
    ///   of the range when it spans several chunks.
    func lookup(_ range: Range<Int64>) -> Lookup {
        if range.isEmpty { return .hit(.empty) }
        let first = firstIndex(endingAfter: range.lowerBound)
        if first < chunks.count {
            let chunk = chunks[first]
            if chunk.lowerBound <= range.lowerBound && range.upperBound <= chunk.upperBound {
                let start = Int(range.lowerBound - chunk.lowerBound)
                return .hit(chunk.bytes[start..<start + Int(range.count)])
            }
        }
        var missing: [Range<Int64>] = []
        var cursor = range.lowerBound
        var index = first
        while index < chunks.count, chunks[index].lowerBound < range.upperBound {
            if chunks[index].lowerBound > cursor {
                missing.append(cursor..<chunks[index].lowerBound)
            }
            cursor = chunks[index].upperBound
            index += 1
        }
        if cursor < range.upperBound {
            missing.append(cursor..<range.upperBound)
        }
        guard missing.isEmpty else { return .miss(missing: missing) }

        // Covered by adjacent chunks: merge their pieces into one contiguous array.
        var merged = [UInt8]()
        merged.reserveCapacity(Int(range.count))
        for chunk in chunks[first..<index] {
            let from = Int(max(range.lowerBound, chunk.lowerBound) - chunk.lowerBound)
            let to = Int(min(range.upperBound, chunk.upperBound) - chunk.lowerBound)
            chunk.bytes.withUnsafeBytes { merged.append(contentsOf: $0[from..<to]) }
        }
        return .hit(FileBytes(merged))
    }

    /// Stores the parts of `bytes` (which start at `offset`) that no chunk covers yet, as new chunks.
    /// Returns the number of bytes added.
    ///
    /// - Complexity: O(log n + k + n): a binary search, a walk over the k overlapping chunks, and
    ///   one array splice.
    @discardableResult
    mutating func storeUncovered(_ bytes: FileBytes, at offset: Int64) -> Int {
        let range = offset..<offset + Int64(bytes.count)
        if range.isEmpty { return 0 }
        let first = firstIndex(endingAfter: range.lowerBound)
        var replacement: [Chunk] = []
        var cursor = range.lowerBound
        var index = first
        func addGap(_ gap: Range<Int64>) {
            if gap.count == bytes.count {
                replacement.append(Chunk(lowerBound: gap.lowerBound, bytes: bytes))
            } else {
                // A copy, so that a small piece does not keep the whole buffer alive uncounted.
                let from = Int(gap.lowerBound - offset)
                let to = Int(gap.upperBound - offset)
                replacement.append(Chunk(lowerBound: gap.lowerBound, bytes: FileBytes(bytes[from..<to].array)))
            }
        }
        while index < chunks.count, chunks[index].lowerBound < range.upperBound {
            if chunks[index].lowerBound > cursor {
                addGap(cursor..<chunks[index].lowerBound)
            }
            replacement.append(chunks[index])
            cursor = max(cursor, chunks[index].upperBound)
            index += 1
        }
        if cursor < range.upperBound {
            addGap(cursor..<range.upperBound)
        }
        let added = replacement.reduce(0) { $0 + $1.bytes.count } - chunks[first..<index].reduce(0) { $0 + $1.bytes.count }
        if added > 0 {
            chunks.replaceSubrange(first..<index, with: replacement)
            byteCount += added
        }
        return added
    }

    /// Removes and returns the chunk at `index`, keeping `byteCount` exact.
    ///
    /// - Complexity: O(n) for an arbitrary index; O(1) amortised at the end.
    @discardableResult
    mutating func remove(at index: Int) -> Chunk {
        let chunk = chunks.remove(at: index)
        byteCount -= chunk.bytes.count
        return chunk
    }

    mutating func removeAll() {
        chunks.removeAll()
        byteCount = 0
    }

    /// A description of the first broken invariant, or nil when all hold.
    ///
    /// - Complexity: O(n).
    func invariantViolation() -> String? {
        var sum = 0
        for (index, chunk) in chunks.enumerated() {
            if chunk.bytes.isEmpty { return "chunk \(index) is empty" }
            if chunk.lowerBound < 0 { return "chunk \(index) starts before the file" }
            if index > 0 && chunks[index - 1].upperBound > chunk.lowerBound {
                return "chunk \(index - 1) (\(chunks[index - 1].range)) overlaps or is out of order with chunk \(index) (\(chunk.range))"
            }
            sum += chunk.bytes.count
        }
        if sum != byteCount { return "byteCount \(byteCount) != sum of chunk sizes \(sum)" }
        return nil
    }
}
