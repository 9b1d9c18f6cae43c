import CFFTW
import Glibc
import SignalPathAVX2

/// A real-to-complex FFT of one size with its own aligned buffers: the only Swift file that talks
/// to FFTW.
///
/// Plans are made once per size, under one process-wide lock (FFTW's planner is not thread-safe),
/// and kept for the life of the process. Executing a plan is thread-safe with FFTW's new-array
/// execute, so every `RealFFT` (one per worker) runs the shared plan on its own buffers, which are
/// allocated once here and freed in `deinit`: transforming allocates nothing. Not Sendable: one
/// worker owns it.
final class RealFFT {
    /// Points per transform (even).
    let size: Int
    /// Output bins: `size / 2 + 1` (DC to Nyquist).
    var binCount: Int { size / 2 + 1 }

    private let plan: OpaquePointer
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    /// When packed (`packs`): `plan` is FFTW's complex transform of size/2 over the samples taken
    /// in pairs as (re, im), and `RealTransformAVX2` unpacks its output with these tables; nil:
    /// `plan` is FFTW's real transform.
    private let unpackingTables: UnsafePointer<Float>?

    /// `packed`: by default where `packs(size)`; the tests ask for either.
    init(size: Int, packed: Bool? = nil) {
        precondition(size >= 2 && size % 2 == 0, "FFT sizes are even")
        self.size = size
        // fftwf_alloc_* align to what FFTW's SIMD code expects, the same for every buffer, so a plan
        // made on one worker's buffers runs on another's.
        input = fftwf_alloc_real(size)
        output = fftwf_alloc_complex(size / 2 + 1)
        (plan, unpackingTables) = RealFFT.sharedForwardPlan(size: size, packed: packed ?? Self.packs(size), input: input, output: output)
    }

    /// Whether transforms of `size` points are FFTW's complex transform of size/2 unpacked by
    /// `RealTransformAVX2`: on processors with AVX2, for sizes that are multiples of 4 from 8 on.
    /// FFTW's real transform spends most of its time in an SSE2 real-to-complex step; the complex
    /// transform of half the size and the unpacking take less (docs/DECISIONS.md#real-fft-as-complex).
    static func packs(_ size: Int) -> Bool { ProcessorFeatures.hasX86_64_v3 && size >= 8 && size % 4 == 0 }

    deinit {
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Lets `load` fill the `size` input samples, transforms them, and writes the squared magnitude
    /// |X[k]|² of every bin k in 0...size/2 into the start of `power`.
    func powerSpectrum(into power: inout [Float], load: (UnsafeMutableBufferPointer<Float>) -> Void) {
        precondition(power.count >= binCount)
        transform(load: load)
        // The complex output read as interleaved (re, im) Floats: faster than going through the
        // tuple type (docs/DECISIONS.md#fftw-wisdom).
        let interleaved = UnsafeRawPointer(output).assumingMemoryBound(to: Float.self)
        power.withUnsafeMutableBufferPointer { power in
            // Four bins at a time, split into re and im by a shuffle: the same products and sums
            // as one bin at a time, in a quarter of the instructions.
            var bin = 0
            while bin &+ 4 <= binCount {
                let pairs = UnsafeRawPointer(interleaved + 2 &* bin).loadUnaligned(as: SIMD8<Float>.self)
                let re = pairs.evenHalf, im = pairs.oddHalf
                UnsafeMutableRawPointer(power.baseAddress! + bin).storeBytes(of: re * re + im * im, as: SIMD4<Float>.self)
                bin &+= 4
            }
            while bin < binCount {
                let re = interleaved[2 &* bin], im = interleaved[2 &* bin &+ 1]
                power[bin] = re * re + im * im
                bin &+= 1
            }
        }
    }

    /// Lets `load` fill the `size` input samples and transforms them, leaving the spectrum for
    /// `withLastSpectrum`.
    func transform(load: (UnsafeMutableBufferPointer<Float>) -> Void) {
        load(UnsafeMutableBufferPointer(start: input, count: size))
        guard let tables = unpackingTables else {
            fftwf_execute_dft_r2c(plan, input, output)
            return
        }
        fftwf_execute_dft(plan, UnsafeMutablePointer(OpaquePointer(input)), output)
        let half = size / 2
        RealTransformAVX2.unpack(UnsafeMutableRawPointer(output).assumingMemoryBound(to: Float.self), half: half, cosines: tables, sines: tables + half)
    }

    /// Hands `body` the complex spectrum of the last transform as interleaved (re, im) Floats,
    /// bins 0...size/2: what a cross-spectrum needs besides the power.
    func withLastSpectrum<Result>(_ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: UnsafeRawPointer(output).assumingMemoryBound(to: Float.self), count: 2 * binCount))
    }

    /// The inverse of a real signal's spectrum: `spectrum` holds bins 0...size/2 as interleaved
    /// (re, im) pairs; returns the `size` real samples, unnormalised (FFTW's convention: a forward
    /// then inverse transform multiplies by `size`). Allocates its buffers: it runs once per
    /// result (a cross-correlation from an averaged cross-spectrum), not per segment.
    static func inverse(_ spectrum: [Double], size: Int) -> [Double] {
        precondition(size >= 2 && size % 2 == 0 && spectrum.count == size + 2)
        let input = fftwf_alloc_complex(size / 2 + 1)!
        let output = fftwf_alloc_real(size)!
        defer {
            fftwf_free(input)
            fftwf_free(output)
        }
        let interleaved = UnsafeMutableRawPointer(input).assumingMemoryBound(to: Float.self)
        for index in 0..<size + 2 { interleaved[index] = Float(spectrum[index]) }
        let plan: OpaquePointer = plannerLock.withLock {
            if let plan = inversePlans[size] { return plan }
            // The planner may overwrite the arrays while planning: planned on scratch arrays of its own.
            let scratchIn = fftwf_alloc_complex(size / 2 + 1)!, scratchOut = fftwf_alloc_real(size)!
            defer {
                fftwf_free(scratchIn)
                fftwf_free(scratchOut)
            }
            let plan = planned { fftwf_plan_dft_c2r_1d(Int32(size), scratchIn, scratchOut, $0) }
            inversePlans[size] = plan
            return plan
        }
        fftwf_execute_dft_c2r(plan, input, output)
        return (0..<size).map { Double(output[$0]) }
    }

    /// Makes the plan of `size` now, on scratch arrays (a plan runs on any arrays FFTW allocated),
    /// so that a command can have it made on an idle core while an analysis sets up.
    static func prepare(size: Int) {
        precondition(size >= 2 && size % 2 == 0, "FFT sizes are even")
        let input = fftwf_alloc_real(size)!, output = fftwf_alloc_complex(size / 2 + 1)!
        defer {
            fftwf_free(input)
            fftwf_free(output)
        }
        _ = sharedForwardPlan(size: size, packed: packs(size), input: input, output: output)
    }

    // MARK: - Plans

    /// One plan per size for the whole process. Plans are never destroyed, so there is no
    /// destruction to race with execution; there are only a few sizes per run. Unsafe: touched
    /// only under `plannerLock` (C handles are not Sendable, so `Protected` cannot hold them).
    nonisolated(unsafe) private static var plans: [Int: OpaquePointer] = [:]
    /// Complex-to-real plans, by size; as `plans`.
    nonisolated(unsafe) private static var inversePlans: [Int: OpaquePointer] = [:]
    /// Forward complex plans (`ComplexFFT`), by size; as `plans`.
    nonisolated(unsafe) private static var complexPlans: [Int: OpaquePointer] = [:]
    /// `RealTransformAVX2`'s tables, by size; as `plans` (allocated once, never freed).
    nonisolated(unsafe) private static var unpackingTables: [Int: UnsafePointer<Float>] = [:]
    private static let plannerLock = Lock()

    /// For an N-point packed transform, the lanes `RealTransformAVX2.unpack` reads: for each
    /// k < N/4, (cos/2, −cos/2) of the angle −2πk/N, then for each k (sin/2, sin/2); computed in
    /// Double. Under `plannerLock`.
    static func sharedUnpackingTables(size: Int) -> UnsafePointer<Float> {
        plannerLock.withLock {
            if let tables = unpackingTables[size] { return tables }
            let half = size / 2
            let tables = UnsafeMutablePointer<Float>.allocate(capacity: 2 * half)
            for k in 0..<half / 2 {
                let angle = 2 * Double.pi * Double(k) / Double(size)
                let (cosine, sine) = (Float(cos(angle) / 2), Float(-sin(angle) / 2))
                (tables[2 * k], tables[2 * k + 1]) = (cosine, -cosine)
                (tables[half + 2 * k], tables[half + 2 * k + 1]) = (sine, sine)
            }
            unpackingTables[size] = UnsafePointer(tables)
            return UnsafePointer(tables)
        }
    }

    /// The forward plan of `size` points, and when `packed` the tables that unpack its output
    /// (`RealFFT.unpackingTables`): what a transform and `prepare` both make.
    private static func sharedForwardPlan(
        size: Int, packed: Bool, input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<fftwf_complex>
    ) -> (OpaquePointer, UnsafePointer<Float>?) {
        guard packed else { return (sharedPlan(size: size, input: input, output: output), nil) }
        precondition(size >= 8 && size % 4 == 0, "packed transforms unpack pairs of bins below size/4")
        return (sharedComplexPlan(size: size / 2, input: UnsafeMutablePointer(OpaquePointer(input)), output: output), sharedUnpackingTables(size: size))
    }

    private static func sharedPlan(
        size: Int, input: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<fftwf_complex>
    ) -> OpaquePointer {
        plannerLock.withLock { cached(&plans, size) { fftwf_plan_dft_r2c_1d(Int32(size), input, output, $0) } }
    }

    fileprivate static func sharedComplexPlan(
        size: Int, input: UnsafeMutablePointer<fftwf_complex>, output: UnsafeMutablePointer<fftwf_complex>
    ) -> OpaquePointer {
        plannerLock.withLock { cached(&complexPlans, size) { fftwf_plan_dft_1d(Int32(size), input, output, FFTW_FORWARD, $0) } }
    }

    /// `plans[size]`, planned by `make` (`planned`) the first time. Under `plannerLock`.
    private static func cached(_ plans: inout [Int: OpaquePointer], _ size: Int, _ make: (UInt32) -> OpaquePointer?) -> OpaquePointer {
        if let plan = plans[size] { return plan }
        let plan = planned(make)
        plans[size] = plan
        return plan
    }

    /// A plan from `make`, called with planner flags: from wisdom when there is some for it (the
    /// built-in patient plans of the common sizes, or what an earlier run saved), else estimated
    /// and the wisdom saved. Never MEASURE or PATIENT at run time: their search is slow and picks
    /// by timing, so two runs could differ in the last bits; the built-in patient plans are faster
    /// than the estimated ones, and the same on every run (docs/DECISIONS.md#fftw-wisdom). ESTIMATE leaves the
    /// buffers untouched. Under
    /// `plannerLock`.
    private static func planned(_ make: (UInt32) -> OpaquePointer?) -> OpaquePointer {
        let fromWisdom = UInt32(FFTW_ESTIMATE) | UInt32(FFTW_WISDOM_ONLY)
        Wisdom.importBuiltIn()
        if let plan = make(fromWisdom) { return plan }
        if Wisdom.importSaved(), let plan = make(fromWisdom) { return plan }
        let plan = make(UInt32(FFTW_ESTIMATE))!
        Wisdom.save()
        return plan
    }

    /// FFTW's wisdom, kept between runs in `$XDG_CACHE_HOME/signalpath/` (`~/.cache/signalpath/`
    /// when unset). Read once per process; written whole to a temporary file and renamed, so that
    /// processes running side by side (a `parallel` or Slurm scan) never read half a file. A
    /// missing, unreadable or damaged file is planned around: FFTW refuses what it cannot parse,
    /// and wisdom from another FFTW build does not match its plans. Under `plannerLock`.
    private enum Wisdom {
        nonisolated(unsafe) static var importedBuiltIn = false
        nonisolated(unsafe) static var importedSaved = false

        static var directory: String? {
            if let cache = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), cache.hasPrefix("/") {
                return cache + "/signalpath"
            }
            guard let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") else { return nil }
            return home + "/.cache/signalpath"
        }

        /// The built-in wisdom (`FFTPlan+Wisdom.swift`), once. Wisdom of another FFTW build is
        /// refused as a whole, and those sizes are estimated as before.
        static func importBuiltIn() {
            guard !importedBuiltIn else { return }
            importedBuiltIn = true
            _ = RealFFT.builtInWisdom.withCString { fftwf_import_wisdom_from_string($0) }
        }

        /// The user's saved wisdom, read the first time a transform has no built-in plan; true when
        /// it was read now. Importing it at every start cost a process that plans only built-in
        /// sizes plans it never used (docs/DECISIONS.md#fftw-wisdom): where both hold a plan for
        /// one transform, FFTW takes the one found with the stricter flags, the built-in patient
        /// plan, whichever is imported first.
        static func importSaved() -> Bool {
            guard !importedSaved, let directory else { return false }
            importedSaved = true
            return fftwf_import_wisdom_from_filename(directory + "/fftw-wisdom") != 0
        }

        static func save() {
            guard let directory, let text = fftwf_export_wisdom_to_string() else { return }
            defer { free(text) }
            // The cache directory's parent too (XDG: created 0700 when missing).
            let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.endIndex)])
            _ = mkdir(parent, 0o700)
            _ = mkdir(directory, 0o700)
            let target = directory + "/fftw-wisdom"
            let temporary = target + ".\(getpid()).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return }
            let length = strlen(text)
            let written = write(descriptor, text, length)
            let closed = close(descriptor)
            if written == length && closed == 0 && rename(temporary, target) == 0 { return }
            _ = unlink(temporary)
        }
    }
}

/// A forward complex FFT of one size with its own aligned buffers (interleaved re, im), planned
/// and shared like `RealFFT`'s plans: what `ModifiedCosineTransform` runs its quarter-size
/// transform on. Not Sendable: one worker owns it.
final class ComplexFFT {
    /// Points per transform.
    let size: Int
    private let plan: OpaquePointer
    private let input: UnsafeMutablePointer<fftwf_complex>
    private let output: UnsafeMutablePointer<fftwf_complex>

    init(size: Int) {
        precondition(size >= 1)
        self.size = size
        input = fftwf_alloc_complex(size)
        output = fftwf_alloc_complex(size)
        plan = RealFFT.sharedComplexPlan(size: size, input: input, output: output)
    }

    deinit {
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Lets `load` fill the input (`size` pairs of re, im), transforms it, and hands `body` the
    /// output in the same layout.
    func transform<Result>(load: (UnsafeMutableBufferPointer<Float>) -> Void, _ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        load(UnsafeMutableBufferPointer(start: UnsafeMutableRawPointer(input).assumingMemoryBound(to: Float.self), count: 2 * size))
        fftwf_execute_dft(plan, input, output)
        return body(UnsafeBufferPointer(start: UnsafeRawPointer(output).assumingMemoryBound(to: Float.self), count: 2 * size))
    }
}
