/// Data goes to standard output.
public enum StandardOutput {
    /// True when standard output is a terminal (then results are drawn for people).
    public static var isTerminal: Bool { isatty(1) == 1 }

    /// Writes `text` to file descriptor 1 at once, unbuffered (live frames must not wait in a
    /// buffer); false when the reader has gone (a closed pipe) or the write failed.
    @discardableResult
    public static func write(_ text: String) -> Bool { write(text, to: 1) }

    /// Writes `bytes` (a PNG or PDF) to file descriptor 1 at once, after what `print` buffered.
    @discardableResult
    public static func write(bytes: [UInt8]) -> Bool {
        fflush(nil)
        return bytes.withUnsafeBufferPointer { write($0, to: 1) }
    }

    /// Writes all of `text` to `descriptor`, retrying after signals; false on failure.
    static func write(_ text: String, to descriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { write($0, to: descriptor) }
    }

    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
