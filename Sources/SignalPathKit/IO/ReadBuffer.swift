/// A page-aligned buffer that one large read fills, recycled through `MappedBufferPool` when the
/// last `FileBytes` showing it is released.
///
/// Recycling is the point: a buffer already mapped and touched costs nothing to fill again, where
/// a fresh one page-faults on every 4 KiB page (DispatchIO's own reads allocate one per read;
/// docs/DECISIONS.md#large-reads).
///
/// Written once, by the read that fills it, before it is handed on; immutable after that, which is
/// why the unchecked `Sendable` is sound.
final class ReadBuffer: @unchecked Sendable {
    private let base: UnsafeMutableRawPointer
    /// Bytes mapped.
    let capacity: Int
    private let pool: MappedBufferPool
    /// Bytes the read delivered (≤ `capacity`).
    private(set) var count = 0

    init(base: UnsafeMutableRawPointer, capacity: Int, pool: MappedBufferPool) {
        self.base = base
        self.capacity = capacity
        self.pool = pool
    }

    deinit {
        pool.recycle(base, capacity: capacity)
    }

    /// Fills the buffer with up to `length` bytes of `descriptor` from `offset` (fewer at the end of
    /// the file); returns the `errno` of a failed read.
    func fill(from descriptor: Int32, offset: Int64, length: Int) -> Int32? {
        precondition(length <= capacity, "a read larger than its buffer")
        var filled = 0
        while filled < length {
            let got = pread(descriptor, base + filled, length - filled, off_t(offset) + off_t(filled))
            if got > 0 {
                filled += got
            } else if got == 0 {
                break  // end of file
            } else if errno != EINTR {
                return errno
            }
        }
        count = filled
        return nil
    }

    /// Calls `body` with the delivered bytes in `window`, valid only during the call.
    func withUnsafeBytes<Result>(in window: Range<Int>, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        precondition(window.upperBound <= count, "outside the bytes read")
        return body(UnsafeRawBufferPointer(start: base + window.lowerBound, count: window.count))
    }
}
