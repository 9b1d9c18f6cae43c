import Glibc

/// A read position over a non-seekable stream (standard input, a pipe), front to back.
///
/// While a header is parsed, bytes already read stay in memory (up to 1 MiB behind the position)
/// so the parser can look back, or the whole stream can be spooled from its start; after
/// `stopRetaining()` only unread bytes are kept, so memory stays bounded however long the stream
/// runs. Seeking forwards reads and drops the bytes in between.
public final class StreamCursor: ByteCursor {
    public let path: String
    public private(set) var position: Int64 = 0
    public private(set) var error: SignalPathError?
    /// True once the descriptor reported the end of the stream.
    public private(set) var reachedEnd = false

    private let descriptor: Int32
    private var retained: [UInt8] = []
    /// The stream offset of `retained[0]`.
    private var retainedStart: Int64 = 0
    private var keepsEverything = true
    /// Bytes kept behind the position once retaining stops (`keepBehind`).
    private var keptBehind = 0
    private static let readSize = 256 << 10

    /// Reads from `descriptor`, which the caller keeps open for the cursor's lifetime.
    public init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        Self.widenPipe(descriptor)
    }

    /// Linux's F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), which Glibc's module does not export.
    private static let setPipeSize: Int32 = 1024 + 7

    /// A pipe's buffer grown from 64 KiB to 1 MiB (the unprivileged limit, fs.pipe-max-size), so
    /// that the writer (`cat`, `ffmpeg … -f wav -`) and this reader take turns sixteen times less
    /// often. Refused (another limit, not a pipe) it stays as it was.
    private static func widenPipe(_ descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        _ = fcntl(descriptor, setPipeSize, Int32(1 << 20))
    }

    private var retainedEnd: Int64 { retainedStart + Int64(retained.count) }

    /// Bytes held in memory now (for tests of the memory bound).
    var retainedByteCount: Int { retained.count }

    public func seek(to offset: Int64) {
        if offset < retainedStart {
            error = error ?? .notSeekable(path: path)
            return
        }
        position = offset
    }

    public func limitReadAhead(to offset: Int64) {}

    /// Keeps the `bytes` before the furthest byte read after `stopRetaining()`: a stream's analysis
    /// reads each chunk's first frames again, the ones the chunk before it ended with.
    public func keepBehind(_ bytes: Int) {
        keptBehind = max(0, bytes)
    }

    /// Stops keeping read bytes: from now on only unread bytes stay in memory, and the `keepBehind`
    /// bytes before the furthest one read (once the samples begin, nothing else before it is looked
    /// at again).
    public func stopRetaining() {
        keepsEverything = false
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard error == nil else { return 0 }
        var copied = 0
        while copied < buffer.count {
            if position >= retainedStart && position < retainedEnd {
                let start = Int(position - retainedStart)
                let count = min(retained.count - start, buffer.count - copied)
                retained.withUnsafeBytes { buffer.copy(from: $0, start..<start + count, to: copied) }
                copied += count
                position += Int64(count)
                continue
            }
            guard fill() else { break }
        }
        return copied
    }

    public func peek(upTo count: Int, _ body: (UnsafeRawBufferPointer) -> Int) -> Int {
        while error == nil && !(position >= retainedStart && position < retainedEnd) {
            guard fill() else { break }
        }
        guard error == nil, position >= retainedStart && position < retainedEnd else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        let start = Int(position - retainedStart)
        let used = retained.withUnsafeBytes { bytes in
            body(UnsafeRawBufferPointer(rebasing: bytes[start..<min(bytes.count, start + count)]))
        }
        position += Int64(used)
        return used
    }

    /// Reads the next piece of the stream into `retained`; false at the end or on an error.
    private func fill() -> Bool {
        guard !reachedEnd else { return false }
        // Keep what may still be looked at: everything unread, and while a header is being parsed a
        // window behind the position (so a chunk skipped by mistake cannot make memory grow).
        let keepFrom = position - (keepsEverything ? StreamCursor.lookBehind : Int64(keptBehind))
        if keepFrom > retainedStart {
            let drop = Int(min(keepFrom - retainedStart, Int64(retained.count)))
            retained.removeFirst(drop)
            retainedStart += Int64(drop)
        }
        let oldCount = retained.count
        retained.append(contentsOf: repeatElement(0, count: StreamCursor.readSize))
        var got = 0
        repeat {
            got = retained.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + oldCount, StreamCursor.readSize) }
        } while got < 0 && errno == EINTR
        if got < 0 {
            error = .fromErrno(errno, path: path, offset: retainedStart + Int64(oldCount))
            retained.removeLast(StreamCursor.readSize)
            return false
        }
        retained.removeLast(StreamCursor.readSize - got)
        if got == 0 { reachedEnd = true }
        return got > 0
    }

    private static let lookBehind: Int64 = 1 << 20

    /// Everything from the current position to the end of the stream, handed to `body` in pieces
    /// (for spooling a stream to a file).
    func drain(_ body: (UnsafeRawBufferPointer) -> Bool) throws(SignalPathError) {
        var buffer = [UInt8](repeating: 0, count: StreamCursor.readSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(into: $0) }
            if let error { throw error }
            if count == 0 { return }
            let keepGoing = buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if !keepGoing { return }
        }
    }
}
