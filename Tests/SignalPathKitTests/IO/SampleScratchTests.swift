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
}
