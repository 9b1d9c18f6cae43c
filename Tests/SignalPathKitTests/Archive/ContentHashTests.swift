import Foundation
import SignalPathTestSupport
import Testing

@testable import SignalPathKit

// Serialized: the helpers are one pool per process, and these tests count and kill them.
@Suite("content hash (the signalpath-sha256 helper)", .serialized)
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

    @Test("equals sha256sum's at the helper's piece boundaries (1 MiB), one byte either side, and for an empty file")
    func againstSha256sum() async throws {
        let piece = 1 << 20
        for file in try files([0, 1, 55, 64, piece - 1, piece, piece + 1, 3 * piece + 12_345], seed: 1) {
            #expect(try await ContentHash.sha256(of: FileReader(path: file.path)) == file.sum, "\(file.path)")
        }
    }

    @Test("six hashes at once are each right, and a second round reuses the first round's helpers")
    func concurrent() async throws {
        let all = try files((0..<6).map { 200_000 + 77_777 * $0 }, seed: 2)
        var helpersAfterRound: [Set<pid_t>] = []
        for _ in 0..<2 {
            let digests = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for (index, file) in all.enumerated() {
                    group.addTask { (index, try await ContentHash.sha256(of: FileReader(path: file.path))) }
                }
                return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
            }
            for (index, file) in all.enumerated() { #expect(digests[index] == file.sum) }
            helpersAfterRound.append(Set(HashHelper.idleProcesses))
        }
        // As many helpers as hashes ran at once, all back in the pool; the second round used them
        // again and gave them back (it may run more at once, and start more, on a loaded machine).
        #expect(!helpersAfterRound[0].isEmpty && helpersAfterRound[1].count <= all.count)
        #expect(helpersAfterRound[0].isSubset(of: helpersAfterRound[1]), "\(helpersAfterRound)")
    }

    @Test("a helper killed while idle is replaced: the next hash is still right")
    func killedHelper() async throws {
        let file = try #require(try files([300_000], seed: 3).first)
        #expect(try await ContentHash.sha256(of: FileReader(path: file.path)) == file.sum)
        let idle = HashHelper.idleProcesses
        try #require(!idle.isEmpty)
        for process in idle { kill(process, SIGKILL) }
        // Killed and reaped by the kernel before the next request is sent.
        usleep(50_000)
        #expect(try await ContentHash.sha256(of: FileReader(path: file.path)) == file.sum)
    }

    @Test("a read the helper cannot make comes back as the file's error (a directory's descriptor: EISDIR)")
    func readError() throws {
        let directory = open(scratch.path, O_RDONLY | O_DIRECTORY)
        try #require(directory >= 0)
        defer { close(directory) }
        #expect(throws: SignalPathError.isDirectory(path: "the directory")) {
            try HashHelper.sha256(descriptor: directory, count: 10, path: "the directory")
        }
    }
}
