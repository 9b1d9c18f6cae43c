import Foundation
import SignalPathTestSupport
import Testing

@testable import SignalPathKit

/// zlib through its one door, checked by Python's zlib (an independent build of it).
@Suite("deflate")
struct DeflateTests {
    let scratch = ScratchDirectory("deflate")

    @Test("zlib's stream inflates to its input in Python's zlib, and the CRC-32 is Python's")
    func deflateAndCRC() throws {
        var generator = SeededGenerator(seed: 7)
        let input = (0..<50_000).map { index in index % 3 == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8(index / 1000 % 256) }
        let compressed = try Deflate.compress(input, level: 1)
        #expect(compressed.count < input.count)
        let path = scratch.write("stream.z", compressed)
        let source = scratch.write("source.bin", input)
        let script = """
            import sys, zlib
            data = zlib.decompress(open(sys.argv[1], 'rb').read())
            print(data == open(sys.argv[2], 'rb').read(), zlib.crc32(data), zlib.crc32(b'IEND'))
            """
        let result = try run("/usr/bin/env", ["python3", "-c", script, path, source])
        try #require(result.status == 0, "\(result.stderr)")
        let fields = result.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(fields.first == "True")
        #expect(fields.dropFirst().first == String(try Deflate.crc32(input[...])))
        #expect(fields.last == String(try Deflate.crc32(Array("IEND".utf8)[...])))
    }
}
