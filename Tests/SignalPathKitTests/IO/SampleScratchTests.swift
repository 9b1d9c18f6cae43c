import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("SampleScratch")
struct SampleScratchTests {
    /// What `scan` does to the pool: two workers' scratch made and released for file after file,
    /// of lengths that vary with the files. Buffers come back and are handed out again, so memory is
    /// mapped a few times, not once per file; a buffer in use keeps what its user wrote.
    @Test("scratch for file after file reuses mapped buffers and keeps its samples while held")
    func reuseAcrossFiles() {
        var random = SeededGenerator(seed: 16)
        let pool = MappedBufferPool(idleByteLimit: 32 << 20)
        var classes = Set<Int>()
        for file in 0..<200 {
            let counts = (0..<2).map { _ in Int.random(in: 1_000...600_000, using: &random) }
            let held = counts.map { SampleScratch(count: $0, pool: pool) }
            for (index, scratch) in held.enumerated() {
                #expect(scratch.samples.count == counts[index])
                for sample in stride(from: 0, to: scratch.samples.count, by: 997) { scratch.samples[sample] = Float(file * 2 + index) }
                classes.insert(MappedBufferPool.capacity(for: counts[index] * MemoryLayout<Float>.stride))
            }
            for (index, scratch) in held.enumerated() {
                #expect(stride(from: 0, to: scratch.samples.count, by: 997).allSatisfy { scratch.samples[$0] == Float(file * 2 + index) })
            }
        }
        // At most two of a class in use at once: two mappings per class the lengths fell in.
        #expect(pool.statistics.mappings <= 2 * classes.count, "\(pool.statistics.mappings) mappings for 400 buffers in \(classes.count) classes")
        #expect(pool.statistics.mappedBytes == pool.statistics.idleBytes, "every buffer is back")
    }

    /// The scratch pool's one difference from the reads' (whose policy `MappedBufferPoolTests`
    /// models): a request finding no idle buffer of its class takes the smallest idle larger one.
    @Test("a short file's scratch takes an idle larger buffer, the smallest that fits, instead of mapping")
    func takesLarger() {
        let pool = MappedBufferPool(idleByteLimit: 32 << 20, takesLarger: true)
        let sizes = [4 << 20, 1 << 20, 2 << 20].map { $0 / MemoryLayout<Float>.stride }
        do { _ = sizes.map { SampleScratch(count: $0, pool: pool) } }
        #expect(pool.statistics.mappings == 3 && pool.statistics.idleBytes == 7 << 20)
        let small = SampleScratch(count: 300_000 / MemoryLayout<Float>.stride, pool: pool)  // a 512 KiB class
        #expect(pool.statistics.mappings == 3 && pool.statistics.idleBytes == 6 << 20, "took the 1 MiB buffer")
        let middle = SampleScratch(count: (1 << 20) / MemoryLayout<Float>.stride, pool: pool)
        #expect(pool.statistics.mappings == 3 && pool.statistics.idleBytes == 4 << 20, "took the 2 MiB buffer")
        withExtendedLifetime((small, middle)) {}
        let exact = MappedBufferPool(idleByteLimit: 32 << 20)
        do { _ = SampleScratch(count: (4 << 20) / MemoryLayout<Float>.stride, pool: exact) }
        _ = SampleScratch(count: 1000, pool: exact)
        #expect(exact.statistics.mappings == 2, "the reads' policy maps a new buffer of the class")
    }
}
