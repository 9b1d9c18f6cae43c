import Crypto

/// SHA-256 of a file's bytes, for scan's `--content-hash` (swift-crypto's `Crypto`, the Linux twin
/// of CryptoKit; BoringSSL's implementation). The only file that imports it.
public enum ContentHash {
    /// The file's SHA-256 as 64 lowercase hexadecimal digits, read in 1 MiB pieces (memory does not
    /// grow with the file) with the next piece in flight while one is hashed.
    public static func sha256(of reader: FileReader) async throws(SignalPathError) -> String {
        let size = reader.size
        let piece: Int64 = 1 << 20
        var hasher = SHA256()
        var offset: Int64 = 0
        var next: Task<Result<FileBytes, SignalPathError>, Never>? = size > 0 ? read(reader, offset..<min(size, piece)) : nil
        while let current = next {
            let bytes = try await current.value.get()
            offset += Int64(bytes.count)
            // A file that shrank while being read ends the hash where its bytes end.
            next = bytes.isEmpty || offset >= size ? nil : read(reader, offset..<min(size, offset + piece))
            bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        }
        return hasher.finalize().map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
    }

    private static func read(_ reader: FileReader, _ range: Range<Int64>) -> Task<Result<FileBytes, SignalPathError>, Never> {
        Task {
            do throws(SignalPathError) {
                return .success(try await reader.read(range))
            } catch {
                return .failure(error)
            }
        }
    }
}
