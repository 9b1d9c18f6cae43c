import Synchronization

/// A file read through a `FileMemoryCache` in aligned blocks.
///
/// Every request is served block by block: a cached block is a hit; a missing one is read from
/// disk once (concurrent requests for the same block share one read) and then stored, so memory
/// stays within the cache's budget whatever the file's size. `prefetch` starts reads that nobody
/// waits for yet, which is how `FileCursor` keeps sequential scans ahead of the decoder.
///
/// Shared by every decoder of one file; safe to use from many threads.
public final class CachedFile: Sendable {
    public let reader: FileReader
    public let cache: FileMemoryCache
    /// Size of the aligned blocks read from disk, in bytes.
    public let blockSize: Int
    /// How many blocks a cursor keeps in flight beyond its own during a sequential scan.
    public let readAheadBlocks: Int
    private let inFlight = Protected<[Int64: PendingRead]>([:])
    /// The read of the file's first `headSize` bytes, once started (`head()`).
    private let headRead = Protected<PendingRead?>(nil)

    /// Default block size: large enough that a read's fixed cost (a channel barrier, thread
    /// hand-offs) is spread thin, small enough that a random seek reads little more than it needs.
    /// With 2 blocks of read-ahead it was the fastest of the sizes and read-aheads compared
    /// (docs/DECISIONS.md#cache-blocks; ReaderThroughput with `VARIANTS=1`). Blocks of 128 KiB and more are read into recycled buffers (`FileReader`);
    /// smaller ones would be DispatchIO reads with a heap buffer each.
    public static let defaultBlockSize = 1 << 20
    /// Default cache budget: bounded memory whatever the file size. Two workers scanning with two
    /// blocks of read-ahead each use six blocks, and 6 MiB still reads each block once and keeps
    /// `analyze` small (docs/DECISIONS.md#cache-blocks).
    public static let defaultCacheBytes = 6 << 20
    /// Default read-ahead for sequential scans, in blocks.
    public static let defaultReadAheadBlocks = 2
    /// What `head()` reads when block 0 is not cached: enough for the headers of the files met so
    /// far (a WAV's chunks before `data`, FLAC's metadata, an Ogg's first pages), one pooled
    /// buffer. `info`, and a range deep into a large file, then read 128 KiB for the header
    /// rather than a 1 MiB block copied into fresh pages (docs/DECISIONS.md#header-read).
    public static let headSize = 128 << 10

    public init(
        reader: FileReader, cache: FileMemoryCache? = nil, blockSize: Int = CachedFile.defaultBlockSize,
        readAheadBlocks: Int = CachedFile.defaultReadAheadBlocks
    ) {
        precondition(blockSize > 0 && readAheadBlocks >= 0)
        self.reader = reader
        self.cache = cache ?? FileMemoryCache(byteLimit: CachedFile.defaultCacheBytes)
        self.blockSize = blockSize
        self.readAheadBlocks = readAheadBlocks
    }

    /// Opens `path` with a fresh reader and cache.
    public convenience init(
        path: String, cacheBytes: Int = CachedFile.defaultCacheBytes,
        blockSize: Int = CachedFile.defaultBlockSize,
        readAheadBlocks: Int = CachedFile.defaultReadAheadBlocks
    ) throws(SignalPathError) {
        self.init(
            reader: try FileReader(path: path), cache: FileMemoryCache(byteLimit: cacheBytes), blockSize: blockSize,
            readAheadBlocks: readAheadBlocks)
    }

    public var path: String { reader.path }
    public var size: Int64 { reader.size }

    /// The size the last `fstat` found: a block wholly inside it needs no other (a `spectrum` of
    /// the 60-minute WAV asked 7 500 times, once per block and prefetch; strace). A block reaching
    /// past it asks again, so a file that has grown still shows its new bytes; one that has shrunk
    /// gives a short read, as a read racing the truncation would.
    private let sizeSeen = Atomic<Int64>(-1)

    private func size(covering end: Int64) -> Int64 {
        let seen = sizeSeen.load(ordering: .relaxed)
        if end <= seen { return seen }
        let now = size
        sizeSeen.store(now, ordering: .relaxed)
        return now
    }

    func blockRange(_ index: Int64) -> Range<Int64> {
        let start = index * Int64(blockSize)
        return start..<start + Int64(blockSize)
    }

    func blockIndex(containing offset: Int64) -> Int64 { offset / Int64(blockSize) }

    private enum BlockSource {
        case cached(FileBytes)
        case pending(PendingRead)
    }

    /// Finds a block in the cache, or joins or starts its read. The in-flight lock is held while the
    /// cache is consulted so that a finishing read cannot slip between the two checks.
    private func locate(_ index: Int64) -> BlockSource {
        // Clamped to the current size, so that the short last block can be a cache hit, and a
        // file that has grown since shows its new bytes.
        let block = blockRange(index)
        let range = block.clamped(to: 0..<max(0, size(covering: block.upperBound)))
        if range.isEmpty { return .cached(.empty) }
        let (source, started) = inFlight.withLock { reads -> (BlockSource, Bool) in
            if let pending = reads[index] { return (.pending(pending), false) }
            if case .hit(let bytes) = cache.data(for: range) { return (.cached(bytes), false) }
            let pending = PendingRead()
            reads[index] = pending
            return (.pending(pending), true)
        }
        if started, case .pending(let pending) = source {
            reader.read(range) { result in
                self.inFlight.withLock { reads in
                    if case .success(let bytes) = result { self.cache.store(bytes, at: range.lowerBound) }
                    reads[index] = nil
                }
                pending.complete(result)
            }
        }
        return source
    }

    /// The bytes of block `index`: `blockSize` bytes, fewer for the last block, none past the end.
    public func block(_ index: Int64) throws(SignalPathError) -> FileBytes {
        switch locate(index) {
        case .cached(let bytes): return bytes
        case .pending(let pending): return try pending.wait().get()
        }
    }

    /// The file's first bytes, for parsing headers: block 0 when it is cached (or the file is no
    /// larger than `headSize`), else the first `headSize` bytes, read once and kept with the file.
    public func head() throws(SignalPathError) -> FileBytes {
        guard let pending = headPending() else { return try block(0) }
        return try pending.wait().get()
    }

    /// As `head()`, suspending rather than blocking until the bytes have arrived.
    public func loadHead() async throws(SignalPathError) {
        guard let pending = headPending() else { return try await load(0..<min(size, Int64(blockSize))) }
        _ = try await pending.outcome().get()
    }

    /// The head's read, started if need be; nil when block 0 serves instead.
    private func headPending() -> PendingRead? {
        if size <= Int64(Self.headSize) { return nil }
        if case .hit = cache.data(for: blockRange(0).clamped(to: 0..<size)) { return nil }
        let (pending, started) = headRead.withLock { read -> (PendingRead, Bool) in
            if let read { return (read, false) }
            let started = PendingRead()
            read = started
            return (started, true)
        }
        if started { reader.read(0..<Int64(Self.headSize)) { pending.complete($0) } }
        return pending
    }

    /// Brings the blocks covering `range` into the cache, suspending (not blocking a thread) until
    /// they have arrived. Task-based workers call it before decoding a range synchronously, so that
    /// they do not block the cooperative thread pool waiting for I/O.
    public func load(_ range: Range<Int64>) async throws(SignalPathError) {
        guard !range.isEmpty else { return }
        let blocks = blockIndex(containing: range.lowerBound)...blockIndex(containing: range.upperBound - 1)
        let pending = blocks.compactMap { index -> PendingRead? in
            if case .pending(let read) = locate(index) { return read }
            return nil
        }
        for read in pending { _ = try await read.outcome().get() }
    }

    /// Starts reading the blocks in `indices` that are neither cached nor already being read, and
    /// lie inside the file; returns at once.
    public func prefetch(_ indices: Range<Int64>) {
        for index in indices {
            if case .cached(let bytes) = locate(index), bytes.isEmpty { break }  // past the end
        }
    }
}
