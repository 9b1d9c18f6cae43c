/// An output file that is either absent or complete: text goes into a temporary file in the same
/// directory, which `commit()` flushes to disk and renames into place. Until then — and when a
/// write fails, the value is dropped without a commit, or SIGINT, SIGTERM or SIGHUP ends the
/// process (`TemporaryFiles`) — the target is untouched and the temporary file is removed. An
/// existing target is kept unless `overwrite`.
///
/// The directories the path names are created when missing, as `mkdir -p` does (mode 0777 less
/// the umask; `curl --create-dirs`, `rsync --mkpath`), and the temporary file is made when the
/// value is made, so a directory that cannot be created or written is reported before any work
/// (`cannotCreate`, exit 73). Directories made for a file that is then not written stay.
public final class AtomicFile {
    public let path: String
    private let temporary: TemporaryFiles.File
    private var descriptor: Int32
    private var pending: [UInt8] = []
    private var finished = false

    /// Written to the descriptor in pieces of this size, so a long output is not held whole in memory.
    private static let flushSize = 1 << 20

    public init(path: String, overwrite: Bool) throws(SignalPathError) {
        if !overwrite && access(path, F_OK) == 0 {
            throw .invalidRequest(path: path, reason: "the file exists; use --force to replace it")
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let template = (directory.isEmpty ? "" : directory) + "/.signalpath-XXXXXX"
        var made = TemporaryFiles.create(template)
        if made == nil && errno == ENOENT {
            let code = Self.createDirectories(directory)
            guard code == 0 else { throw .cannotCreate(path: path, errno: code) }
            made = TemporaryFiles.create(template)
        }
        guard let made else { throw .cannotCreate(path: path, errno: errno) }
        fchmod(made.descriptor, 0o644)
        self.path = path
        temporary = made
        descriptor = made.descriptor
    }

    /// Creates `directory` and the missing directories above it; 0, or the errno of the one that
    /// could not be made.
    private static func createDirectories(_ directory: String) -> Int32 {
        var prefix = ""
        for (index, component) in directory.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            prefix += (index == 0 ? "" : "/") + component
            guard !component.isEmpty, component != ".", component != ".." else { continue }
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST { return errno }
        }
        return 0
    }

    deinit { discard() }

    /// Appends `text`.
    public func write(_ text: String) throws(SignalPathError) {
        precondition(!finished, "write after commit or discard")
        pending.append(contentsOf: text.utf8)
        if pending.count >= Self.flushSize { try flush() }
    }

    /// Appends `bytes` (a PNG or PDF).
    public func write(bytes: [UInt8]) throws(SignalPathError) {
        precondition(!finished, "write after commit or discard")
        pending.append(contentsOf: bytes)
        if pending.count >= Self.flushSize { try flush() }
    }

    /// Makes the file complete: flushed to disk and renamed into place.
    public func commit() throws(SignalPathError) {
        precondition(!finished, "commit after commit or discard")
        try flush()
        if fsync(descriptor) != 0 { try fail(.write(path: path, errno: errno)) }
        close(descriptor)
        descriptor = -1
        if rename(temporary.path, path) != 0 {
            let code = errno
            unlink(temporary.path)
            TemporaryFiles.forget(temporary)
            finished = true
            throw .cannotCreate(path: path, errno: code)
        }
        TemporaryFiles.forget(temporary)
        finished = true
    }

    /// Removes the temporary file; the target stays as it was.
    public func discard() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporary.path)
        TemporaryFiles.forget(temporary)
    }

    private func flush() throws(SignalPathError) {
        var written = 0
        while written < pending.count {
            let count = pending.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                try fail(.write(path: path, errno: errno))
            }
            written += count
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Gives up: the temporary file goes, and `error` is thrown.
    private func fail(_ error: SignalPathError) throws(SignalPathError) -> Never {
        discard()
        throw error
    }
}
