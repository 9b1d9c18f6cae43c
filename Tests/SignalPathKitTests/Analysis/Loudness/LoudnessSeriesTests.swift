import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Analysis: loudness series (momentary and short-term over time) and the true peak's time")
struct LoudnessSeriesTests {
    let scratch = ScratchDirectory("analysis-loudness-series")

    /// Every point of a pass over `path` with `workers`, and the pass.
    func series(_ path: String, step: Int = 1, workers: Int = 2, scope: SignalAnalyzer.Scope = .loudness) async throws -> (
        points: [LoudnessSeries.Point], series: LoudnessSeries, analysis: SignalAnalysis
    ) {
        let file = try AudioFile.open(path)
        var series = LoudnessSeries(sampleRate: file.format.sampleRate, startFrame: 0, step: step)
        var points: [LoudnessSeries.Point] = []
        let analysis = try await SignalAnalyzer(file: file, frames: 0..<file.format.frames!, scope: scope).run(
            workers: workers,
            subBlocks: { energy, frames in
                if let point = series.add(energy: energy, frames: frames) { points.append(point) }
            })
        return (points, series, analysis)
    }

    @Test("a naive model: seeded random sub-blocks give the windows' loudness by the formula, gated at -70, nil before a full window, maxima over every window")
    func naiveModel() {
        var generator = SeededGenerator(seed: 14)
        for step in [1, 3, 10] {
            let count = 200
            // Energies spanning silence (0), below the gate and loud; frames as at 44.1 kHz.
            let energies = (0..<count).map { _ in Bool.random(using: &generator) ? 0 : pow(10, Double.random(in: -10...0, using: &generator)) * 4410 }
            let frames = (0..<count).map { _ in 4410 }
            var series = LoudnessSeries(sampleRate: 44_100, startFrame: 44_100, step: step)
            var maxima: (Double, Double) = (-.infinity, -.infinity)
            for index in 0..<count {
                let point = series.add(energy: energies[index], frames: frames[index])
                func window(_ length: Int) -> Double? {
                    guard index + 1 >= length else { return nil }
                    let sum = energies[index + 1 - length...index].reduce(0, +)
                    let value = -0.691 + 10 * log10(sum / Double(length * 4410))
                    return value.isFinite ? value : nil
                }
                if let m = window(4) { maxima.0 = max(maxima.0, m) }
                if let s = window(30) { maxima.1 = max(maxima.1, s) }
                guard (index + 1) % step == 0 else {
                    #expect(point == nil)
                    continue
                }
                let expected = LoudnessSeries.Point(
                    time: 1 + Double(index + 1) / 10, momentary: window(4).flatMap { $0 > -70 ? $0 : nil }, shortTerm: window(30).flatMap { $0 > -70 ? $0 : nil })
                let got = point
                #expect(got != nil && abs((got?.time ?? 0) - expected.time) < 1e-12)
                #expect(got?.momentary.map { abs($0 - expected.momentary!) < 1e-9 } ?? (expected.momentary == nil), "step \(step) block \(index)")
                #expect(got?.shortTerm.map { abs($0 - expected.shortTerm!) < 1e-9 } ?? (expected.shortTerm == nil), "step \(step) block \(index)")
            }
            #expect(abs(series.momentaryMax!.loudness - maxima.0) < 1e-9 && abs(series.shortTermMax!.loudness - maxima.1) < 1e-9)
        }
    }

    @Test("EBU Tech 3341: a -23 dBFS 1 kHz stereo sine reads -23.0 ± 0.1 in every full window; a step to -33 shows 400 ms (M) and 3 s (S) later")
    func steadyAndStep() async throws {
        let tone = stereo(sine(1000, dbfs: -23, seconds: 4) + sine(1000, dbfs: -33, seconds: 4))
        let (points, series, _) = try await series(floatWAV(scratch, "step.wav", tone, channels: 2))
        #expect(points.count == 80)
        #expect(points.prefix(3).allSatisfy { $0.momentary == nil } && points.prefix(29).allSatisfy { $0.shortTerm == nil })
        for point in points {
            let time = (point.time * 10).rounded() / 10
            if time >= 0.4 && time <= 4 { #expect(abs(point.momentary! + 23) <= 0.1, "M at \(time): \(point.momentary!)") }
            if time >= 4.4 { #expect(abs(point.momentary! + 33) <= 0.1, "M at \(time)") }
            if time >= 3 && time <= 4 { #expect(abs(point.shortTerm! + 23) <= 0.1, "S at \(time)") }
            if time >= 7 { #expect(abs(point.shortTerm! + 33) <= 0.1, "S at \(time)") }
        }
        #expect(abs(series.momentaryMax!.loudness + 23) <= 0.1 && series.momentaryMax!.time <= 4)
    }

    @Test("values at or below the absolute gate are nil: -80 dBFS reads none, the loud part does; integrated and LRA as analyze's full pass")
    func gate() async throws {
        let signal = sine(1000, dbfs: -80, seconds: 2) + sine(1000, dbfs: -20, seconds: 1)
        let path = floatWAV(scratch, "gate.wav", signal)
        let (points, _, pass) = try await series(path)
        let full = try await analyse(path)
        #expect(pass.loudness == full.loudness && pass.loudness.integrated != nil, "the loudness pass measures what analyze measures")
        #expect(pass.spectrum == nil, "no spectrum in the loudness scope")
        #expect(points.filter { $0.time <= 2.0 + 1e-9 }.allSatisfy { $0.momentary == nil })
        #expect(points.filter { $0.time >= 2.4 - 1e-9 }.allSatisfy { $0.momentary != nil })
    }

    @Test("the same points, maxima and true peak time with 1 and 3 workers; the series' maxima are Loudness's")
    func workersAndScope() async throws {
        // 12 s of stereo noise at 48 kHz made by sox (three chunks), its level changing every 2 s.
        let path = scratch.file("workers.wav")
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        let made = try run(
            sox, ["-n", "-r", "48000", "-c", "2", "-e", "floating-point", "-b", "32", path, "synth", "12", "whitenoise", "tremolo", "0.25", "90"])
        #expect(made.status == 0, "\(made.stderr)")
        let one = try await series(path, workers: 1)
        for workers in [3] {
            let other = try await series(path, workers: workers)
            #expect(other.points == one.points && other.series.momentaryMax == one.series.momentaryMax && other.series.shortTermMax == one.series.shortTermMax)
            #expect(other.analysis.truePeakTime == one.analysis.truePeakTime && other.analysis.truePeak == one.analysis.truePeak)
        }
        #expect(one.series.momentaryMax?.loudness == one.analysis.loudness.momentaryMax)
        #expect(one.series.shortTermMax?.loudness == one.analysis.loudness.shortTermMax)
    }

    @Test("the true peak's time: two equal samples peak between them (continuous-time maximum at i + 0.5); one sample alone is its own peak")
    func truePeakTime() async throws {
        var doublet = [Double](repeating: 0, count: 48_000)
        doublet[30_000] = 0.5
        doublet[30_001] = 0.5
        let pass = try await analyse(floatWAV(scratch, "doublet.wav", doublet))
        // BS.1770's outputs lie at ⅛, ⅜, ⅝, ⅞ between samples: the nearest to i + 0.5 are ⅜ and ⅝.
        let time = try #require(pass.truePeakTime)
        #expect(abs(time * 48_000 - 30_000.5) <= 0.125 + 1e-6, "\(time * 48_000)")
        #expect(pass.truePeak > pass.samplePeak + 1, "the interpolated peak is above the samples")
        var single = [Double](repeating: 0, count: 48_000)
        single[12_345] = -0.5
        let alone = try await analyse(floatWAV(scratch, "single.wav", single))
        #expect(alone.truePeakTime == 12_345 / 48_000.0 && alone.truePeak == alone.samplePeak)
    }

    @Test("the true peak's time in a chunk after the first, with several workers, and a tone burst's peak where its envelope peaks")
    func truePeakTimeLater() async throws {
        // A Gaussian-windowed 5 kHz burst (σ = 0.25 ms, so the cycles beside the middle one are
        // 2.7 dB lower) centred between samples at 11.3 s + 0.37 sample in 12 s of mono (two
        // chunks): the continuous maximum is the centre.
        let rate = 48_000.0, centre = 11.3 + 0.37 / 48_000
        var samples = [Double](repeating: 0, count: Int(12 * rate))
        for index in Int((centre - 0.01) * rate)..<Int((centre + 0.01) * rate) {
            let t = Double(index) / rate - centre
            samples[index] = 0.7 * exp(-t * t / (2 * 0.00025 * 0.00025)) * cos(2 * Double.pi * 5_000 * t)
        }
        let path = floatWAV(scratch, "burst.wav", samples)
        for workers in [1, 3] {
            let pass = try await analyse(path, workers: workers)
            let time = try #require(pass.truePeakTime)
            // BS.1770's outputs lie every quarter sample, at ⅛ past a quarter: the nearest within ⅛.
            #expect(abs(time - centre) * rate <= 0.125 + 1e-6, "\((time - centre) * rate) samples")
        }
    }
}
