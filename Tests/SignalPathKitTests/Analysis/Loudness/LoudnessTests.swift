import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Analysis: loudness and true peak (EBU Tech 3341 / 3342, BS.1770-4)")
struct LoudnessTests {
    let scratch = ScratchDirectory("analysis-loudness")

    /// Stereo 1 kHz sine at the given (level dBFS, seconds) steps.
    func steps(_ name: String, _ steps: [(Double, Double)]) -> String {
        floatWAV(scratch, name, stereo(steps.flatMap { sine(1000, dbfs: $0.0, seconds: $0.1) }), channels: 2)
    }

    @Test("Tech 3341 cases 1–2: a stereo 1 kHz sine at −23 and −33 dBFS reads −23.0 and −33.0 LUFS", arguments: [-23.0, -33.0])
    func steadySine(level: Double) async throws {
        let result = try await analyse(steps("sine\(Int(level)).wav", [(level, 20)]))
        #expect(abs(result.loudness.integrated! - level) <= 0.1)
        #expect(abs(result.loudness.momentaryMax! - level) <= 0.1)
        #expect(abs(result.loudness.shortTermMax! - level) <= 0.1)
    }

    @Test("Tech 3341 cases 3–5: stepped levels read −23.0 ± 0.1 LUFS")
    func steppedLevels() async throws {
        for (index, program) in [
            [(-36.0, 10.0), (-23, 60), (-36, 10)],
            [(-72.0, 10.0), (-36, 10), (-23, 60), (-36, 10), (-72, 10)],
            [(-26.0, 20.0), (-20, 20.1), (-26, 20)],
        ].enumerated() {
            let result = try await analyse(steps("steps\(index).wav", program))
            #expect(abs(result.loudness.integrated! - -23) <= 0.1, "case \(index + 3): \(result.loudness.integrated!)")
        }
    }

    @Test("Tech 3342 cases 1–2: 20 s at −20 dBFS then 20 s at −30 (−15) read 10 (5) ± 1 LU")
    func loudnessRange() async throws {
        let wide = try await analyse(steps("lra10.wav", [(-20, 20), (-30, 20)]))
        #expect(abs(wide.loudness.range! - 10) <= 1)
        let narrow = try await analyse(steps("lra5.wav", [(-20, 20), (-15, 20)]))
        #expect(abs(narrow.loudness.range! - 5) <= 1)
    }

    @Test("5.1: the LFE is left out and the surrounds weigh +1.5 dB")
    func surroundWeights() async throws {
        let tone = sine(1000, dbfs: -20, seconds: 5)
        func layout(_ active: Int) -> [Double] { tone.flatMap { value in (0..<6).map { $0 == active ? value : 0 } } }
        let front = try await analyse(floatWAV(scratch, "front.wav", layout(0), channels: 6)).loudness.integrated!
        let lfe = try await analyse(floatWAV(scratch, "lfe.wav", layout(3), channels: 6)).loudness.integrated
        let surround = try await analyse(floatWAV(scratch, "surround.wav", layout(4), channels: 6)).loudness.integrated!
        #expect(lfe == nil)
        #expect(abs(surround - front - 10 * log10(1.41)) < 0.01)
    }

    @Test(
        "channel weights follow the positions, as ffmpeg's ebur128 weighs them: masks, and files without one (2.1 and 5.0 assumed)",
        arguments: [
            (UInt32(0x60F), 6, 4), (0x60F, 6, 2), (0x60F, 6, 3), (0x63F, 8, 7), (0x2D60F, 10, 8), (0, 3, 2), (0, 5, 3),
        ])
    func weightsAgainstFFmpeg(mask: UInt32, channels: Int, active: Int) async throws {
        // A −20 dBFS 1 kHz tone in channel `active` only; mask 0 writes a plain WAV.
        let tone = sine(1000, dbfs: -20, seconds: 5)
        let samples = tone.flatMap { value in (0..<channels).map { $0 == active ? value : 0 } }
        let builder = PCMFileBuilder(
            container: mask == 0 ? .wav : .wavExtensible, encoding: .float32, channels: channels, sampleRate: 48_000, channelMask: mask == 0 ? nil : mask)
        let path = scratch.write("weights-\(mask)-\(channels)-\(active).wav", builder.file(samples: samples))
        let ffmpeg = try run(try #require(which("ffmpeg")), ["-hide_banner", "-nostats", "-i", path, "-af", "ebur128", "-f", "null", "-"])
        let summary = try #require(ffmpeg.stderr.split(separator: "\n").last { $0.contains("I:") && $0.contains("LUFS") }, "\(ffmpeg.stderr)")
        let reference = try #require(Double(summary.split(separator: " ").dropLast().last ?? ""))
        let ours = try await analyse(path).loudness.integrated
        if reference <= Loudness.absoluteGate {
            #expect(ours == nil, "ffmpeg leaves channel \(active + 1) out (\(reference) LUFS); signalpath reads \(ours ?? 0)")
        } else {
            let value = try #require(ours)
            #expect(abs(value - reference) <= 0.06, "ffmpeg \(reference) LUFS (one decimal), signalpath \(value)")
        }
    }

    @Test("an fs/4 sine at 45° phase: sample peak −3.01 dBFS, true peak about 0 dBTP")
    func interSamplePeak() async throws {
        let samples = (0..<48_000).map { sin(Double.pi / 2 * Double($0) + Double.pi / 4) }
        let result = try await analyse(floatWAV(scratch, "fs4.wav", stereo(samples), channels: 2))
        #expect(abs(result.channels[0].peak - -3.0103) < 0.01)
        #expect(abs(result.truePeak) < 0.3, "true peak \(result.truePeak) dBTP")
        #expect(abs(result.channels[1].truePeak - result.channels[0].truePeak) < 1e-9)
    }

    /// The filter runs the shelf with its output written out in the state updates and sums the
    /// high-pass's terms in another order; the model is the plain transposed direct form II
    /// (BS.1770's two biquads as the Recommendation gives them) in Float80. Seeded noise at three
    /// levels and a full-scale 20 Hz square (below the high-pass, whose states then dwarf its
    /// output), at 44.1, 48 and 96 kHz: energies within 10⁻¹² of the model's (writing the
    /// high-pass's output out too strayed 2.6·10⁻¹¹) and states within 10⁻¹⁰ of the largest.
    @Test("K-weighting's rearranged step equals the plain two biquads in Float80 to 1e-12", arguments: [44_100, 48_000, 96_000])
    func kWeightingMatchesPlainBiquads(sampleRate: Int) {
        var random = SeededGenerator(seed: UInt64(sampleRate))
        let weighting = KWeighting(sampleRate: sampleRate)
        var inputs: [[Float]] = [1, 1e-3, 1e-6].map { level in
            (0..<30_000).map { _ in Float.random(in: -1...1, using: &random) * level }
        }
        inputs.append((0..<30_000).map { ($0 / (sampleRate / 40)) % 2 == 0 ? 1 : -1 })
        let (b, a) = (weighting.shelf.map(Float80.init), weighting.highPass.map(Float80.init))
        for input in inputs {
            var (s1, s2, h1, h2, model): (Float80, Float80, Float80, Float80, Float80) = (0, 0, 0, 0, 0)
            for sample in input {
                let x = Float80(sample)
                let y = b[0] * x + s1
                (s1, s2) = (b[1] * x - b[3] * y + s2, b[2] * x - b[4] * y)
                let z = a[0] * y + h1
                (h1, h2) = (a[1] * y - a[3] * z + h2, a[2] * y - a[4] * z)
                model += z * z
            }
            var state = KWeighting.State()
            let energy = input.withUnsafeBufferPointer { weighting.filter($0, state: &state) }
            #expect(abs(Float80(energy) - model) <= 1e-12 * model, "\(sampleRate) Hz: \(energy) against \(model)")
            let states = [(state.shelf1, s1), (state.shelf2, s2), (state.highPass1, h1), (state.highPass2, h2)]
            let scale = states.map { abs($0.1) }.max()!
            for (measured, expected) in states {
                #expect(abs(Float80(measured) - expected) <= 1e-10 * scale, "\(sampleRate) Hz: state \(measured) against \(expected)")
            }
        }
    }

    @Test("K-weighting: two pairs filtered in step give each pair's results bit for bit, and so do runs cut into seeded random pieces")
    func kWeightingLanesAgree() {
        var random = SeededGenerator(seed: 44)
        let weighting = KWeighting(sampleRate: 48_000)
        let count = 20_000
        let channels = (0..<4).map { _ in (0..<count).map { _ in Float.random(in: -1...1, using: &random) } }
        func pointer(_ channel: Int, _ range: Range<Int>) -> UnsafeBufferPointer<Float> {
            channels[channel].withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[range]) }
        }
        // The model: each pair alone, whole, and each channel alone.
        var lowState = KWeighting.PairState(), highState = KWeighting.PairState()
        let low = weighting.filter(pointer(0, 0..<count), pointer(1, 0..<count), state: &lowState)
        let high = weighting.filter(pointer(2, 0..<count), pointer(3, 0..<count), state: &highState)
        var single = KWeighting.State()
        #expect(weighting.filter(pointer(3, 0..<count), state: &single).bitPattern == high[1].bitPattern)
        // In step, cut at random places; the energy carried over from piece to piece. Both loops:
        // four lanes in two registers, and in one (AVX2, where the processor has it).
        for wide in KWeighting.wide ? [false, true] : [false] {
            var state = KWeighting.QuadState(low: KWeighting.PairState(), high: KWeighting.PairState())
            var sums = SIMD4<Double>()
            var start = 0
            while start < count {
                let end = min(count, start + Int.random(in: 0...3000, using: &random))
                weighting.filter(
                    pointer(0, start..<end), pointer(1, start..<end), pointer(2, start..<end), pointer(3, start..<end), state: &state, adding: &sums,
                    wide: wide)
                start = end
            }
            #expect(sums.lowHalf == low && sums.highHalf == high, "wide: \(wide)")
            #expect(state.low.shelf1 == lowState.shelf1 && state.high.highPass2 == highState.highPass2, "wide: \(wide)")
        }
    }
}
