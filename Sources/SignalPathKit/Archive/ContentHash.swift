/// SHA-256 of a file's bytes, for scan's `--content-hash`: swift-crypto's `Crypto` (the Linux twin
/// of CryptoKit; BoringSSL's implementation), in the `signalpath-sha256` helper, which reads the
/// file through a duplicate of the reader's descriptor (`HashHelper` says why a process).
public enum ContentHash {
    /// The file's SHA-256 as 64 lowercase hexadecimal digits: of the bytes it has when the hash
    /// starts, fewer if it shrinks while being read. Memory does not grow with the file (the
    /// helper reads 1 MiB pieces). The calling thread waits for the helper's answer, as it was
    /// busy hashing when swift-crypto ran in this process.
    public static func sha256(of reader: FileReader) async throws(SignalPathError) -> String {
        try HashHelper.sha256(descriptor: reader.descriptor, count: reader.size, path: reader.path)
    }

    /// Throws unless the helper is installed: asked before a scan that hashes, so that a missing
    /// helper stops it with one line rather than storing every file as failed.
    public static func checkHelper() throws(SignalPathError) {
        guard HashHelper.location() == nil else { return }
        throw SignalPathError.unavailable(path: HashHelper.executableName, reason: "--content-hash needs this helper, \(HashHelper.missingReason)")
    }
}
