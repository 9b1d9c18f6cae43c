import Dispatch
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// The plainest possible cache: an unsorted list of ranges over a byte array, linear scans
/// everywhere, and the documented policy (evict the chunk furthest from the latest access; ties to
/// the lowest offset) written out directly. The real cache must behave exactly like it.
private struct CacheModel {
    let file: [UInt8]
    let limit: Int
    var chunks: [Range<Int64>] = []
    var latestAccess: Range<Int64>?

    var byteCount: Int { chunks.reduce(0) { $0 + $1.count } }

    func isCovered(_ offset: Int64) -> Bool { chunks.contains { $0.contains(offset) } }

    /// Maximal runs of uncovered offsets inside `range`.
    func uncoveredRuns(in range: Range<Int64>) -> [Range<Int64>] {
        var runs: [Range<Int64>] = []
        var start: Int64?
        for offset in range {
            if isCovered(offset) {
                if let runStart = start {
                    runs.append(runStart..<offset)
                    start = nil
                }
            } else if start == nil {
                start = offset
            }
        }
        if let start { runs.append(start..<range.upperBound) }
        return runs
    }

    mutating func lookup(_ range: Range<Int64>) -> FileMemoryCache.Lookup {
        if range.isEmpty { return .hit(.empty) }
        latestAccess = range
        let missing = uncoveredRuns(in: range)
        if missing.isEmpty { return .hit(FileBytes(Array(file[Int(range.lowerBound)..<Int(range.upperBound)]))) }
        return .miss(missing: missing)
    }

    mutating func store(_ range: Range<Int64>) {
        guard !range.isEmpty, range.count <= limit else { return }
        latestAccess = range
        chunks += uncoveredRuns(in: range)
        while byteCount > limit {
            func distance(_ chunk: Range<Int64>) -> Int64 {
                guard let access = latestAccess else { return 0 }
                if chunk.upperBound <= access.lowerBound { return access.lowerBound - chunk.upperBound }
                if chunk.lowerBound >= access.upperBound { return chunk.lowerBound - access.upperBound }
                return 0
            }
            let furthest = chunks.max { a, b in
                distance(a) != distance(b) ? distance(a) < distance(b) : a.lowerBound > b.lowerBound
            }!
            chunks.removeAll { $0 == furthest }
        }
    }
}

private func lookupBytes(_ lookup: FileMemoryCache.Lookup) -> [UInt8]? {
    if case .hit(let bytes) = lookup { return bytes.array }
    return nil
}

@Suite("FileMemoryCache")
struct FileMemoryCacheTests {
    @Test("matches a plain model over thousands of seeded random operations", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func modelTest(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let fileSize = 20_000
        let file = (0..<fileSize).map { _ in UInt8.random(in: 0...255, using: &random) }
        let limit = [512, 2048, 6000, 15_000][Int(seed % 4)]
        let cache = FileMemoryCache(byteLimit: limit)
        var model = CacheModel(file: file, limit: limit)

        func randomRange() -> Range<Int64> {
            let length = Int64.random(in: 0...Int64(limit / 2 + 64), using: &random)
            let start = Int64.random(in: 0...Int64(fileSize) - length, using: &random)
            return start..<start + length
        }

        for step in 0..<3000 {
            let operation = Int.random(in: 0..<100, using: &random)
            if operation < 45 {
                let range = randomRange()
                cache.store(FileBytes(Array(file[Int(range.lowerBound)..<Int(range.upperBound)])), at: range.lowerBound)
                model.store(range)
            } else if operation < 98 {
                let range = randomRange()
                let got = cache.data(for: range)
                let expected = model.lookup(range)
                #expect(got == expected, "step \(step): lookup \(range)")
            } else {
                cache.removeAll()
                model.chunks.removeAll()
            }
            #expect(cache.invariantViolation() == nil, "step \(step): \(cache.invariantViolation() ?? "")")
            #expect(cache.byteCount == model.byteCount, "step \(step)")
            #expect(cache.cachedRanges == model.chunks.sorted { $0.lowerBound < $1.lowerBound }, "step \(step)")
            if cache.invariantViolation() != nil || cache.byteCount != model.byteCount { return }
        }
    }

    @Test("a range inside one chunk is a hit, served from that chunk")
    func hitInsideOneChunk() {
        let cache = FileMemoryCache(byteLimit: 1000)
        cache.store(FileBytes(Array(0..<100)), at: 1000)
        #expect(lookupBytes(cache.data(for: 1010..<1020)) == Array(10..<20))
        #expect(lookupBytes(cache.data(for: 1000..<1100)) == Array(0..<100))
        #expect(cache.statistics.hits == 2 && cache.statistics.misses == 0)
    }

    @Test("adjacent chunks merge into one contiguous answer; a gap is reported exactly")
    func mergeAndMissing() {
        let cache = FileMemoryCache(byteLimit: 1000)
        cache.store(FileBytes(Array(0..<50)), at: 0)
        cache.store(FileBytes(Array(50..<100)), at: 50)
        cache.store(FileBytes(Array(150..<200)), at: 150)
        #expect(lookupBytes(cache.data(for: 40..<60)) == Array(40..<60))
        #expect(cache.data(for: 90..<160) == .miss(missing: [100..<150]))
        #expect(cache.data(for: 190..<260) == .miss(missing: [200..<260]))
        #expect(cache.data(for: 300..<310) == .miss(missing: [300..<310]))
    }

    @Test("storing skips bytes already cached")
    func storeSkipsCovered() {
        let cache = FileMemoryCache(byteLimit: 1000)
        cache.store(FileBytes([UInt8](repeating: 1, count: 10)), at: 10)
        cache.store(FileBytes([UInt8](repeating: 2, count: 30)), at: 0)
        #expect(cache.byteCount == 30)
        #expect(cache.cachedRanges == [0..<10, 10..<20, 20..<30])
        // The first store's bytes stay: a file's content at an offset does not change.
        #expect(lookupBytes(cache.data(for: 10..<20)) == [UInt8](repeating: 1, count: 10))
    }

    @Test("eviction reduces the byte count and drops the chunk furthest from the latest access")
    func evictionKeepsCountExact() {
        let cache = FileMemoryCache(byteLimit: 300)
        for index in 0..<5 {
            cache.store(FileBytes([UInt8](repeating: UInt8(index), count: 100)), at: Int64(index) * 1000)
        }
        #expect(cache.byteCount == 300)
        #expect(cache.cachedRanges == [2000..<2100, 3000..<3100, 4000..<4100])
        _ = cache.data(for: 2000..<2001)  // the latest access moves to the start
        cache.store(FileBytes([UInt8](repeating: 9, count: 100)), at: 1000)
        #expect(cache.cachedRanges == [1000..<1100, 2000..<2100, 3000..<3100])
        #expect(cache.statistics.evictions == 3 && cache.statistics.evictedBytes == 300)
        cache.store(FileBytes([UInt8](repeating: 0, count: 301)), at: 0)  // larger than the whole budget: not kept
        #expect(cache.byteCount == 300)
    }

    @Test("binary search finds every one of many chunks far from offset zero")
    func binarySearchAtLargeOffsets() {
        let cache = FileMemoryCache(byteLimit: 1 << 20)
        let base: Int64 = 5_000_000_000
        for index in 0..<1000 {
            cache.store(FileBytes([UInt8(index % 251)]), at: base + Int64(index) * 7)
        }
        for index in 0..<1000 {
            #expect(lookupBytes(cache.data(for: base + Int64(index) * 7..<base + Int64(index) * 7 + 1)) == [UInt8(index % 251)])
            let gap = base + Int64(index) * 7 + 1..<base + Int64(index) * 7 + 2
            #expect(cache.data(for: gap) == .miss(missing: [gap]))
        }
    }

    @Test("stays consistent under concurrent stores and lookups from many threads")
    func concurrentStress() {
        let fileSize = 1 << 20
        var random = SeededGenerator(seed: 99)
        let file = (0..<fileSize).map { _ in UInt8.random(in: 0...255, using: &random) }
        let cache = FileMemoryCache(byteLimit: 256 << 10)
        let mismatches = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var random = SeededGenerator(seed: UInt64(worker))
            for _ in 0..<4000 {
                let length = Int.random(in: 1...8192, using: &random)
                let start = Int.random(in: 0...fileSize - length, using: &random)
                if Bool.random(using: &random) {
                    cache.store(FileBytes(Array(file[start..<start + length])), at: Int64(start))
                } else if case .hit(let bytes) = cache.data(for: Int64(start)..<Int64(start + length)),
                    bytes.array != Array(file[start..<start + length])
                {
                    mismatches.increment()
                }
            }
        }
        #expect(mismatches.value == 0)
        #expect(cache.invariantViolation() == nil)
        #expect(cache.statistics.hits > 0)
    }
}

/// A thread-safe counter for the stress test.
final class Counter: @unchecked Sendable {
    // @unchecked: `count` is touched only between the semaphore's wait and signal.
    private let lock = DispatchSemaphore(value: 1)
    private var count = 0
    func increment() {
        lock.wait()
        count += 1
        lock.signal()
    }
    var value: Int {
        lock.wait()
        defer { lock.signal() }
        return count
    }
}
