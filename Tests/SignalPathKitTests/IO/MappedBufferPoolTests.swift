import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("MappedBufferPool")
struct MappedBufferPoolTests {
    let scratch = ScratchDirectory("pool")

    @Test("size classes are the next power of two, at least 128 KiB")
    func sizeClasses() {
        let kib = 1 << 10
        let cases = [
            (1, 128 * kib), (128 * kib, 128 * kib), (128 * kib + 1, 256 * kib), (300_000, 512 * kib),
            (1 << 20, 1 << 20), ((1 << 20) + 1, 2 << 20), (5 << 20, 8 << 20),
        ]
        for (length, capacity) in cases {
            #expect(MappedBufferPool.capacity(for: length) == capacity, "\(length)")
        }
    }

    /// The pool against a model of its policy: released buffers queue up idle, the longest idle go
    /// when the budget is exceeded, a request takes the most recently idled buffer of its class,
    /// and only a request that finds none maps memory. Buffers in use keep their bytes throughout.
    @Test("seeded random takes and releases match a model of the policy, and held bytes stay intact")
    func modelTest() throws {
        var random = SeededGenerator(seed: 2026)
        let content = (0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let path = scratch.write("content.bin", content)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }

        let limit = 1 << 20
        let pool = MappedBufferPool(idleByteLimit: limit)
        var held: [(buffer: ReadBuffer, expected: ArraySlice<UInt8>)] = []
        var modelIdle: [Int] = []
        var modelMappings = 0

        for step in 0..<2000 {
            if held.isEmpty || (held.count < 12 && Bool.random(using: &random)) {
                let length = [Int.random(in: 1...(128 << 10), using: &random), Int.random(in: 1...(700 << 10), using: &random)]
                    .randomElement(using: &random)!
                let capacity = MappedBufferPool.capacity(for: length)
                if let index = modelIdle.lastIndex(of: capacity) {
                    modelIdle.remove(at: index)
                } else {
                    modelMappings += 1
                }
                let buffer = try #require(pool.buffer(for: length))
                let offset = Int.random(in: 0..<content.count, using: &random)
                #expect(buffer.fill(from: descriptor, offset: Int64(offset), length: length) == nil)
                let expected = content[offset..<min(offset + length, content.count)]
                #expect(buffer.capacity == capacity && buffer.count == expected.count)
                held.append((buffer, expected))
            } else {
                let released = held.remove(at: Int.random(in: 0..<held.count, using: &random))
                modelIdle.append(released.buffer.capacity)
                while modelIdle.reduce(0, +) > limit { modelIdle.removeFirst() }
            }
            // Invariants after every step.
            let statistics = pool.statistics
            #expect(pool.idleCapacities == modelIdle, "step \(step)")
            #expect(statistics.mappings == modelMappings, "step \(step)")
            #expect(statistics.idleBytes == modelIdle.reduce(0, +) && statistics.idleBytes <= limit)
            #expect(statistics.mappedBytes == statistics.idleBytes + held.map(\.buffer.capacity).reduce(0, +))
            if step % 100 == 0 {
                for entry in held {
                    let bytes = FileBytes(entry.buffer).array
                    #expect(bytes.elementsEqual(entry.expected), "step \(step): a buffer in use changed")
                }
            }
        }
        held.removeAll()
        #expect(pool.statistics.mappedBytes == pool.statistics.idleBytes)
    }

    @Test("a whole-file pass reuses a handful of buffers, and gives every one back")
    func passReusesBuffers() throws {
        // 24 MiB: 1 MiB of seeded bytes, each copy stamped with its index so that order shows.
        var random = SeededGenerator(seed: 5)
        let block = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
        var content: [UInt8] = []
        for index in 0..<24 { content += [UInt8(index)] + block.dropFirst() }
        let path = scratch.write("pass.bin", content)
        let pool = MappedBufferPool(idleByteLimit: 2 << 20)
        do {
            let reader = try FileReader(path: path, bufferPool: pool)
            let chunks = reader.chunks(chunkSize: 1 << 20, readAhead: 2)
            var offset = 0
            while let chunk = try chunks.next() {
                #expect(chunk.array.elementsEqual(content[offset..<offset + chunk.count]))
                offset += chunk.count
            }
            #expect(offset == content.count && reader.statistics.reads == 24)
            // In use at once: three in flight and the one being looked at, plus what is idle.
            #expect(pool.statistics.mappings <= 6, "\(pool.statistics.mappings) buffers mapped for 24 reads")

            // Through a cache: evicted blocks come back to the pool.
            let file = CachedFile(reader: reader, cache: FileMemoryCache(byteLimit: 4 << 20))
            let cursor = FileCursor(file: file)
            var buffer = [UInt8](repeating: 0, count: 100_000)
            var copied: [UInt8] = []
            while case let got = buffer.withUnsafeMutableBytes({ cursor.read(into: $0) }), got > 0 { copied += buffer[0..<got] }
            #expect(cursor.error == nil && copied == content)
            #expect(pool.statistics.mappedBytes <= (4 + 2 + 2 + 2) << 20, "cache, cursor and read-ahead, idle")
        }
        // Reader, cache and chunks are gone: every buffer is idle or unmapped (once the read
        // threads have let go of their last ones).
        #expect(eventually { pool.statistics.mappedBytes == pool.statistics.idleBytes })
        #expect(pool.statistics.idleBytes <= 2 << 20)
    }

    @Test("large reads are zero-copy views of their buffer; a short one at the end of the file is copied out")
    func pooledBytes() throws {
        var random = SeededGenerator(seed: 9)
        let content = (0..<(600 << 10)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let pool = MappedBufferPool(idleByteLimit: 4 << 20)
        let reader = try FileReader(path: scratch.write("bytes.bin", content), bufferPool: pool)

        let whole = try reader.readBlocking(0..<Int64(content.count))
        #expect(whole.array == content && !whole.isPartOfLargerStorage)
        let middle = whole[1000..<300_000]
        #expect(middle.isPartOfLargerStorage && middle.array == Array(content[1000..<300_000]))
        #expect(middle[10..<20].array == Array(content[1010..<1020]))
        #expect(pool.statistics.mappedBytes == 1 << 20 && pool.statistics.idleBytes == 0, "held by the bytes")

        // 1000 bytes left in a 128 KiB buffer: copied, and the buffer goes back at once.
        let tail = try reader.readBlocking(Int64(content.count - 1000)..<Int64(content.count + 200_000))
        #expect(tail.array == Array(content.suffix(1000)))
        // The read's thread lets go of the buffer just after handing the bytes on.
        #expect(eventually { pool.statistics.idleBytes == 256 << 10 }, "the tail's buffer is idle although its bytes are held")
        #expect(pool.statistics.mappedBytes == (1 << 20) + (256 << 10))
        withExtendedLifetime(whole) {}
    }

    /// Whether `condition` holds within five seconds: a read's thread releases its buffer just
    /// after it has handed the bytes on, so a waiter may look a moment too soon.
    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            usleep(1000)
        }
        return true
    }
}
