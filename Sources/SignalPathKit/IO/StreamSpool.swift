/// Copies a stream into an unlinked temporary file, for formats that cannot be decoded front to
/// back (libsndfile seeks inside FLAC and Ogg while opening them). Memory stays bounded; the disk
/// holds the stream until the file is closed, and the space is freed when the process ends.
enum StreamSpool {
    /// Spools everything `cursor` has from offset 0 on and returns a reader of the copy.
    static func spool(_ cursor: StreamCursor) throws(SignalPathError) -> FileReader {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/signalpath-stream-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw SignalPathError.io(path: cursor.path, errno: errno, offset: nil)
        }
        let spoolPath = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        unlink(spoolPath)
        cursor.seek(to: 0)
        var writeError: Int32 = 0
        do {
            try cursor.drain { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        writeError = errno
                        return false
                    }
                    offset += written
                }
                return true
            }
        } catch {
            close(fd)
            throw error
        }
        if writeError != 0 {
            close(fd)
            throw SignalPathError.io(path: cursor.path, errno: writeError, offset: nil)
        }
        return try FileReader(descriptor: fd, path: cursor.path, resolvedPath: spoolPath)
    }
}
