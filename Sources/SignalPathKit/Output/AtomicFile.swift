/// Writes a whole output file so that it is either absent or complete: into a temporary file in
/// the same directory, flushed to disk, then renamed into place. An existing file is kept unless
/// `overwrite`.
public enum AtomicFile {
    public static func write(_ contents: String, to path: String, overwrite: Bool) throws(SignalPathError) {
        if !overwrite && access(path, F_OK) == 0 {
            throw .invalidRequest(path: path, reason: "the file exists; use --force to replace it")
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var template = ((directory.isEmpty ? "/" : directory) + "/.signalpath-XXXXXX").utf8CString.map { $0 }
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .io(path: path, errno: errno, offset: nil) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var bytes = Array(contents.utf8)
        var written = 0
        var failure: Int32 = 0
        while written < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += count
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        fchmod(descriptor, 0o644)
        close(descriptor)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .io(path: path, errno: failure, offset: nil)
        }
        bytes.removeAll()
    }
}
