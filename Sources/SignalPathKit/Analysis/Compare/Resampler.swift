import CSoxr

/// libsoxr's streaming resampler over interleaved Float frames: the only Swift file that talks to
/// libsoxr, and no soxr pointer leaves it.
///
/// Output frame j lies at input time j · inputRate / outputRate (soxr takes its filter's delay out),
/// so a resampled excerpt starts where its input starts. Quality is soxr's default, `SOXR_HQ`
/// (20-bit: images and aliases under -120 dB, linear phase). libsoxr is opened with `dlopen` on
/// first use: only `compare` needs it. Not Sendable: one thread owns a resampler.
public final class Resampler {
    public let channels: Int
    /// Output frames per input frame.
    public let ratio: Double
    private let library: Soxr
    private let handle: OpaquePointer
    private var scratch: [Float] = []

    public init(inputRate: Double, outputRate: Double, channels: Int) throws(SignalPathError) {
        precondition(inputRate > 0 && outputRate > 0 && channels > 0)
        library = try Soxr.library()
        var error: soxr_error_t? = nil
        guard let handle = library.create(inputRate, outputRate, UInt32(channels), &error, nil, nil, nil) else {
            let reason = error.map { String(cString: $0) } ?? "unknown error"
            throw .unavailable(path: Soxr.libraryName, reason: "libsoxr refused \(inputRate) Hz to \(outputRate) Hz: \(reason)")
        }
        self.handle = handle
        self.channels = channels
        ratio = outputRate / inputRate
    }

    deinit { library.delete(handle) }

    /// Resamples `input` (whole interleaved frames) and appends what soxr gives out to `output`.
    public func process(_ input: UnsafeBufferPointer<Float>, appendingTo output: inout [Float]) {
        precondition(input.count % channels == 0)
        var consumed = 0
        let frames = input.count / channels
        repeat {
            let room = Int((Double(frames - consumed) * ratio).rounded(.up)) + 64
            let produced = run(input.baseAddress.map { $0 + consumed * channels }, frames: frames - consumed, room: room, consumed: &consumed)
            output.append(contentsOf: scratch[0..<produced * channels])
            if produced < room && consumed >= frames { break }
        } while true
    }

    /// Ends the input: appends the frames soxr still holds (its filter's tail) to `output`.
    public func flush(appendingTo output: inout [Float]) {
        var consumed = 0
        while true {
            let produced = run(nil, frames: 0, room: 4096, consumed: &consumed)
            output.append(contentsOf: scratch[0..<produced * channels])
            if produced < 4096 { break }
        }
    }

    /// One soxr_process call: `frames` frames from `input` (nil: the end of the input), up to
    /// `room` frames out into `scratch`; returns the frames written and adds the frames read to
    /// `consumed`.
    private func run(_ input: UnsafePointer<Float>?, frames: Int, room: Int, consumed: inout Int) -> Int {
        if scratch.count < room * channels { scratch = [Float](repeating: 0, count: room * channels) }
        var read = 0, written = 0
        let error = scratch.withUnsafeMutableBufferPointer { out in
            library.process(handle, input, frames, &read, out.baseAddress, room, &written)
        }
        // soxr fails only on bad arguments or memory exhaustion, neither of which a file can cause.
        precondition(error == nil, "soxr_process: \(error.map { String(cString: $0) } ?? "")")
        consumed += read
        return written
    }
}

/// libsoxr's functions, looked up once with `dlsym` after one `dlopen`.
private struct Soxr: LazyLibrary, @unchecked Sendable {
    // @unchecked: C function pointers, immutable after loading, callable from any thread (each
    // resampler has its own soxr_t).
    let create: sp_soxr_create_fn
    let process: sp_soxr_process_fn
    let delete: sp_soxr_delete_fn

    static let libraryName = "libsoxr.so.0"
    static let need = "compare resamples with libsoxr (Debian: apt-get install libsoxr0)"
    static let loaded = load()

    init(_ library: SharedLibrary) throws(SignalPathError) {
        create = try library.function("soxr_create", sp_soxr_create_fn.self)
        process = try library.function("soxr_process", sp_soxr_process_fn.self)
        delete = try library.function("soxr_delete", sp_soxr_delete_fn.self)
    }
}
