import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("StreamCursor")
struct StreamCursorTests {
    /// A pipe with `bytes` written into it from another thread; returns the read end.
    func pipe(_ bytes: [UInt8]) -> Int32 {
        signal(SIGPIPE, SIG_IGN)  // the writer may outlive a reader that stops early
        var ends: [Int32] = [0, 0]
        precondition(Glibc.pipe(&ends) == 0)
        let writeEnd = ends[1]
        Thread {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(writeEnd, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(writeEnd)
        }.start()
        return ends[0]
    }

    let content: [UInt8] = {
        var random = SeededGenerator(seed: 12)
        return (0..<(6 << 20) + 5).map { _ in UInt8.random(in: 0...255, using: &random) }
    }()

    @Test("reads a pipe in order, looks back within the header window, and skips forward")
    func lookBackAndSkip() throws {
        let descriptor = pipe(content)
        defer { close(descriptor) }
        let cursor = StreamCursor(descriptor: descriptor, path: "-")
        #expect(try cursor.bytes(in: 0..<100) == Array(content[0..<100]))
        #expect(try cursor.bytes(in: 40..<60) == Array(content[40..<60]), "looking back inside the header window")
        #expect(try cursor.bytes(in: 3_000_000..<3_000_010) == Array(content[3_000_000..<3_000_010]), "skipping forward")
        cursor.seek(to: 10)
        #expect(cursor.error == .notSeekable(path: "-"), "more than 1 MiB back is gone")
    }

    @Test("after the header, memory stays bounded however long the stream is")
    func boundedMemory() throws {
        let descriptor = pipe(content)
        defer { close(descriptor) }
        let cursor = StreamCursor(descriptor: descriptor, path: "-")
        _ = try cursor.bytes(in: 0..<44)
        cursor.stopRetaining()
        var joined = Array(content[0..<44])
        var buffer = [UInt8](repeating: 0, count: 7000)
        var largest = 0
        while case let count = buffer.withUnsafeMutableBytes({ cursor.read(into: $0) }), count > 0 {
            joined += buffer[0..<count]
            largest = max(largest, cursor.retainedByteCount)
        }
        #expect(cursor.reachedEnd && cursor.error == nil)
        #expect(firstDifference(joined, content) == nil)
        #expect(largest <= 512 << 10, "held \(largest) bytes")
    }

    @Test("after the header, the bytes kept behind the furthest one read can be read again; memory stays bounded by them and a read")
    func keptBehind() throws {
        let descriptor = pipe(content)
        defer { close(descriptor) }
        let cursor = StreamCursor(descriptor: descriptor, path: "-")
        _ = try cursor.bytes(in: 0..<44)
        cursor.stopRetaining()
        let behind = 300_000
        cursor.keepBehind(behind)
        var random = SeededGenerator(seed: 14)
        var position = 44
        var largest = 0
        var furthest = 44
        while furthest < content.count {
            // Forwards by up to 1 MiB, then back by up to what is kept behind the furthest byte
            // read, as overlapping chunks do.
            let end = min(content.count, position + Int.random(in: 1...(1 << 20), using: &random))
            #expect(try cursor.bytes(in: Int64(position)..<Int64(end)) == Array(content[position..<end]), "\(position)..<\(end)")
            largest = max(largest, cursor.retainedByteCount)
            furthest = max(furthest, end)
            position = max(44, furthest - Int.random(in: 0...behind, using: &random))
        }
        #expect(cursor.error == nil)
        #expect(largest <= behind + (512 << 10), "held \(largest) bytes")
        // Beyond what is kept and the last read (how much a read of a pipe brings varies).
        cursor.seek(to: Int64(content.count - behind - (512 << 10) - 1000))
        #expect(cursor.error == .notSeekable(path: "-"), "further back than kept is gone")
    }
}
