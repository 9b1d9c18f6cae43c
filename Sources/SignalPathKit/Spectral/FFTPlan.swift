import CFFTW

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

    init(size: Int) {
        precondition(size >= 2 && size % 2 == 0, "FFT sizes are even")
        self.size = size
        // fftwf_alloc_* align to what FFTW's SIMD code expects, the same for every buffer, so a plan
        // made on one worker's buffers runs on another's.
        input = fftwf_alloc_real(size)
        output = fftwf_alloc_complex(size / 2 + 1)
        plan = RealFFT.sharedPlan(size: size, input: input, output: output)
    }

    deinit {
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Lets `load` fill the `size` input samples, transforms them, and writes the squared magnitude
    /// |X[k]|² of every bin k in 0...size/2 into the start of `power`.
    func powerSpectrum(into power: inout [Float], load: (UnsafeMutableBufferPointer<Float>) -> Void) {
        precondition(power.count >= binCount)
        load(UnsafeMutableBufferPointer(start: input, count: size))
        fftwf_execute_dft_r2c(plan, input, output)
        // The complex output read as interleaved (re, im) Floats: faster than going through the
        // tuple type (docs/ARCHITECTURE.md, "FFTW").
        let interleaved = UnsafeRawPointer(output).assumingMemoryBound(to: Float.self)
        power.withUnsafeMutableBufferPointer { power in
            for bin in 0..<binCount {
                let re = interleaved[2 &* bin], im = interleaved[2 &* bin &+ 1]
                power[bin] = re * re + im * im
            }
        }
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
            let plan = fftwf_plan_dft_c2r_1d(Int32(size), scratchIn, scratchOut, UInt32(FFTW_ESTIMATE))!
            inversePlans[size] = plan
            return plan
        }
        fftwf_execute_dft_c2r(plan, input, output)
        return (0..<size).map { Double(output[$0]) }
    }

    // MARK: - Plans

    /// One plan per size for the whole process. Plans are never destroyed, so there is no
    /// destruction to race with execution; there are only a few sizes per run. Unsafe: touched
    /// only under `plannerLock` (C handles are not Sendable, so `Protected` cannot hold them).
    nonisolated(unsafe) private static var plans: [Int: OpaquePointer] = [:]
    /// Complex-to-real plans, by size; as `plans`.
    nonisolated(unsafe) private static var inversePlans: [Int: OpaquePointer] = [:]
    private static let plannerLock = Lock()

    private static func sharedPlan(
        size: Int, input: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<fftwf_complex>
    ) -> OpaquePointer {
        plannerLock.withLock {
            if let plan = plans[size] { return plan }
            // FFTW_ESTIMATE: planning is two orders of magnitude quicker than MEASURE and the plans
            // run at nearly the same speed for these sizes (docs/ARCHITECTURE.md, "FFTW"); it
            // also leaves the buffers untouched.
            let plan = fftwf_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE))!
            plans[size] = plan
            return plan
        }
    }
}
