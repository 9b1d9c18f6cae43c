import Foundation
import SignalPathTestSupport
import Testing

@testable import SignalPathKit

@Suite("content hash (libcrypto's SHA-256 over the file's bytes)")
struct ContentHashTests {
    let scratch = ScratchDirectory("content-hash")

    /// Seeded random files of `sizes` bytes, and coreutils' sha256sum of each.
    func files(_ sizes: [Int], seed: UInt64) throws -> [(path: String, sum: String)] {
        var generator = SeededGenerator(seed: seed)
        let paths = sizes.enumerated().map { index, size in
            scratch.write("file-\(seed)-\(index).bin", (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        let sums = try run(try #require(which("sha256sum")), paths)
        try #require(sums.status == 0)
        let digests = sums.stdout.split(separator: "\n").map { String($0.prefix(64)) }
        try #require(digests.count == paths.count)
        return Array(zip(paths, digests))
    }

    @Test("equals sha256sum's at the piece boundaries (1 MiB), one byte either side, and for an empty file")
    func againstSha256sum() async throws {
        let piece = 1 << 20
        for file in try files([0, 1, 55, 64, piece - 1, piece, piece + 1, 3 * piece + 12_345], seed: 1) {
            #expect(try await ContentHash.sha256(of: FileReader(path: file.path)) == file.sum, "\(file.path)")
        }
    }

    @Test("six hashes at once are each right")
    func concurrent() async throws {
        let all = try files((0..<6).map { 200_000 + 77_777 * $0 }, seed: 2)
        let digests = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, file) in all.enumerated() {
                group.addTask { (index, try await ContentHash.sha256(of: FileReader(path: file.path))) }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for (index, file) in all.enumerated() { #expect(digests[index] == file.sum) }
    }
}
