/// A read position in a `CachedFile`, for one consumer at a time (a decoder).
///
/// Keeps the block it is in, so consecutive small reads (libsndfile asks for a few KiB at a time)
/// cost a memcpy and no lock, and when a read moves on to the next block it prefetches the
/// following `readAheadBlocks`, so a sequential scan finds its data already read.
public final class FileCursor {
    public let file: CachedFile
    /// The offset of the next read; may lie past the end of the file.
    public private(set) var position: Int64 = 0
    /// How many blocks beyond the current one to keep in flight during a sequential scan.
    public let readAheadBlocks: Int
    /// The first error a read met; reads after it return nothing. Decoders check it when a read is short.
    public private(set) var error: SignalPathError?

    /// Whether block 0 is first served by the file's head (`CachedFile.head()`).
    public let startsWithHead: Bool

    /// No block starting at or after this offset is prefetched.
    private var readAheadLimit = Int64.max
    private var currentIndex: Int64 = -1
    private var currentBytes = FileBytes.empty
    /// True while `currentBytes` is the head, which may end before block 0 does.
    private var currentIsHead = false

    /// `startsWithHead` for cursors that parse headers: reads within the file's first
    /// `CachedFile.headSize` bytes then need no 1 MiB block; a read past them loads block 0.
    public init(file: CachedFile, readAheadBlocks: Int? = nil, startsWithHead: Bool = false) {
        self.file = file
        self.readAheadBlocks = readAheadBlocks ?? file.readAheadBlocks
        self.startsWithHead = startsWithHead
    }

    public func limitReadAhead(to offset: Int64) {
        readAheadLimit = offset
    }

    /// Moves the position; negative positions are clamped to zero.
    public func seek(to offset: Int64) {
        position = max(0, offset)
    }

    /// Copies bytes from the position into `buffer` and advances; returns the count, short at the
    /// end of the file or after an error (kept in `error`).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard error == nil else { return 0 }
        var copied = 0
        while copied < buffer.count {
            let index = file.blockIndex(containing: position)
            if index != currentIndex && !moveTo(block: index) { break }
            let start = Int(position - file.blockRange(index).lowerBound)
            if start >= currentBytes.count && currentIsHead && !moveTo(block: index, pastHead: true) { break }
            guard start < currentBytes.count else { break }
            let count = min(currentBytes.count - start, buffer.count - copied)
            currentBytes.withUnsafeBytes { buffer.copy(from: $0, start..<start + count, to: copied) }
            copied += count
            position += Int64(count)
        }
        return copied
    }

    public func peek(upTo count: Int, _ body: (UnsafeRawBufferPointer) -> Int) -> Int {
        let index = file.blockIndex(containing: position)
        let start = Int(position - file.blockRange(index).lowerBound)
        guard error == nil, index == currentIndex || moveTo(block: index),
            start < currentBytes.count || (currentIsHead && moveTo(block: index, pastHead: true)), start < currentBytes.count
        else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        let used = currentBytes.withUnsafeBytes { block in
            body(UnsafeRawBufferPointer(rebasing: block[start..<min(block.count, start + count)]))
        }
        position += Int64(used)
        return used
    }

    private func moveTo(block index: Int64, pastHead: Bool = false) -> Bool {
        let sequential = index == currentIndex + 1
        do {
            let fromHead = index == 0 && startsWithHead && !pastHead
            currentBytes = try fromHead ? file.head() : file.block(index)
            currentIndex = index
            currentIsHead = fromHead
        } catch {
            self.error = error
            return false
        }
        let blockSize = Int64(file.blockSize)
        let limit = readAheadLimit / blockSize + (readAheadLimit % blockSize == 0 ? 0 : 1)  // the first block not needed
        if sequential && readAheadBlocks > 0 && index + 1 < limit {
            file.prefetch(index + 1..<min(index + 1 + Int64(readAheadBlocks), limit))
        }
        return true
    }
}
