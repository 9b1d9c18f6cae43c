import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Analysis: the live loudness meter (replay, record)")
struct LoudnessMeterTests {
    let scratch = ScratchDirectory("analysis-loudness-meter")

    /// 8 s of stereo noise whose level changes every 0.7 s, as a float WAV, and its samples.
    func material() -> (path: String, samples: [Float]) {
        let noise = Signals.noise(count: 8 * 48_000 * 2, amplitude: 1, seed: 21)
        let samples = noise.enumerated().map { index, value in value * pow(10, -Double((index / 2 / 33_600) % 4) * 8 / 20 - 0.5) }
        return (floatWAV(scratch, "meter.wav", samples, channels: 2), samples.map(Float.init))
    }

    @Test("fed in random pieces, at every 100 ms it reads what the chunked pass's series reads (to 1e-6 LU); nil where the series is")
    func matchesSeries() async throws {
        let (path, samples) = material()
        let file = try AudioFile.open(path)
        var series = LoudnessSeries(sampleRate: 48_000, startFrame: 0)
        var points: [LoudnessSeries.Point] = []
        _ = try await SignalAnalyzer(file: file, frames: 0..<file.format.frames!, scope: .loudness).run(
            workers: 2, subBlocks: { energy, frames in if let point = series.add(energy: energy, frames: frames) { points.append(point) } })
        var meter = LoudnessMeter(sampleRate: 48_000, layout: file.format.channelLayout)
        var generator = SeededGenerator(seed: 5)
        var fed = 0
        var compared = 0
        samples.withUnsafeBufferPointer { samples in
            for point in points {
                let end = Int((point.time * 48_000).rounded())
                // Pieces of 1 … 3000 frames up to the point's time.
                while fed < end {
                    let next = min(end, fed + Int.random(in: 1...3000, using: &generator))
                    meter.feed(UnsafeBufferPointer(rebasing: samples[fed * 2..<next * 2]))
                    fed = next
                }
                #expect((meter.momentary == nil) == (point.momentary == nil) && (meter.shortTerm == nil) == (point.shortTerm == nil), "at \(point.time)")
                if let m = meter.momentary, let expected = point.momentary {
                    #expect(abs(m - expected) < 1e-6, "M at \(point.time)")
                    compared += 1
                }
                if let s = meter.shortTerm, let expected = point.shortTerm { #expect(abs(s - expected) < 1e-6, "S at \(point.time)") }
            }
        }
        #expect(compared >= 70)
    }

    @Test("reset inside the stream: nothing until the filter has settled and a window is full, then the series' values")
    func resetInside() async throws {
        let (path, samples) = material()
        let file = try AudioFile.open(path)
        var series = LoudnessSeries(sampleRate: 48_000, startFrame: 0)
        var points: [Double: LoudnessSeries.Point] = [:]
        _ = try await SignalAnalyzer(file: file, frames: 0..<file.format.frames!, scope: .loudness).run(
            workers: 1, subBlocks: { energy, frames in if let point = series.add(energy: energy, frames: frames) { points[(point.time * 10).rounded()] = point } })
        var meter = LoudnessMeter(sampleRate: 48_000, layout: file.format.channelLayout)
        let start = 100_000  // 2.083 s, inside a 10 ms tick
        meter.reset(at: Int64(start))
        samples.withUnsafeBufferPointer { samples in
            let settled = start + meter.settlingFrames
            // The first whole tick after settling, then 40 of them.
            let momentaryReady = (settled + 479) / 480 * 480 + 40 * 480
            meter.feed(UnsafeBufferPointer(rebasing: samples[start * 2..<(momentaryReady - 1) * 2]))
            #expect(meter.momentary == nil, "one frame short of a settled window")
            meter.feed(UnsafeBufferPointer(rebasing: samples[(momentaryReady - 1) * 2..<384_000 * 2]))
        }
        #expect(abs(meter.momentary! - points[80]!.momentary!) < 1e-6 && abs(meter.shortTerm! - points[80]!.shortTerm!) < 1e-6)
    }

    @Test("outside the measurable rates (a 2 kHz file), nothing is measured")
    func unmeasurableRate() {
        var meter = LoudnessMeter(sampleRate: 2000, layout: .assumed(channels: 1, container: .wav, sampleFormat: .float(bits: 32)))
        let tone = [Float](repeating: 0.5, count: 10_000)
        tone.withUnsafeBufferPointer { meter.feed($0) }
        #expect(meter.momentary == nil && meter.shortTerm == nil)
    }
}
