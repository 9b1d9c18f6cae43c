/// A read position over bytes from a file or a stream, as decoders consume them.
public protocol ByteCursor: AnyObject {
    /// The offset of the next read.
    var position: Int64 { get }
    /// The first error a read met; reads after it return nothing.
    var error: SignalPathError? { get }
    /// Moves the position (a stream can move forwards, or back only within what it still holds).
    func seek(to offset: Int64)
    /// Copies bytes from the position into `buffer` and advances; returns the count, short only at
    /// the end of the data or after an error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int
    /// Shows `body` up to `count` bytes from the position where they already lie in memory in one
    /// piece (no copy; possibly fewer than asked, empty at the end or after an error), and advances
    /// by the number of bytes `body` returns having used.
    func peek(upTo count: Int, _ body: (UnsafeRawBufferPointer) -> Int) -> Int
    /// Asks not to read ahead past byte `offset`; a stream, which reads only what is consumed, ignores it.
    func limitReadAhead(to offset: Int64)
    /// Asks a stream to keep in memory at least the `bytes` before the furthest byte read, so that a
    /// seek back into them still works; a file, which can always seek back, ignores it.
    func keepBehind(_ bytes: Int)
}

extension ByteCursor {
    /// The bytes of `range`, short at the end of the data.
    func bytes(in range: Range<Int64>) throws(SignalPathError) -> [UInt8] {
        seek(to: range.lowerBound)
        if let error { throw error }
        var bytes = [UInt8](repeating: 0, count: range.count)
        let count = bytes.withUnsafeMutableBytes { read(into: $0) }
        if let error { throw error }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}

extension FileCursor: ByteCursor {
    public func keepBehind(_ bytes: Int) {}
}

extension UnsafeMutableRawBufferPointer {
    /// Copies `source[range]` to this buffer at `offset`; the cursors' inner step.
    func copy(from source: UnsafeRawBufferPointer, _ range: Range<Int>, to offset: Int) {
        UnsafeMutableRawBufferPointer(rebasing: self[offset..<offset + range.count])
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[range]))
    }
}
