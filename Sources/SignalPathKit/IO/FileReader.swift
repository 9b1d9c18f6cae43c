import Dispatch
import Synchronization
/// Reads byte ranges of one regular file through a random-access DispatchIO channel.
///
/// The file is opened when the reader is made, so a missing, unreadable or wrong-kind path is
/// reported at once as a typed error rather than later inside a read handler (which is where a
/// path-based channel would report it). Reads may cross or start past the end of the file: the
/// result is then short or empty, not an error. Any number of reads may be in flight at once.
///
/// Two kinds of operation run on the channel, both handed on as `FileBytes` without copying:
/// - reads under `MappedBufferPool.smallestCapacity` (128 KiB) are DispatchIO reads
///   (`dispatch_io_read`), which allocate their buffer from the heap;
/// - larger reads are channel barriers that `pread` into a recycled, already-mapped buffer
///   (`MappedBufferPool`). A DispatchIO read of that size gets a freshly mapped buffer from glibc
///   and page-faults it in, every page of every read; the barrier keeps DispatchIO's ordering and
///   descriptor lifetime (the channel closes the descriptor only after its barriers ran) and runs
///   at about the speed of a `pread` loop (docs/DECISIONS.md#large-reads, and BENCHMARKS.md).
/// Barriers run one at a time, so large reads are served in the order they were asked for.
///
/// Callers should ask for hundreds of KiB at a time and keep the next read in flight while using
/// the current one (`chunks(in:chunkSize:readAhead:)`, or `CachedFile`, do that).
public final class FileReader: @unchecked Sendable {
    // @unchecked: DispatchIO channels are thread-safe (every operation is enqueued on the channel),
    // the descriptor is only used for fstat, inside barriers and lent to the hashing helper (which
    // reads a duplicate with pread), and the counters are atomics.

    /// The path as the caller named it; used in every error.
    public let path: String
    /// The absolute path with symbolic links resolved.
    public let resolvedPath: String

    /// Lent to `ContentHash`'s helper; the reader keeps it open and owns it.
    let descriptor: Int32
    /// Where large reads get their buffers (`MappedBufferPool.reads` unless a test brings its own).
    let bufferPool: MappedBufferPool
    private let channel: DispatchIO
    private let handlerQueue = DispatchQueue(label: "signalpath.FileReader", attributes: .concurrent)
    private let bytesReadCounter = Atomic<Int64>(0)
    private let readCounter = Atomic<Int>(0)

    /// Opens `path` for reading. Errors name `displayPath` (default: `path`), e.g. `-` for stdin.
    /// - Throws: `SignalPathError.notFound`, `.permissionDenied`, `.isDirectory`, `.notRegularFile`.
    public convenience init(path openPath: String, displayPath: String? = nil) throws(SignalPathError) {
        try self.init(path: openPath, displayPath: displayPath, bufferPool: .reads)
    }

    /// Opens `path`, taking large reads' buffers from `bufferPool`.
    convenience init(path openPath: String, displayPath: String? = nil, bufferPool: MappedBufferPool) throws(SignalPathError) {
        let path = displayPath ?? openPath
        guard let resolved = realpath(openPath, nil) else {
            throw SignalPathError.fromErrno(errno, path: path)
        }
        let resolvedPath = String(cString: resolved)
        free(resolved)
        // O_NONBLOCK so that a FIFO swapped in for the file cannot block the open; it has no effect
        // on regular files.
        let fd = open(resolvedPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw SignalPathError.fromErrno(errno, path: path) }
        try self.init(descriptor: fd, path: path, resolvedPath: resolvedPath, bufferPool: bufferPool)
    }

    /// Reads the regular file open on `descriptor`, which the reader takes over and closes.
    public convenience init(descriptor fd: Int32, path: String, resolvedPath: String) throws(SignalPathError) {
        try self.init(descriptor: fd, path: path, resolvedPath: resolvedPath, bufferPool: .reads)
    }

    init(descriptor fd: Int32, path: String, resolvedPath: String, bufferPool: MappedBufferPool) throws(SignalPathError) {
        self.path = path
        self.bufferPool = bufferPool
        self.resolvedPath = resolvedPath
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw SignalPathError.fromErrno(code, path: path)
        }
        if let kind = FileReader.nonRegularKind(mode: status.st_mode) {
            close(fd)
            if kind == "directory" { throw SignalPathError.isDirectory(path: path) }
            throw SignalPathError.notRegularFile(path: path, kind: kind)
        }
        // A random-access channel takes its offsets relative to the descriptor's position when it is
        // made: start from 0 so offsets are absolute.
        lseek(fd, 0, SEEK_SET)
        descriptor = fd
        channel = DispatchIO(type: .random, fileDescriptor: fd, queue: handlerQueue) { _ in close(fd) }
        // One handler call per read, with all of its bytes.
        channel.setLimit(lowWater: Int.max)
    }

    deinit {
        // Reads still in flight finish first; the cleanup handler then closes the descriptor.
        channel.close()
    }

    /// The file's size in bytes now (it may change while the file is being written).
    public var size: Int64 {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return 0 }
        return Int64(status.st_size)
    }

    /// Total bytes delivered by reads so far, and the number of reads issued.
    public var statistics: (bytesRead: Int64, reads: Int) {
        (bytesReadCounter.load(ordering: .relaxed), readCounter.load(ordering: .relaxed))
    }

    /// Starts reading `range`; `completion` runs on a reader queue with the bytes (short at end of file).
    ///
    /// `completion` must hand the bytes on and return (store them, resume a waiter): for large reads
    /// it runs inside the channel's barrier, so work done there delays every later read, and
    /// waiting there for another read of this reader would never end.
    public func read(
        _ range: Range<Int64>,
        completion: @escaping @Sendable (Result<FileBytes, SignalPathError>) -> Void
    ) {
        precondition(range.lowerBound >= 0, "byte offsets are never negative")
        guard !range.isEmpty else {
            completion(.success(.empty))
            return
        }
        readCounter.add(1, ordering: .relaxed)
        if range.count >= MappedBufferPool.smallestCapacity {
            readIntoRecycledBuffer(range, completion: completion)
            return
        }
        let path = self.path
        let collected = CollectedData()
        channel.read(offset: off_t(range.lowerBound), length: Int(range.count), queue: handlerQueue) {
            done, data, error in
            if let data, !data.isEmpty { collected.append(data) }
            guard done else { return }
            if error != 0 {
                completion(.failure(.fromErrno(error, path: path, offset: range.lowerBound)))
                return
            }
            let bytes = collected.bytes()
            self.bytesReadCounter.add(Int64(bytes.count), ordering: .relaxed)
            completion(.success(bytes))
        }
    }

    /// A large read: a channel barrier (DispatchIO runs it after the operations before it, with the
    /// descriptor still open) that fills a recycled buffer with `pread`.
    ///
    /// The buffer is taken now rather than when the barrier runs: a scan then takes back the buffer
    /// it has just released, where taking it later let released buffers pile up past the pool's
    /// idle budget while barriers waited to run, and be unmapped and mapped again
    /// (docs/DECISIONS.md#large-reads).
    private func readIntoRecycledBuffer(
        _ range: Range<Int64>,
        completion: @escaping @Sendable (Result<FileBytes, SignalPathError>) -> Void
    ) {
        let (path, descriptor) = (self.path, self.descriptor)
        let length = Int(clamping: range.count)
        guard let buffer = bufferPool.buffer(for: length) else {
            handlerQueue.async { completion(.failure(.io(path: path, errno: ENOMEM, offset: range.lowerBound))) }
            return
        }
        let operation = BarrierRead(buffer: buffer, completion: completion)
        channel.barrier {
            // Taken out of the block's captures: libdispatch releases a barrier's block some time
            // after running it, and whatever it still held (the buffer, or the bytes through the
            // completion's captures) would come back to the pool late, in bursts past its budget.
            let (buffer, completion) = operation.take()
            let result: Result<FileBytes, SignalPathError>
            if let code = buffer.fill(from: descriptor, offset: range.lowerBound, length: length) {
                result = .failure(.fromErrno(code, path: path, offset: range.lowerBound))
            } else {
                self.bytesReadCounter.add(Int64(buffer.count), ordering: .relaxed)
                // A short read (the end of the file) is copied out, so that a few bytes do not
                // hold a large buffer that a cache's byte count would not include.
                result = .success(buffer.count * 2 >= buffer.capacity ? FileBytes(buffer) : FileBytes(FileBytes(buffer).array))
            }
            // Called on the barrier itself: a hop to another queue woke a thread per read and was
            // measurably slower (docs/DECISIONS.md#large-reads). Hence the rule in `read(_:completion:)`.
            completion(result)
        }
    }

    /// Starts reading `range` and returns a handle to wait on.
    func startRead(_ range: Range<Int64>) -> PendingRead {
        let pending = PendingRead()
        read(range) { pending.complete($0) }
        return pending
    }

    /// Reads `range`, suspending until the bytes arrive (short at end of file).
    public func read(_ range: Range<Int64>) async throws(SignalPathError) -> FileBytes {
        let result = await withCheckedContinuation { continuation in
            read(range) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Reads `range`, blocking the calling thread; for synchronous callers such as decoder callbacks.
    public func readBlocking(_ range: Range<Int64>) throws(SignalPathError) -> FileBytes {
        try startRead(range).wait().get()
    }

    /// A sequential pass over `range` (default: the whole file) in chunks of `chunkSize` bytes,
    /// keeping `readAhead` further chunks in flight while the caller works on the current one.
    public func chunks(in range: Range<Int64>? = nil, chunkSize: Int = 1 << 20, readAhead: Int = 2) -> SequentialChunks {
        SequentialChunks(reader: self, range: range ?? 0..<size, chunkSize: chunkSize, readAhead: readAhead)
    }

    private static func nonRegularKind(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "directory"
        case S_IFIFO: return "FIFO"
        case S_IFSOCK: return "socket"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        default: return "special file"
        }
    }
}

/// Accumulates the pieces of one read. DispatchIO invokes one operation's handler calls one after
/// another (and, with the low-water mark at `Int.max`, only once), so no lock is needed.
private final class CollectedData: @unchecked Sendable {
    private var data = DispatchData.empty

    func append(_ piece: DispatchData) {
        data.append(piece)
    }

    /// The bytes, handed on without copying.
    func bytes() -> FileBytes {
        FileBytes(data)
    }
}

/// What one barrier read needs, handed over once to the barrier that runs it.
///
/// Written by the thread that schedules the read and taken by the barrier, which DispatchIO runs
/// after the scheduling call has returned; the unchecked `Sendable` rests on that ordering.
private final class BarrierRead: @unchecked Sendable {
    private var buffer: ReadBuffer?
    private var completion: (@Sendable (Result<FileBytes, SignalPathError>) -> Void)?

    init(buffer: ReadBuffer, completion: @escaping @Sendable (Result<FileBytes, SignalPathError>) -> Void) {
        self.buffer = buffer
        self.completion = completion
    }

    /// The buffer and the completion, leaving nothing behind. Called exactly once.
    func take() -> (ReadBuffer, @Sendable (Result<FileBytes, SignalPathError>) -> Void) {
        defer {
            buffer = nil
            completion = nil
        }
        return (buffer!, completion!)
    }
}
