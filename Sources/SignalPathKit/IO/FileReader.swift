import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads byte ranges of one regular file through a random-access DispatchIO channel.
///
/// The file is opened when the reader is made, so a missing, unreadable or wrong-kind path is
/// reported at once as a typed error rather than later inside a read handler (which is where a
/// path-based channel would report it). Reads may cross or start past the end of the file: the
/// result is then short or empty, not an error. Any number of reads may be in flight at once.
///
/// DispatchIO allocates a buffer per read, so it pays off for large reads: callers should ask for
/// hundreds of KiB at a time and keep the next read in flight while using the current one
/// (`chunks(in:chunkSize:readAhead:)`, or `CachedFile`, do that). The buffer is handed on as
/// `FileBytes` without copying.
public final class FileReader: @unchecked Sendable {
    // @unchecked: DispatchIO channels are thread-safe (every operation is enqueued on the channel),
    // the descriptor is only used for fstat, and the counters are atomics.

    /// The path as the caller named it; used in every error.
    public let path: String
    /// The absolute path with symbolic links resolved.
    public let resolvedPath: String

    private let descriptor: Int32
    private let channel: DispatchIO
    private let handlerQueue = DispatchQueue(label: "signalpath.FileReader", attributes: .concurrent)
    private let bytesReadCounter = Atomic<Int64>(0)
    private let readCounter = Atomic<Int>(0)

    /// Opens `path` for reading. Errors name `displayPath` (default: `path`), e.g. `-` for stdin.
    /// - Throws: `SignalPathError.notFound`, `.permissionDenied`, `.isDirectory`, `.notRegularFile`.
    public convenience init(path openPath: String, displayPath: String? = nil) throws(SignalPathError) {
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
        try self.init(descriptor: fd, path: path, resolvedPath: resolvedPath)
    }

    /// Reads the regular file open on `descriptor`, which the reader takes over and closes.
    public init(descriptor fd: Int32, path: String, resolvedPath: String) throws(SignalPathError) {
        self.path = path
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
    public func read(_ range: Range<Int64>,
                     completion: @escaping @Sendable (Result<FileBytes, SignalPathError>) -> Void) {
        precondition(range.lowerBound >= 0, "byte offsets are never negative")
        guard !range.isEmpty else {
            completion(.success(.empty))
            return
        }
        readCounter.add(1, ordering: .relaxed)
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
