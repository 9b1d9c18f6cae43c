import CChromaprint

/// One Chromaprint fingerprint computed from 16-bit samples, by the system's libchromaprint: the
/// only Swift file that talks to it, and no Chromaprint pointer leaves it.
///
/// libchromaprint is not linked but opened with `dlopen` on the first fingerprint (`analyze
/// --fingerprint`), so the other commands' start-up does not pay for it. Fed the samples at the
/// file's own rate and channel count, as `fpcalc` feeds it: its resampler to 11 025 Hz mono is
/// Chromaprint's own, so the fingerprints are fpcalc's.
final class Chromaprint {
    private let library: ChromaprintLibrary
    private let context: OpaquePointer

    /// Chromaprint's default algorithm (`CHROMAPRINT_ALGORITHM_DEFAULT`, the one AcoustID uses).
    static let algorithm = Int32(CHROMAPRINT_ALGORITHM_DEFAULT.rawValue)

    init(sampleRate: Int, channels: Int) throws(SignalPathError) {
        let library = try ChromaprintLibrary.library()
        guard let context = library.new(Self.algorithm) else {
            throw .unavailable(path: ChromaprintLibrary.libraryName, reason: "cannot allocate a fingerprinter")
        }
        guard library.start(context, Int32(sampleRate), Int32(channels)) == 1 else {
            library.free(context)
            throw .unavailable(path: ChromaprintLibrary.libraryName, reason: "refuses \(sampleRate) Hz with \(channels) channels")
        }
        self.library = library
        self.context = context
    }

    deinit { library.free(context) }

    /// Feeds interleaved samples (whole frames).
    func feed(_ samples: UnsafeBufferPointer<Int16>) {
        guard let base = samples.baseAddress, samples.count > 0 else { return }
        _ = library.feed(context, base, Int32(samples.count))
    }

    /// Ends the input; the fingerprint as fpcalc prints it (compressed, URL-safe base64) and raw.
    func finish() -> (compressed: String, raw: [UInt32])? {
        guard library.finish(context) == 1 else { return nil }
        var text: UnsafeMutablePointer<CChar>?
        guard library.fingerprint(context, &text) == 1, let text else { return nil }
        defer { library.dealloc(text) }
        var raw: UnsafeMutablePointer<UInt32>?
        var count: Int32 = 0
        guard library.rawFingerprint(context, &raw, &count) == 1, let raw else { return nil }
        defer { library.dealloc(raw) }
        return (String(cString: text), Array(UnsafeBufferPointer(start: raw, count: Int(count))))
    }
}

/// libchromaprint's functions, looked up once with `dlsym` after one `dlopen`.
private struct ChromaprintLibrary: LazyLibrary, @unchecked Sendable {
    // @unchecked: C function pointers, immutable after loading, callable from any thread (each
    // fingerprint has its own context).
    let new: sp_chromaprint_new_fn
    let free: sp_chromaprint_free_fn
    let start: sp_chromaprint_start_fn
    let feed: sp_chromaprint_feed_fn
    let finish: sp_chromaprint_finish_fn
    let fingerprint: sp_chromaprint_get_fingerprint_fn
    let rawFingerprint: sp_chromaprint_get_raw_fingerprint_fn
    let dealloc: sp_chromaprint_dealloc_fn

    static let libraryName = "libchromaprint.so.1"
    static let need = "fingerprints need libchromaprint (Debian: apt-get install libchromaprint1)"
    static let loaded = load()

    init(_ library: SharedLibrary) throws(SignalPathError) {
        new = try library.function("chromaprint_new", sp_chromaprint_new_fn.self)
        free = try library.function("chromaprint_free", sp_chromaprint_free_fn.self)
        start = try library.function("chromaprint_start", sp_chromaprint_start_fn.self)
        feed = try library.function("chromaprint_feed", sp_chromaprint_feed_fn.self)
        finish = try library.function("chromaprint_finish", sp_chromaprint_finish_fn.self)
        fingerprint = try library.function("chromaprint_get_fingerprint", sp_chromaprint_get_fingerprint_fn.self)
        rawFingerprint = try library.function("chromaprint_get_raw_fingerprint", sp_chromaprint_get_raw_fingerprint_fn.self)
        dealloc = try library.function("chromaprint_dealloc", sp_chromaprint_dealloc_fn.self)
    }
}
