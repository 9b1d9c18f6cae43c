import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit
import SignalPathAVX2

/// True peak against the continuous-time peak of band-limited signals computed from their closed
/// form (`BandLimitedSignal.analyticPeak`), and ranges that start from the audio before them.
@Suite("true peak: analytic peaks, BS.1770's under-read, range pre-roll")
struct TruePeakTests {
    let scratch = ScratchDirectory("true-peak")

    /// Issue 14's signals at one rate, 0.1 s each with 10 ms raised-cosine ends, and their analytic
    /// peaks (dB): fs/4 at 45°, six sums of 1–8 sines up to 0.45·fs (three with every sine from
    /// 0.4·fs up), two square-like waves, and five sines from 0.41 to 0.45·fs in phase halfway
    /// between two samples. Seeded by the rate, so each rate has its own.
    struct Reference: Sendable {
        let sampleRate: Int
        let signals: [BandLimitedSignal]
        let analytic: [Double]

        init(sampleRate: Int) {
            self.sampleRate = sampleRate
            var generator = SeededGenerator(seed: UInt64(sampleRate))
            var signals = [BandLimitedSignal.quarterRate(sampleRate: sampleRate, seconds: 0.1)]
            for index in 0..<6 {
                let lowest = index < 3 ? 20 : 0.4 * Double(sampleRate)
                signals.append(.randomSum(sampleRate: sampleRate, seconds: 0.1, lowest: lowest, using: &generator))
            }
            for _ in 0..<2 { signals.append(.squareLike(sampleRate: sampleRate, seconds: 0.1, using: &generator)) }
            signals.append(.alignedBurst(sampleRate: sampleRate, seconds: 0.1, frequencies: [0.41, 0.42, 0.43, 0.44, 0.45]))
            self.signals = signals
            analytic = signals.map { decibels(amplitude: $0.analyticPeak()) }
        }

        /// The signals as the channels of one float WAV.
        func file(in scratch: ScratchDirectory) -> String {
            let columns = signals.map { $0.samples() }
            var interleaved: [Double] = []
            interleaved.reserveCapacity(columns.count * columns[0].count)
            for frame in 0..<columns[0].count { for column in columns { interleaved.append(column[frame]) } }
            return floatWAV(scratch, "signals-\(sampleRate).wav", interleaved, channels: signals.count, sampleRate: sampleRate)
        }
    }

    /// Computed once per rate, on first use (the closed form evaluated densely is the slow part).
    static let references = [44_100: Reference(sampleRate: 44_100), 48_000: Reference(sampleRate: 48_000), 96_000: Reference(sampleRate: 96_000)]

    /// Each signal's reading minus its analytic peak (dB), per mode.
    func errors(sampleRate: Int, modes: [TruePeakMode]) async throws -> (Reference, [TruePeakMode: [Double]]) {
        let reference = Self.references[sampleRate]!
        let path = reference.file(in: scratch)
        var readings: [TruePeakMode: [Double]] = [:]
        for mode in modes {
            var settings = AnalysisSettings()
            settings.truePeakMode = mode
            let result = try await analyse(path, settings: settings)
            readings[mode] = zip(result.channels, reference.analytic).map { $0.truePeak - $1 }
        }
        return (reference, readings)
    }

    @Test("accurate: within 0.1 dB of the analytic peak for every signal", arguments: [44_100, 48_000, 96_000])
    func accurateWithinATenth(sampleRate: Int) async throws {
        // TRUE_PEAK_FIGURES=1 prints both modes' errors per signal (the figures in docs/ANALYZE.md).
        let figures = ProcessInfo.processInfo.environment["TRUE_PEAK_FIGURES"] != nil
        let (reference, readings) = try await errors(sampleRate: sampleRate, modes: figures ? [.accurate, .bs1770] : [.accurate])
        let accurate = readings[.accurate]!
        if figures {
            for (index, signal) in reference.signals.enumerated() {
                print(String(format: "%@: analytic %.3f dB, bs1770 %+.3f, accurate %+.3f", "\(signal)", reference.analytic[index], readings[.bs1770]![index], accurate[index]))
            }
        }
        for (signal, error) in zip(reference.signals, accurate) {
            #expect(abs(error) <= 0.1, "\(signal): \(error) dB")
        }
        // The fs/4 case is exact: the grid falls on the peaks.
        #expect(abs(accurate[0]) < 0.005, "fs/4 at 45°: \(accurate[0]) dB")
    }

    /// docs/ANALYZE.md records these figures.
    @Test("BS.1770's 4× FIR under-reads the same signals near 0.45·fs, by up to about half a dB")
    func bs1770UnderReads() async throws {
        for sampleRate in [44_100, 48_000] {
            let (reference, readings) = try await errors(sampleRate: sampleRate, modes: [.bs1770, .accurate])
            let (bs1770, accurate) = (readings[.bs1770]!, readings[.accurate]!)
            // Every signal the default misses by more than 0.1 dB has energy above 0.3·fs.
            for (signal, error) in zip(reference.signals, bs1770) where error < -0.1 {
                #expect(signal.components.contains { $0.frequency > 0.3 * Double(sampleRate) }, "\(signal): \(error) dB")
            }
            // The aligned burst: its crest falls ⅛ of a frame from the 4× grid.
            let burst = bs1770.last!
            #expect(burst < -0.3 && burst > -0.7, "\(sampleRate) Hz: the default reads the burst \(burst) dB from its peak")
            #expect(abs(accurate.last!) < 0.05, "\(sampleRate) Hz: accurate reads the burst \(accurate.last!) dB from its peak")
        }
    }

    /// The accurate interpolator written the plain way: each stage's grid interleaved in full, in
    /// Double, then the largest |value| at the grid points of times `times` and the vertex of the
    /// parabola at each of their local maxima.
    static func naivePeak(_ x: [Float], times: Range<Int>) -> Double {
        let stages = OversamplingInterpolator.shared.stages.map { $0.map(Double.init) }
        // Level values with the index of their first element (level 0: the samples).
        var values = x.map(Double.init), first = 0
        for taps in stages {
            let pairs = taps.count
            var next: [Double] = []
            let from = pairs - 1, to = values.count - pairs  // midpoints computable: from ..< to
            for r in from..<to {
                next.append(values[r])
                var sum = 0.0
                for j in 0..<pairs { sum += taps[j] * (values[r - j] + values[r + 1 + j]) }
                next.append(sum)
            }
            first = 2 * (first + from)
            values = next
        }
        // values[q] is the grid point at time (first + q) / 8.
        let magnitude = values.map(abs)
        var peak = 0.0
        for time in 8 * times.lowerBound..<8 * times.upperBound {
            let q = time - first
            peak = max(peak, magnitude[q])
            if magnitude[q] >= magnitude[q - 1] && magnitude[q] >= magnitude[q + 1] {
                peak = max(peak, Double(OversamplingInterpolator.parabolaPeak(Float(magnitude[q - 1]), Float(magnitude[q]), Float(magnitude[q + 1]))))
            }
        }
        return peak
    }

    @Test("the accurate meter equals the plain cascade with parabolas, for seeded ranges and floors")
    func accurateMatchesNaiveModel() {
        var generator = SeededGenerator(seed: 14)
        let meter = TruePeakMeter(mode: .accurate)
        for round in 0..<40 {
            let signal = BandLimitedSignal.randomSum(sampleRate: 48_000, seconds: 0.03, using: &generator)
            let x = signal.samples().map(Float.init)
            let lower = Int.random(in: meter.lookBehind...200, using: &generator)
            let upper = Int.random(in: lower + 1...x.count - meter.lookAhead, using: &generator)
            let model = Self.naivePeak(x, times: lower..<upper)
            let floor = Float(model) * [0, 0.5, 0.99, 1.01][round % 4]
            let measured = x.withUnsafeBufferPointer { meter.peak($0, range: lower..<upper, above: floor) }
            #expect(abs(Double(measured) - max(Double(floor), model)) <= 2e-6, "\(signal), \(lower)..<\(upper), floor \(floor): \(measured) against \(model)")
        }
    }

    /// BS.1770's meter skips a phase over stretches whose inputs cannot beat the peak so far; the
    /// answer must be every output's, as a plain scan of all outputs of all phases finds it: the
    /// largest magnitude (or the floor), and the earliest output holding it. Seeded signals whose
    /// level jumps every few dozen samples (so stretches, phases and runs of them are skipped in
    /// every combination), with a few outputs driven to their phase's bound (the 12 inputs they
    /// read at one magnitude, with their taps' signs, often across a stretch's start), seeded
    /// ranges and floors around the answer.
    @Test("BS.1770's skipping meter equals a scan of every output of every phase, peak and place")
    func skippingMatchesFullScan() {
        var generator = SeededGenerator(seed: 1770)
        let meter = TruePeakMeter(mode: .bs1770)
        for round in 0..<300 {
            let count = Int.random(in: 40...2000, using: &generator)
            var x = [Float](repeating: 0, count: count)
            var level: Float = 1
            for index in x.indices {
                if index % Int.random(in: 20...90, using: &generator) == 0 { level = [1, 0.7, 0.5, 0.3, 0.05][Int.random(in: 0..<5, using: &generator)] }
                x[index] = Float.random(in: -1...1, using: &generator) * level
            }
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let phase = Int.random(in: 0..<4, using: &generator), output = Int.random(in: 11..<count, using: &generator)
                let magnitude = Float.random(in: 0.3...1, using: &generator)
                for tap in 0..<TruePeakMeter.taps { x[output - tap] = TruePeakMeter.phases[phase][tap] < 0 ? -magnitude : magnitude }
            }
            let lower = Int.random(in: 11...30, using: &generator), upper = Int.random(in: lower + 1...count, using: &generator)
            // Every output of every phase, summed as the meter's kernels sum on this processor.
            var model: Float = 0, place: Double?
            for index in lower..<upper {
                for (phase, value) in Self.outputMagnitudes(x, index, folded: TruePeakMeter.wide).enumerated() where value > model {
                    (model, place) = (value, Double(index) - TruePeakMeter.phaseDelay + Double(phase) / 4)
                }
            }
            let floor = model * [0, 0.5, 0.99, 1.01, 1][round % 5]
            let (peak, found) = x.withUnsafeBufferPointer { (meter.peak($0, range: lower..<upper, above: floor), meter.locatePeak($0, range: lower..<upper, above: floor)) }
            #expect(peak == max(floor, model), "round \(round), \(lower)..<\(upper), floor \(floor): \(peak) against \(model)")
            #expect(found.peak == peak, "round \(round): located \(found.peak) against \(peak)")
            #expect(found.position == (model > floor ? place : nil), "round \(round): at \(String(describing: found.position)) against \(String(describing: place))")
            // The bounds eight at a time (AVX2) and four at a time: the same magnitudes.
            if TruePeakMeter.wide {
                let end = Int.random(in: lower + 1...min(upper, lower + TruePeakMeter.blockSize), using: &generator)
                let (wide, narrow) = x.withUnsafeBufferPointer {
                    (
                        TruePeakMeter.stretchMagnitudes($0.baseAddress!, from: lower, to: end, wide: true),
                        TruePeakMeter.stretchMagnitudes($0.baseAddress!, from: lower, to: end, wide: false)
                    )
                }
                #expect(wide == narrow, "round \(round), \(lower)..<\(end): \(wide) against \(narrow)")
            }
        }
    }

    /// The four phases' output magnitudes at `index`, by scalar models of the two paths'
    /// arithmetic: tap after tap (a multiply then an add), or folded (AVX2): phases p and 3 − p
    /// mirror each other, S = Σₖ₍₆₎ (c[k] + c[11−k])·(x[i−k] + x[i−11+k]) and D the same with
    /// differences, each a chain of fused multiply-adds from k = 0, and y_p = (S + D)/2,
    /// y_{3−p} = (S − D)/2.
    static func outputMagnitudes(_ x: [Float], _ index: Int, folded: Bool) -> [Float] {
        let phases = TruePeakMeter.phases
        guard folded else {
            return phases.map { c in abs((1..<TruePeakMeter.taps).reduce(c[0] * x[index]) { $0 + c[$1] * x[index - $1] }) }
        }
        var magnitudes = [Float](repeating: 0, count: 4)
        for phase in 0..<2 {
            let c = phases[phase]
            var sum = (c[0] + c[11]) * (x[index] + x[index - 11]), difference = (c[0] - c[11]) * (x[index] - x[index - 11])
            for k in 1..<6 {
                sum = sum.addingProduct(c[k] + c[11 - k], x[index - k] + x[index - 11 + k])
                difference = difference.addingProduct(c[k] - c[11 - k], x[index - k] - x[index - 11 + k])
            }
            magnitudes[phase] = abs(sum + difference) * 0.5
            magnitudes[3 - phase] = abs(sum - difference) * 0.5
        }
        return magnitudes
    }

    /// The AVX2 path (eight outputs at a time over the mirrored pairs' folded taps, the middle
    /// pair alone or both) and the SSE path (four at a time, a phase at a time) against scalar
    /// models of their arithmetic: equal bits, for seeded signals and ranges (lengths that leave
    /// a tail for the scalar loop); and each phase of either within a few units in the last place
    /// of its exact sum, so a pair's two phases are not swapped. Runs where the processor has AVX2.
    @Test("BS.1770's interpolation eight at a time (folded pairs) and four at a time give the bits of their scalar sums", .enabled(if: TruePeakMeter.wide))
    func wideInterpolationIsExact() {
        var generator = SeededGenerator(seed: 18)
        for round in 0..<200 {
            let count = Int.random(in: 40...3000, using: &generator)
            let x = (0..<count).map { _ in Float.random(in: -1...1, using: &generator) * (round % 3 == 0 ? 1e-3 : 1) }
            let lower = Int.random(in: 11...30, using: &generator), upper = Int.random(in: lower + 1...count, using: &generator)
            var folded = [Float](repeating: 0, count: 4), plain = [Float](repeating: 0, count: 4)
            for index in lower..<upper {
                let (foldedOutputs, plainOutputs) = (Self.outputMagnitudes(x, index, folded: true), Self.outputMagnitudes(x, index, folded: false))
                for phase in 0..<4 {
                    folded[phase] = max(folded[phase], foldedOutputs[phase])
                    plain[phase] = max(plain[phase], plainOutputs[phase])
                    let c = TruePeakMeter.phases[phase]
                    let exact = abs((0..<TruePeakMeter.taps).reduce(0.0) { $0 + Double(c[$1]) * Double(x[index - $1]) })
                    // The folded sums carry both phases of the pair, so their rounding scales with both.
                    let mirror = TruePeakMeter.phases[3 - phase]
                    let scale = (0..<TruePeakMeter.taps).reduce(0.0) { $0 + abs(Double(c[$1]) * Double(x[index - $1])) }
                    let pairScale = (0..<TruePeakMeter.taps).reduce(0.0) { $0 + (abs(Double(c[$1])) + abs(Double(mirror[$1]))) * abs(Double(x[index - $1])) }
                    for (name, value, scale) in [("folded", foldedOutputs[phase], pairScale), ("plain", plainOutputs[phase], scale)] {
                        #expect(abs(Double(value) - exact) <= 12 * Double(Float.ulpOfOne) * scale, "round \(round), phase \(phase), \(name): \(value) against \(exact)")
                    }
                }
            }
            let (wide, wideMiddle, narrow, narrowMiddle) = x.withUnsafeBufferPointer {
                (
                    TruePeakMeter.interpolate($0.baseAddress!, lower..<upper, allPhases: true, wide: true),
                    TruePeakMeter.interpolate($0.baseAddress!, lower..<upper, allPhases: false, wide: true),
                    TruePeakMeter.interpolate($0.baseAddress!, lower..<upper, allPhases: true, wide: false),
                    TruePeakMeter.interpolate($0.baseAddress!, lower..<upper, allPhases: false, wide: false)
                )
            }
            #expect(wide.bitPattern == folded.max()!.bitPattern, "round \(round): \(wide), folded model \(folded.max()!)")
            #expect(wideMiddle.bitPattern == max(folded[1], folded[2]).bitPattern, "round \(round): middle \(wideMiddle), folded model \(folded)")
            #expect(narrow.bitPattern == plain.max()!.bitPattern, "round \(round): \(narrow), model \(plain.max()!)")
            #expect(narrowMiddle.bitPattern == max(plain[1], plain[2]).bitPattern, "round \(round): middle \(narrowMiddle), model \(plain)")
        }
    }

    /// The accurate interpolator's first stage eight midpoints at a time (AVX2, fused) against a
    /// scalar model of that arithmetic (even and odd pairs in two chains of fused multiply-adds,
    /// then added): equal bits; and within a few units in the last place of the exact sum.
    @Test("the accurate interpolator's first stage eight at a time gives the bits of its scalar model", .enabled(if: TruePeakMeter.wide))
    func wideHalfBandIsExact() {
        var generator = SeededGenerator(seed: 19)
        let taps = OversamplingInterpolator.shared.stages[0]
        let pairs = taps.count
        for _ in 0..<100 {
            let count = Int.random(in: 1...300, using: &generator)
            let x = (0..<count + 2 * pairs + 2).map { _ in Float.random(in: -1...1, using: &generator) }
            let first = pairs
            var output = [Float](repeating: 0, count: count)
            x.withUnsafeBufferPointer { x in
                taps.withUnsafeBufferPointer { taps in
                    output.withUnsafeMutableBufferPointer {
                        HalfBandAVX2.midpoints(x.baseAddress!, first: first, count: count, taps: taps.baseAddress!, pairs: pairs, into: $0.baseAddress!)
                    }
                }
            }
            for k in 0..<count {
                let i = first + k
                var even = taps[0] * (x[i] + x[i + 1]), odd = taps[1] * (x[i - 1] + x[i + 2])
                var j = 2
                while j + 1 < pairs {
                    even = even.addingProduct(taps[j], x[i - j] + x[i + 1 + j])
                    odd = odd.addingProduct(taps[j + 1], x[i - j - 1] + x[i + 2 + j])
                    j += 2
                }
                if j < pairs { even = even.addingProduct(taps[j], x[i - j] + x[i + 1 + j]) }
                #expect(output[k].bitPattern == (even + odd).bitPattern, "k = \(k) of \(count)")
                let exact = (0..<pairs).reduce(0.0) { $0 + Double(taps[$1]) * (Double(x[i - $1]) + Double(x[i + 1 + $1])) }
                let scale = (0..<pairs).reduce(0.0) { $0 + abs(Double(taps[$1])) * 2 }
                #expect(abs(Double(output[k]) - exact) <= 8 * Double(Float.ulpOfOne) * scale)
            }
        }
    }

    @Test("the interpolator's stages: unit gain at DC, and a tone at 0.45·fs passes within 0.01 dB")
    func stages() {
        let interpolator = OversamplingInterpolator.shared
        for stage in interpolator.stages { #expect(abs(2 * stage.reduce(0, +) - 1) < 1e-6) }
        // A half-band stage's midpoint response at frequency f (cycles per input sample): Σ 2c cos(2πf(j + ½)).
        let response = interpolator.stages[0].enumerated().reduce(0.0) { sum, tap in
            sum + 2 * Double(tap.element) * cos(2 * Double.pi * 0.45 * (Double(tap.offset) + 0.5))
        }
        #expect(abs(response - 1) < 0.0015, "stage 1 at 0.45·fs: \(response)")
    }

    // MARK: Ranges

    /// The issue's case: a steady 14.65 kHz sine at −6.02 dBFS (peak 0.5), 2 s at 48 kHz with 50 ms
    /// raised-cosine ends, 24-bit.
    func steadySine() -> (wav: String, samples: [Double]) {
        let signal = BandLimitedSignal(
            "14.65 kHz", components: [.init(frequency: 14_650, amplitude: 1, phase: 0)], sampleRate: 48_000, seconds: 2, taperSeconds: 0.05)
        let samples = signal.samples()
        let builder = PCMFileBuilder(container: .wav, encoding: .signed24, channels: 1, sampleRate: 48_000)
        return (scratch.write("steady-14k65.wav", builder.file(samples: samples)), samples)
    }

    @Test("a range cut inside steady audio reads the true peak and momentary loudness of the whole file (WAV and FLAC, both modes)")
    func rangeStartsFromTheAudioBefore() async throws {
        let (wav, _) = steadySine()
        let flac = scratch.file("steady-14k65.flac")
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        #expect(try run(sox, [wav, flac]).status == 0)
        for path in [wav, flac] {
            for mode in TruePeakMode.allCases {
                var settings = AnalysisSettings()
                settings.truePeakMode = mode
                let whole = try await analyse(path, settings: settings)
                // 0.5 … 1.5 s, and a range whose ends fall between the interpolator's grid phases.
                for range: Range<Int64> in [24_000..<72_000, 30_001..<60_007] {
                    let cut = try await analyse(path, range: range, settings: settings)
                    let name = "\(path.hasSuffix("flac") ? "FLAC" : "WAV") \(mode) \(range)"
                    #expect(abs(cut.truePeak - whole.truePeak) < 0.01, "\(name): \(cut.truePeak) against \(whole.truePeak) dBTP")
                    #expect(abs(cut.truePeak - -6.0206) < 0.02, "\(name): \(cut.truePeak) dBTP")
                    let (cutMomentary, wholeMomentary) = (try #require(cut.loudness.momentaryMax), try #require(whole.loudness.momentaryMax))
                    #expect(abs(cutMomentary - wholeMomentary) < 0.001, "\(name): momentary \(cutMomentary) against \(wholeMomentary) LUFS")
                }
            }
        }
    }

    @Test("a 400 ms range inside steady audio with a DC offset reads the momentary loudness of the whole file's block (WAV and FLAC)")
    func rangeMomentaryStartsFromTheAudioBefore() async throws {
        // A DC offset cut out of the file is a step into the K-filter's 38 Hz high-pass: from rest,
        // its transient added 0.0097 LU to the first block before ranges started from the audio before them.
        let signal = BandLimitedSignal(
            "14.65 kHz + DC", components: [.init(frequency: 14_650, amplitude: 1, phase: 0), .init(frequency: 0, amplitude: 1, phase: Double.pi / 2)],
            sampleRate: 48_000, seconds: 2, taperSeconds: 0.05)
        let builder = PCMFileBuilder(container: .wav, encoding: .signed24, channels: 1, sampleRate: 48_000)
        let wav = scratch.write("steady-mix.wav", builder.file(samples: signal.samples()))
        let flac = scratch.file("steady-mix.flac")
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        #expect(try run(sox, [wav, flac]).status == 0)
        for path in [wav, flac] {
            let whole = try #require(try await analyse(path).loudness.momentaryMax)
            // One momentary block: 0.5 … 0.9 s (the file is steady from 0.05 to 1.95 s).
            let block = try #require(try await analyse(path, range: 24_007..<43_207).loudness.momentaryMax)
            #expect(abs(block - whole) < 0.001, "\(path): \(block) against \(whole) LUFS")
        }
    }

    @Test("a range that starts at the file's start still rings from the silence before it, as the whole file does")
    func rangeAtTheStartRingsFromSilence() async throws {
        // An abrupt start (the end tapered over 50 ms): the file's own onset is part of its true
        // peak (BS.1770's meter sees it too).
        var samples = sine(14_650, dbfs: -6.0206, seconds: 0.5)
        for index in 0..<2_400 { samples[samples.count - 1 - index] *= 0.5 - 0.5 * cos(Double.pi * Double(index) / 2_400) }
        let path = floatWAV(scratch, "abrupt.wav", samples)
        for mode in TruePeakMode.allCases {
            var settings = AnalysisSettings()
            settings.truePeakMode = mode
            let whole = try await analyse(path, settings: settings)
            let head = try await analyse(path, range: 0..<4_800, settings: settings)
            #expect(head.truePeak == whole.truePeak, "\(mode): \(head.truePeak) against \(whole.truePeak)")
            #expect(whole.truePeak > -6.0, "\(mode): the onset rings above the steady −6.02 dBTP: \(whole.truePeak)")
        }
    }
}
