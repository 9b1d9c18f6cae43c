/// A list of paths (`scan --files-from`): one per line, or separated by NUL bytes (`find -print0`,
/// `--null`), from a file or standard input (`-`).
public enum PathList {
    public static func read(_ path: String, separator: UInt8) throws(SignalPathError) -> [String] {
        try lines(path, separator: separator).filter { !$0.isEmpty }
    }

    /// Every entry, empty ones too, so that a caller can name an entry by its line number
    /// (`compare --pairs`).
    public static func lines(_ path: String, separator: UInt8) throws(SignalPathError) -> [String] {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SignalPathError.fromErrno(errno, path: path) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var entries: [String] = []
        var partial: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SignalPathError.fromErrno(errno, path: path)
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where buffer[index] == separator {
                partial.append(contentsOf: buffer[start..<index])
                entries.append(entry(partial, separator: separator))
                partial.removeAll(keepingCapacity: true)
                start = index + 1
            }
            partial.append(contentsOf: buffer[start..<count])
        }
        if !partial.isEmpty { entries.append(entry(partial, separator: separator)) }
        return entries
    }

    /// A line's text without a carriage return (lists written on Windows).
    private static func entry(_ bytes: [UInt8], separator: UInt8) -> String {
        let trimmed = separator == UInt8(ascii: "\n") && bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...]
        return String(decoding: trimmed, as: UTF8.self)
    }
}
