import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// The frame-grid search on audio made the way a transform coder makes it: seeded MDCT
/// coefficients, some switched off, synthesised by a plain inverse MDCT (summed here, not by the
/// code under test) with overlap-add on a 1024-sample grid, and rounded to 16 bits.
@Suite("FrameGridProbe: a coder's grid in synthesised audio")
struct FrameGridProbeTests {
    /// `length` samples whose frames start at `gridOffset` + t · hop under `window` (`hop` samples
    /// apart, 1024 unless given); each frame's coefficients from `hop / 4` up are zero with
    /// probability `switchedOff`.
    static func coded(
        length: Int, gridOffset: Int, window: FrameGridStatistics.Window, switchedOff: Double, seed: UInt64, hop: Int = FrameGridProbe.hop
    ) -> [Float] {
        let m = hop, w = FrameGridProbe.coefficients(window, size: 2 * m).map(Double.init)
        // cos(π/(4M) · (2n + 1 + M)(2k + 1)) looked up by its argument modulo 8M.
        let table = (0..<8 * m).map { cos(Double.pi * Double($0) / Double(4 * m)) }
        var generator = SeededGenerator(seed: seed)
        var signal = [Double](repeating: 0, count: length + 2 * m)
        var start = gridOffset - 2 * m
        while start < length {
            var coefficients = [Double](repeating: 0, count: m)
            for k in 0..<m {
                // Gaussian by Box–Muller, 0.1 RMS in the output.
                let u = Double.random(in: Double.ulpOfOne..<1, using: &generator), v = Double.random(in: 0..<1, using: &generator)
                let value = 0.1 / Double(m / 2).squareRoot() * (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
                let off = k >= m / 4 && Double.random(in: 0..<1, using: &generator) < switchedOff
                coefficients[k] = off ? 0 : value
            }
            for n in 0..<2 * m where start + n >= 0 && start + n < signal.count {
                var sum = 0.0
                for k in 0..<m where coefficients[k] != 0 { sum += coefficients[k] * table[((2 * n + 1 + m) * (2 * k + 1)) % (8 * m)] }
                signal[start + n] += w[n] * sum
            }
            start += m
        }
        return signal[..<length].map { Float(($0 * 32768).rounded() / 32768) }
    }

    static func search(_ samples: [Float], sampleRate: Int = 44_100) -> FrameGridStatistics {
        var statistics = FrameGridStatistics()
        samples.withUnsafeBufferPointer { FrameGridProbe(sampleRate: sampleRate).search($0, into: &statistics) }
        return statistics
    }

    @Test(
        "half the coefficients switched off under the coder's window, grid at 300: excess over 0.3 in that window; none switched off: none",
        arguments: FrameGridStatistics.Window.allCases)
    func findsTheCodersGridAndWindow(window: FrameGridStatistics.Window) throws {
        let length = FrameGridProbe.excerptLength
        let coded = Self.search(Self.coded(length: length, gridOffset: 300, window: window, switchedOff: 0.5, seed: 1))
        let found = try #require(coded.strongest)
        #expect(found.window == window && found.share > 0.3, "\(coded)")
        #expect(found.share >= Authenticity.frameGridExcessShown)
        let whole = Self.search(Self.coded(length: length, gridOffset: 300, window: window, switchedOff: 0, seed: 1))
        let chance = try #require(whole.strongest)
        #expect(abs(chance.share) < Authenticity.frameGridExcessShown / 4, "\(whole)")
    }

    @Test(
        "Vorbis's shorter long blocks (1024 samples every 512 at 15-26 kHz, 512 every 256 below): found at 22.05 and 11.025 kHz, where the 2048-sample search would miss them; none switched off: none",
        arguments: [(22_050, 512), (11_025, 256)])
    func findsVorbisShortBlocks(sampleRate: Int, hop: Int) throws {
        #expect(FrameGridStatistics.Window.vorbis.hop(sampleRate: sampleRate) == hop)
        let length = FrameGridProbe.excerptLength
        let samples = Self.coded(length: length, gridOffset: 3 * hop / 4, window: .vorbis, switchedOff: 0.5, seed: 2, hop: hop)
        let found = try #require(Self.search(samples, sampleRate: sampleRate).strongest)
        #expect(found.window == .vorbis && found.share > 0.3, "\(found)")
        // The same audio searched on the 2048-sample grid only (as at 44.1 kHz) shows no grid.
        let longOnly = try #require(Self.search(samples, sampleRate: 44_100).strongest)
        #expect(longOnly.share < Authenticity.frameGridExcessShown, "\(longOnly)")
        let whole = Self.coded(length: length, gridOffset: 3 * hop / 4, window: .vorbis, switchedOff: 0, seed: 2, hop: hop)
        let chance = try #require(Self.search(whole, sampleRate: sampleRate).strongest)
        #expect(abs(chance.share) < Authenticity.frameGridExcessShown / 4, "\(chance)")
    }

    @Test("seeded white noise and a sweep (no grid): excess under a quarter of the rule's threshold in every window")
    func noGridInGenuineSignals() {
        var generator = SeededGenerator(seed: 3)
        let length = FrameGridProbe.excerptLength
        let noise = (0..<length).map { _ in Float((Double.random(in: -0.3...0.3, using: &generator) * 32768).rounded() / 32768) }
        let sweep = (0..<length).map { n -> Float in
            let t = Double(n)
            let phase = 0.05 * t + 3e-5 * t * t
            return Float((0.5 * sin(phase) * 32768).rounded() / 32768)
        }
        for samples in [noise, sweep] {
            for sampleRate in [44_100, 22_050, 11_025] {
                let statistics = Self.search(samples, sampleRate: sampleRate)
                for (excess, examined) in zip(statistics.excess, statistics.examined) {
                    #expect(Double(excess) / Double(examined) < Authenticity.frameGridExcessShown / 4, "\(sampleRate) Hz: \(statistics)")
                }
            }
        }
    }
}
