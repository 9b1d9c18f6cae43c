import Foundation
import SignalPathTestSupport
import Testing

@testable import SignalPathKit

@Suite("message digests (libcrypto's MD5 and SHA-256)")
struct MessageDigestTests {
    let scratch = ScratchDirectory("message-digest")

    @Test("MD5 and SHA-256 of seeded random bytes fed in uneven pieces equal md5sum's and sha256sum's")
    func againstCoreutils() throws {
        var generator = SeededGenerator(seed: 42)
        let bytes = (0..<1_234_567).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = scratch.write("random.bin", bytes)
        for (algorithm, tool) in [(MessageDigest.Algorithm.md5, "md5sum"), (.sha256, "sha256sum")] {
            let expected = try run(try #require(which(tool)), [path]).stdout.split(separator: " ").first.map(String.init)
            let digest = try MessageDigest(algorithm)
            var offset = 0
            var piece = 1
            while offset < bytes.count {
                let end = min(bytes.count, offset + piece)
                bytes[offset..<end].withUnsafeBytes { digest.update($0) }
                offset = end
                piece = piece * 3 + 7
            }
            #expect(digest.finish() == expected, "\(tool)")
        }
    }

    @Test("the digests of nothing are the published ones (RFC 1321, FIPS 180-4)")
    func empty() throws {
        #expect(try MessageDigest(.md5).finish() == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(try MessageDigest(.sha256).finish() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
