/// Rewrites a file's loudness fields without a moment where it is half written: the file is copied
/// into a temporary file beside it (`TemporaryFiles`: removed on SIGINT, SIGTERM and SIGHUP), TagLib
/// changes the copy, which is flushed to disk, given the original's permissions and renamed over
/// it. A failure at any step leaves the original as it was and no temporary file.
///
/// A symbolic link is followed and its target rewritten; a file with other hard links is refused
/// (the rename would part them).
public enum TagRewrite {
    public static func rewrite(_ path: String, container: TagContainer, removing: [String], setting: [(key: String, value: String)]) throws(SignalPathError) {
        let (target, status) = try checkWritable(path)
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        guard let temporary = TemporaryFiles.create((directory.isEmpty ? "" : directory) + "/." + name + ".signalpath-XXXXXX") else {
            throw .cannotCreate(path: path, errno: errno)
        }
        var renamed = false
        defer {
            if !renamed { unlink(temporary.path) }
            TemporaryFiles.forget(temporary)
        }
        let copied = Result { () throws(SignalPathError) in try copy(from: target, to: temporary.descriptor, path: path) }
        // Writable for its owner: TagLib opens the copy by name for writing.
        fchmod(temporary.descriptor, status.st_mode & 0o7777 | 0o200)
        close(temporary.descriptor)
        try copied.get()
        try TagLibrary.rewrite(temporary.path, container: container, removing: removing, setting: setting)
        let descriptor = open(temporary.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SignalPathError.write(path: path, errno: errno) }
        defer { close(descriptor) }
        _ = fchown(descriptor, status.st_uid, status.st_gid)
        fchmod(descriptor, status.st_mode & 0o7777)
        if fsync(descriptor) != 0 { throw SignalPathError.write(path: path, errno: errno) }
        if rename(temporary.path, target) != 0 { throw SignalPathError.cannotCreate(path: path, errno: errno) }
        renamed = true
    }

    /// Refuses a file that may not be rewritten: read-only (by its permissions, even for root, who
    /// could), or with other hard links. Returns the file's real path and status.
    @discardableResult
    public static func checkWritable(_ path: String) throws(SignalPathError) -> (target: String, status: stat) {
        let target = try resolved(path)
        var status = stat()
        guard stat(target, &status) == 0 else { throw SignalPathError.fromErrno(errno, path: path) }
        guard access(target, W_OK) == 0 && status.st_mode & 0o222 != 0 else { throw .tagsNotWritten(path: path, reason: "the file is read-only") }
        guard status.st_nlink <= 1 else {
            throw .tagsNotWritten(path: path, reason: "the file has \(status.st_nlink) hard links, which replacing it would part")
        }
        return (target, status)
    }

    /// `path` with symbolic links followed.
    private static func resolved(_ path: String) throws(SignalPathError) -> String {
        guard let real = realpath(path, nil) else { throw SignalPathError.fromErrno(errno, path: path) }
        defer { free(real) }
        return String(cString: real)
    }

    /// The whole of `source` into `descriptor`: inside the kernel (`copy_file_range`, the blocks
    /// shared where the file system can), else through a 1 MiB buffer where the kernel cannot
    /// (another file system before Linux 5.3, a C library without it).
    private static func copy(from source: String, to descriptor: Int32, path: String) throws(SignalPathError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw SignalPathError.fromErrno(errno, path: path) }
        defer { close(input) }
        var copied = 0
        while true {
            let count = copyFileRange(from: input, to: descriptor, count: 1 << 30)
            if count == 0 { return }
            if count > 0 {
                copied += count
                continue
            }
            if errno == EINTR { continue }
            guard copied == 0, [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP, ENOTSUP].contains(errno) else { throw .write(path: path, errno: errno) }
            break
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, errno: errno, offset: nil)
            }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, count - written) }
                if step < 0 {
                    if errno == EINTR { continue }
                    throw .write(path: path, errno: errno)
                }
                written += step
            }
        }
    }
}
