/// Float samples in a buffer from `MappedBufferPool.scratch`, given back when released: a
/// worker's rows or frame window, which `scan` would otherwise map and fault in afresh for every
/// file.
///
/// A buffer from the pool holds what its last user left (a new one holds zeros): users write
/// before they read. Unchecked Sendable: like the worker that owns it, it is used by one task at
/// a time.
final class SampleScratch: @unchecked Sendable {
    /// `count` samples, the start of the mapping.
    let samples: UnsafeMutableBufferPointer<Float>
    private let capacity: Int
    private let pool: MappedBufferPool

    init(count: Int, pool: MappedBufferPool = .scratch) {
        // Like Swift's own allocation, a failed mapping is fatal: there is no memory to go on with.
        guard let mapping = pool.take(max(1, count) * MemoryLayout<Float>.stride) else {
            fatalError("signalpath: out of memory (mapping \(count * MemoryLayout<Float>.stride) bytes of scratch)")
        }
        samples = UnsafeMutableBufferPointer(start: mapping.base.bindMemory(to: Float.self, capacity: mapping.capacity / MemoryLayout<Float>.stride), count: count)
        capacity = mapping.capacity
        self.pool = pool
    }

    deinit {
        pool.recycle(UnsafeMutableRawPointer(samples.baseAddress!), capacity: capacity)
    }
}
