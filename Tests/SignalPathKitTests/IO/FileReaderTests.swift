import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("FileReader")
struct FileReaderTests {
    let scratch = ScratchDirectory("reader")
    let content: [UInt8]
    let path: String

    init() {
        var random = SeededGenerator(seed: 7)
        content = (0..<(3 << 20) + 17).map { _ in UInt8.random(in: 0...255, using: &random) }
        path = scratch.write("data.bin", content)
    }

    func expected(_ range: Range<Int>) -> [UInt8] {
        Array(content[min(range.lowerBound, content.count)..<min(range.upperBound, content.count)])
    }

    @Test("reads ranges inside, across and past the end of the file, and empty ranges")
    func rangeEdges() throws {
        let reader = try FileReader(path: path)
        let size = content.count
        #expect(reader.size == Int64(size))
        // Both kinds of read: DispatchIO reads under 128 KiB, barrier reads into pooled buffers above.
        let large = MappedBufferPool.smallestCapacity
        for range in [
            0..<100, 1000..<1_001_000, size - 10..<size, size - 10..<size + 100, size..<size + 5,
            size + 1000..<size + 2000, 500..<500, 0..<size,
            7..<7 + large - 1, 7..<7 + large, size - 1000..<size - 1000 + large, size - 700_000..<size + 700_000,
            size..<size + large, size + 5000..<size + 5000 + 3 * large,
        ] {
            #expect(firstDifference(try reader.readBlocking(Int64(range.lowerBound)..<Int64(range.upperBound)).array, expected(range)) == nil, "\(range)")
        }
    }

    @Test("many asynchronous reads in flight at once all return their own bytes")
    func concurrentAsyncReads() async throws {
        let reader = try FileReader(path: path)
        var random = SeededGenerator(seed: 11)
        let ranges = (0..<200).map { _ -> Range<Int> in
            let start = Int.random(in: 0..<content.count, using: &random)
            return start..<start + Int.random(in: 0...300_000, using: &random)
        }
        try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for (index, range) in ranges.enumerated() {
                group.addTask { (index, try await reader.read(Int64(range.lowerBound)..<Int64(range.upperBound)).array) }
            }
            for try await (index, bytes) in group {
                #expect(firstDifference(bytes, expected(ranges[index])) == nil)
            }
        }
        #expect(reader.statistics.reads == ranges.filter { !$0.isEmpty }.count)
    }

    @Test("blocking reads from many threads at once", arguments: [1...100_000, 100_000...900_000])
    func concurrentBlockingReads(lengths: ClosedRange<Int>) throws {
        let reader = try FileReader(path: path)
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            var random = SeededGenerator(seed: UInt64(100 + worker))
            for _ in 0..<20 {
                let start = Int.random(in: 0..<content.count, using: &random)
                let range = start..<start + Int.random(in: lengths, using: &random)
                if (try? reader.readBlocking(Int64(range.lowerBound)..<Int64(range.upperBound)))?.array != expected(range) {
                    failures.increment()
                }
            }
        }
        #expect(failures.value == 0)
    }

    @Test("a sequential pass in chunks with read-ahead returns the file in order", arguments: [1 << 10, 64 << 10, 1 << 20])
    func sequentialChunks(chunkSize: Int) throws {
        let reader = try FileReader(path: path)
        let chunks = reader.chunks(chunkSize: chunkSize, readAhead: 3)
        var joined: [UInt8] = []
        while let chunk = try chunks.next() {
            #expect(chunk.count <= chunkSize)
            joined += chunk.array
        }
        #expect(firstDifference(joined, content) == nil)
        let part = reader.chunks(in: 1000..<500_000, chunkSize: chunkSize, readAhead: 2)
        var partJoined: [UInt8] = []
        while let chunk = try part.next() { partJoined += chunk.array }
        #expect(firstDifference(partJoined, expected(1000..<500_000)) == nil)
    }

    @Test("a relative path is resolved to an absolute one")
    func relativePath() throws {
        let previous = FileManager.default.currentDirectoryPath
        #expect(FileManager.default.changeCurrentDirectoryPath(scratch.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let reader = try FileReader(path: "data.bin")
        #expect(reader.resolvedPath.hasPrefix("/"))
        #expect(try reader.readBlocking(0..<64).array == expected(0..<64))
    }

    @Test("a missing file, a directory and a FIFO give typed errors that name the path")
    func openErrors() throws {
        #expect(throws: SignalPathError.notFound(path: scratch.file("missing.wav"))) {
            try FileReader(path: scratch.file("missing.wav"))
        }
        #expect(throws: SignalPathError.notFound(path: scratch.file("data.bin/x"))) {
            try FileReader(path: scratch.file("data.bin/x"))
        }
        #expect(throws: SignalPathError.isDirectory(path: scratch.path)) { try FileReader(path: scratch.path) }
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Must fail at once rather than block waiting for a writer.
        #expect(throws: SignalPathError.notRegularFile(path: fifo, kind: "FIFO")) { try FileReader(path: fifo) }
    }

    @Test("an unreadable file gives permission denied", .enabled(if: geteuid() != 0, "root reads any file; the CLI tests cover this with setpriv"))
    func unreadable() throws {
        let locked = scratch.write("locked.wav", [1, 2, 3])
        chmod(locked, 0)
        #expect(throws: SignalPathError.permissionDenied(path: locked)) { try FileReader(path: locked) }
    }

    @Test("an operating-system read error surfaces as a typed I/O error with the offset")
    func readError() throws {
        // /proc/self/mem is a regular file whose low addresses are unmapped: reading there fails with EIO.
        let reader = try FileReader(path: "/proc/self/mem")
        #expect(throws: SignalPathError.io(path: "/proc/self/mem", errno: EIO, offset: 4096)) {
            try reader.readBlocking(4096..<8192)
        }
        #expect(throws: SignalPathError.io(path: "/proc/self/mem", errno: EIO, offset: 4096)) {
            try reader.readBlocking(4096..<4096 + 1 << 20)
        }
        let error = SignalPathError.io(path: "/proc/self/mem", errno: EIO, offset: 4096)
        #expect(error.description == "/proc/self/mem: read error at byte 4096: Input/output error")
    }
}
