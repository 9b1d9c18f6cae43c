/// SHA-256 of a file's bytes, for scan's `--content-hash`, by libcrypto in this process
/// (`MessageDigest`).
public enum ContentHash {
    /// Bytes read and hashed at a time: memory does not grow with the file.
    static let pieceSize: Int64 = 1 << 20

    /// The file's SHA-256 as 64 lowercase hexadecimal digits: of the bytes it has when the hash
    /// starts, fewer if it shrinks while being read. The reads suspend rather than block a thread.
    public static func sha256(of reader: FileReader) async throws(SignalPathError) -> String {
        let digest = try MessageDigest(.sha256)
        let size = reader.size
        var offset: Int64 = 0
        while offset < size {
            let piece = try await reader.read(offset..<min(size, offset + pieceSize))
            // A file that shrank while being read ends the hash where its bytes end.
            if piece.isEmpty { break }
            piece.withUnsafeBytes { digest.update($0) }
            offset += Int64(piece.count)
        }
        return digest.finish()
    }

    /// Throws unless libcrypto can be opened: asked before a scan that hashes, so that a missing
    /// library stops it with one line rather than storing every file as failed.
    public static func checkAvailable() throws(SignalPathError) {
        try MessageDigest.checkAvailable()
    }
}
