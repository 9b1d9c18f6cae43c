import CLibCrypto

/// An MD5 or SHA-256 digest computed piece by piece, by the system's OpenSSL libcrypto: the only
/// Swift file that talks to libcrypto, and no libcrypto pointer leaves it.
///
/// libcrypto is not linked but opened with `dlopen` on the first digest (scan's `--content-hash`,
/// analyze's `--md5`), so the other commands' start-up does not pay for it. It replaced
/// swift-crypto, whose BoringSSL took most of a fresh clone's build and, linked into signalpath,
/// slowed every command's start; libcrypto's assembly is as fast or faster (docs/FIXITY.md).
///
/// One digest is fed by one task at a time; `finish` ends it.
public final class MessageDigest {
    public enum Algorithm: Sendable {
        case md5, sha256

        /// OpenSSL's name for it.
        var name: String { self == .md5 ? "MD5" : "SHA256" }
    }

    private let crypto: LibCrypto
    private let context: OpaquePointer

    /// A new digest; throws where libcrypto cannot be opened.
    public init(_ algorithm: Algorithm) throws(SignalPathError) {
        let crypto = try LibCrypto.library()
        guard let context = crypto.newContext() else { throw .unavailable(path: LibCrypto.libraryName, reason: "cannot allocate a digest") }
        let method = algorithm == .md5 ? crypto.md5 : crypto.sha256
        guard crypto.initialise(context, method, nil) == 1 else {
            crypto.freeContext(context)
            throw .unavailable(path: LibCrypto.libraryName, reason: "cannot start \(algorithm.name)")
        }
        self.crypto = crypto
        self.context = context
    }

    deinit { crypto.freeContext(context) }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        // Cannot fail for a started software digest (OpenSSL's default provider).
        _ = crypto.update(context, bytes.baseAddress, bytes.count)
    }

    /// The digest of everything added, as lowercase hexadecimal; the digest cannot be fed after.
    public func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        _ = crypto.final(context, &digest, &length)
        return Self.hexadecimal(digest[..<Int(length)])
    }

    /// `bytes` as lowercase hexadecimal digits.
    public static func hexadecimal(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Throws unless libcrypto can be opened: asked before work that needs a digest, so that a
    /// missing library stops it with one line rather than failing every file.
    public static func checkAvailable() throws(SignalPathError) {
        _ = try LibCrypto.library()
    }
}

/// libcrypto's functions, looked up once with `dlsym` after one `dlopen`, and the two digest
/// methods fetched once (an implicit fetch on every `EVP_DigestInit_ex` costs a provider lookup).
private struct LibCrypto: LazyLibrary, @unchecked Sendable {
    // @unchecked: C function pointers and fetched methods, immutable after loading and usable from
    // any thread (each digest has its own context).
    let newContext: sp_EVP_MD_CTX_new_fn
    let freeContext: sp_EVP_MD_CTX_free_fn
    let initialise: sp_EVP_DigestInit_ex_fn
    let update: sp_EVP_DigestUpdate_fn
    let final: sp_EVP_DigestFinal_ex_fn
    let md5: OpaquePointer
    let sha256: OpaquePointer

    static let libraryName = "libcrypto.so.3"
    static let need = "digests need OpenSSL's libcrypto (Debian: apt-get install libssl3)"
    static let loaded = load()

    init(_ library: SharedLibrary) throws(SignalPathError) {
        let fetch = try library.function("EVP_MD_fetch", sp_EVP_MD_fetch_fn.self)
        guard let md5 = fetch(nil, "MD5", nil), let sha256 = fetch(nil, "SHA256", nil) else {
            throw .unavailable(path: Self.libraryName, reason: "libcrypto offers no MD5 or SHA-256")
        }
        (self.md5, self.sha256) = (md5, sha256)
        newContext = try library.function("EVP_MD_CTX_new", sp_EVP_MD_CTX_new_fn.self)
        freeContext = try library.function("EVP_MD_CTX_free", sp_EVP_MD_CTX_free_fn.self)
        initialise = try library.function("EVP_DigestInit_ex", sp_EVP_DigestInit_ex_fn.self)
        update = try library.function("EVP_DigestUpdate", sp_EVP_DigestUpdate_fn.self)
        final = try library.function("EVP_DigestFinal_ex", sp_EVP_DigestFinal_ex_fn.self)
    }
}
