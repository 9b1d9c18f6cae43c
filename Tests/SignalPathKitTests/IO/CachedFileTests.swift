import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("CachedFile and FileCursor")
struct CachedFileTests {
    let scratch = ScratchDirectory("cached")
    let content: [UInt8]
    let path: String

    init() {
        var random = SeededGenerator(seed: 21)
        content = (0..<1_000_003).map { _ in UInt8.random(in: 0...255, using: &random) }
        path = scratch.write("data.bin", content)
    }

    @Test("random seeks and reads through a small cache return the file's bytes")
    func randomReads() throws {
        let file = try CachedFile(path: path, cacheBytes: 64 << 10, blockSize: 4096)
        let cursor = FileCursor(file: file, readAheadBlocks: 2)
        var random = SeededGenerator(seed: 5)
        var buffer = [UInt8](repeating: 0, count: 50_000)
        for _ in 0..<2000 {
            let start = Int.random(in: 0...content.count + 100, using: &random)
            let length = Int.random(in: 0...50_000, using: &random)
            cursor.seek(to: Int64(start))
            let count = buffer.withUnsafeMutableBytes { cursor.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<length])) }
            let expected = content[min(start, content.count)..<min(start + length, content.count)]
            #expect(count == expected.count)
            #expect(buffer[0..<count].elementsEqual(expected))
            #expect(cursor.position == Int64(start + count))
        }
        #expect(file.cache.byteCount <= 64 << 10)
        #expect(file.cache.invariantViolation() == nil)
    }

    @Test("a sequential scan reads each block from disk once and keeps read-ahead in flight")
    func sequentialScan() throws {
        let file = try CachedFile(path: path, cacheBytes: 256 << 10, blockSize: 16 << 10)
        let cursor = FileCursor(file: file, readAheadBlocks: 4)
        var buffer = [UInt8](repeating: 0, count: 3000)  // small reads, as libsndfile makes them
        var joined: [UInt8] = []
        while case let count = buffer.withUnsafeMutableBytes({ cursor.read(into: $0) }), count > 0 {
            joined += buffer[0..<count]
        }
        #expect(firstDifference(joined, content) == nil)
        let blocks = (content.count + (16 << 10) - 1) / (16 << 10)
        #expect(file.reader.statistics.reads == blocks, "each block is read exactly once")
        #expect(file.reader.statistics.bytesRead == Int64(content.count))
        #expect(file.cache.byteCount <= 256 << 10)
    }

    @Test("concurrent cursors over one cached file each see the right bytes")
    func concurrentCursors() throws {
        let file = try CachedFile(path: path, cacheBytes: 128 << 10, blockSize: 8192)
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let cursor = FileCursor(file: file)
            var random = SeededGenerator(seed: UInt64(300 + worker))
            var buffer = [UInt8](repeating: 0, count: 20_000)
            for _ in 0..<300 {
                let start = Int.random(in: 0..<content.count, using: &random)
                cursor.seek(to: Int64(start))
                let count = buffer.withUnsafeMutableBytes { cursor.read(into: $0) }
                if !buffer[0..<count].elementsEqual(content[start..<min(start + 20_000, content.count)]) { failures.increment() }
            }
        }
        #expect(failures.value == 0)
        #expect(file.cache.invariantViolation() == nil)
    }

    @Test("reads are short only at the end of the file, and peeking shows one block at most")
    func shortAtEnd() throws {
        let cursor = FileCursor(file: try CachedFile(path: path, blockSize: 4096))
        #expect(try cursor.bytes(in: 999_990..<1_000_010) == Array(content[999_990...]))
        #expect(try cursor.bytes(in: 2_000_000..<2_000_010) == [])
        #expect(try cursor.bytes(in: 4090..<4100) == Array(content[4090..<4100]))
        cursor.seek(to: 4090)
        var seen: [UInt8] = []
        let used = cursor.peek(upTo: 100) { bytes in
            seen = Array(bytes)
            return 4
        }
        #expect(seen == Array(content[4090..<4096]), "only what lies in the current block")
        #expect(used == 4 && cursor.position == 4094)
    }

    @Test("a file that grows after a read shows its new bytes; blocks inside the size seen read as before")
    func growingFile() throws {
        let growing = scratch.write("growing.bin", Array(content[0..<10_000]))
        let file = try CachedFile(path: growing, blockSize: 4096)
        let cursor = FileCursor(file: file)
        #expect(try cursor.bytes(in: 0..<20_000) == Array(content[0..<10_000]))
        let handle = try #require(FileHandle(forWritingAtPath: growing))
        handle.seekToEndOfFile()
        handle.write(Data(content[10_000..<30_000]))
        try handle.close()
        // The short last block (8192..<10 000) was cached: reaching past the size seen, it is asked
        // for again, and the blocks after it come from the file's new size.
        #expect(try cursor.bytes(in: 0..<40_000) == Array(content[0..<30_000]))
        #expect(try cursor.bytes(in: 12_000..<12_100) == Array(content[12_000..<12_100]))
    }

    @Test("a cursor starting with the head reads only the head until a read goes past it, then the file's bytes as any cursor")
    func headFirst() throws {
        // Blocks of 512 KiB, so that block 0 reaches well past the 128 KiB head.
        let file = try CachedFile(path: path, blockSize: 512 << 10)
        let cursor = FileCursor(file: file, readAheadBlocks: 0, startsWithHead: true)
        #expect(try cursor.bytes(in: 0..<64) == Array(content[0..<64]))
        #expect(file.reader.statistics.bytesRead == Int64(CachedFile.headSize), "the head alone")
        #expect(file.cache.byteCount == 0, "the head is kept apart from the cache's blocks")
        var random = SeededGenerator(seed: 8)
        for _ in 0..<300 {
            let start = Int.random(in: 0...content.count + 10, using: &random)
            let length = Int.random(in: 0...200_000, using: &random)
            let expected = Array(content[min(start, content.count)..<min(start + length, content.count)])
            #expect(try cursor.bytes(in: Int64(start)..<Int64(start + length)) == expected)
            cursor.seek(to: Int64(start))
            var seen: [UInt8] = []
            _ = cursor.peek(upTo: length) { bytes in
                seen = Array(bytes)
                return 0
            }
            #expect(!seen.isEmpty || expected.isEmpty, "a peek at \(start) sees the bytes there")
            #expect(seen.elementsEqual(content[min(start, content.count)..<min(start + seen.count, content.count)]))
        }
        // With block 0 cached, the head is block 0 itself.
        #expect(try file.head().count == 512 << 10)
    }
}
