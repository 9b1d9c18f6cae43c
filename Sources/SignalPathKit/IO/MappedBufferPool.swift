/// Idle mapped buffers kept for reuse, in power-of-two size classes, up to a byte budget: large
/// reads' `ReadBuffer`s (`reads`) and analysis workers' `SampleScratch` (`scratch`).
///
/// Buffers are mapped with `mmap` rather than `malloc`: freeing a malloc'd buffer of this size
/// raises glibc's mmap threshold, after which later large allocations come from the heap and
/// fragment it (docs/DECISIONS.md#large-reads). Mapped buffers leave the allocator's state alone. When
/// the idle ones exceed `idleByteLimit`, the longest idle are unmapped, so a pool full of one size
/// class still takes in another; memory is bounded by what caches and reads in flight hold plus
/// `idleByteLimit`.
///
/// Safe to use from any thread.
final class MappedBufferPool: Sendable {
    /// The pool every `FileReader` shares, so that files read one after another reuse buffers.
    /// Two idle 1 MiB blocks are enough for a scan: a cache evicts one block per block it reads.
    static let reads = MappedBufferPool(idleByteLimit: 2 << 20, populates: true)

    /// The pool of workers' rows and frame windows (`SampleScratch`), so that `scan`, which makes
    /// new workers for every file, reuses pages already touched rather than page-faulting every
    /// file's buffers in (docs/DECISIONS.md#scan-buffers). 32 MiB idle holds what two files'
    /// workers give back (four workers, each a row buffer and a window in 4 MiB classes). Files
    /// shorter than a chunk ask for smaller classes, which take an idle larger buffer rather than
    /// map a new one.
    static let scratch = MappedBufferPool(idleByteLimit: 32 << 20, takesLarger: true)

    /// The smallest size class: smaller reads go through DispatchIO's own small heap buffers.
    static let smallestCapacity = 128 << 10

    let idleByteLimit: Int
    /// Whether new mappings are populated when mapped: a read fills its whole buffer at once, and
    /// one call is cheaper than a page fault per 4 KiB (docs/DECISIONS.md#header-read).
    let populates: Bool
    /// Whether a request with no idle buffer of its class takes the smallest idle larger one.
    let takesLarger: Bool
    private let state = Protected(State())

    private struct State: @unchecked Sendable {
        // @unchecked: raw addresses of mappings the pool owns, read and changed only under its lock.
        /// Idle mapped buffers, longest idle first; the pool owns the addresses while they are
        /// here. At most `idleByteLimit / smallestCapacity` entries, so linear searches stay short.
        var idle: [(base: UnsafeMutableRawPointer, capacity: Int)] = []
        var idleBytes = 0
        /// Bytes mapped now (idle or in use), and the number of `mmap` calls so far.
        var mappedBytes = 0
        var mappings = 0
    }

    init(idleByteLimit: Int, takesLarger: Bool = false, populates: Bool = false) {
        self.idleByteLimit = idleByteLimit
        self.populates = populates
        self.takesLarger = takesLarger
    }

    deinit {
        // Every buffer handed out holds the pool, so by now all of them are back here.
        state.withLock { state in
            for buffer in state.idle { munmap(buffer.base, buffer.capacity) }
        }
    }

    /// A buffer of at least `length` bytes (its size class), reused if one is idle; nil if the
    /// system cannot map one.
    func buffer(for length: Int) -> ReadBuffer? {
        take(length).map { ReadBuffer(base: $0.base, capacity: $0.capacity, pool: self) }
    }

    /// A mapping of at least `length` bytes: an idle one of its size class if any (the smallest
    /// idle larger one too, with `takesLarger`), else a new one of its class. A reused buffer holds
    /// what its last user left, a new one zeros; the caller gives it back with `recycle`, with the
    /// capacity returned here. Nil if the system cannot map one.
    func take(_ length: Int) -> (base: UnsafeMutableRawPointer, capacity: Int)? {
        let capacity = Self.capacity(for: length)
        let reused = state.withLock { state -> (base: UnsafeMutableRawPointer, capacity: Int)? in
            // The smallest that fits; of equals, the most recently idled (still warm in cache).
            var chosen: Int?
            for (index, buffer) in state.idle.enumerated() where buffer.capacity == capacity || (takesLarger && buffer.capacity > capacity) {
                if let best = chosen, state.idle[best].capacity < buffer.capacity { continue }
                chosen = index
            }
            guard let index = chosen else { return nil }
            state.idleBytes -= state.idle[index].capacity
            return state.idle.remove(at: index)
        }
        if let reused { return reused }
        let mapped = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | (populates ? MAP_POPULATE : 0), -1, 0)
        guard let mapped, mapped != MAP_FAILED else { return nil }
        state.withLock { state in
            state.mappedBytes += capacity
            state.mappings += 1
        }
        return (mapped, capacity)
    }

    /// Takes back a buffer nobody uses any more, unmapping the longest idle ones beyond the budget
    /// (this one too, if it alone exceeds it).
    func recycle(_ base: UnsafeMutableRawPointer, capacity: Int) {
        let unmapped = state.withLock { state -> [(base: UnsafeMutableRawPointer, capacity: Int)] in
            state.idle.append((base, capacity))
            state.idleBytes += capacity
            var dropped: [(base: UnsafeMutableRawPointer, capacity: Int)] = []
            while state.idleBytes > idleByteLimit {
                let oldest = state.idle.removeFirst()
                state.idleBytes -= oldest.capacity
                state.mappedBytes -= oldest.capacity
                dropped.append(oldest)
            }
            return dropped
        }
        for buffer in unmapped { munmap(buffer.base, buffer.capacity) }
    }

    /// Bytes held idle now, bytes mapped now (idle or in use), and `mmap` calls so far.
    var statistics: (idleBytes: Int, mappedBytes: Int, mappings: Int) {
        state.withLock { ($0.idleBytes, $0.mappedBytes, $0.mappings) }
    }

    /// The idle buffers' capacities, longest idle first (for invariant checks).
    var idleCapacities: [Int] { state.withLock { $0.idle.map(\.capacity) } }

    /// The size class for a read of `length` bytes: the next power of two, at least
    /// `smallestCapacity`.
    static func capacity(for length: Int) -> Int {
        guard length > smallestCapacity else { return smallestCapacity }
        return 1 << (Int.bitWidth - (length - 1).leadingZeroBitCount)
    }
}
