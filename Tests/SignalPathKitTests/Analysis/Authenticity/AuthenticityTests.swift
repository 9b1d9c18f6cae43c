import Foundation
import Testing
@testable import SignalPathKit

/// `Authenticity`'s rules on spectra and segment counts built by hand, where the answer follows
/// from the rule as docs/AUTHENTICITY.md states it (the corpus tests measure them on real files).
@Suite("Authenticity: the rules on constructed evidence")
struct AuthenticityTests {
    static let fftSize = 8192

    /// A 24-bit file's mean spectrum: `level(f)` dB (re a full-scale sine's peak bin) per bin.
    static func judge(
        sampleRate: Int, level: (Double) -> Double, edges: SpectralEdgeStatistics
    ) -> Authenticity {
        let binWidth = Double(sampleRate) / Double(fftSize)
        let meanSquare = (0...fftSize / 2).map { bin in pow(10, level(Double(bin) * binWidth) / 10) / 4 }
        let format = AudioFormat(container: .wav, sampleFormat: .pcm(bits: 24, signed: true), sampleRate: sampleRate, channels: 2, frames: nil)
        // Kaiser β = 20's Σw²/(Σw)² at 8192 points, near enough for the rounding level.
        return Authenticity(
            meanSquare: meanSquare, binWidth: binWidth, noiseBandwidth: 2.9e-4, edges: edges, format: format, bitsInUse: 24, monoAsStereo: false)
    }

    /// Segment counts: every segment's content ends in `top`'s band (or spread over `tops`).
    static func edges(tops: [Int], edgesAt edgeBand: Int? = nil) -> SpectralEdgeStatistics {
        var edges = SpectralEdgeStatistics(bandCount: 256)
        for band in tops { edges.topCounts[band] += 1 }
        edges.activeSegments = tops.count
        if let edgeBand { edges.edgeCounts[edgeBand] = tops.count * 8 / 10 }
        return edges
    }

    @Test("FFmpeg's leaky upsample: a shelf at 1.17 x 22.05 kHz that no segment reaches, content that reaches 22.05 kHz: upsampled from 44.1 kHz")
    func leakyShelfIsJudgedWhereTheContentEnds() {
        // 96 kHz: content to 22.05 kHz, images at -110 dB to 25.8 kHz, nothing but rounding above.
        let level = { (f: Double) in f < 22_050 ? -60.0 : f < 25_800 ? -110 : -190 }
        let bandWidth = 48_000.0 / 256
        let reaching = Self.judge(sampleRate: 96_000, level: level, edges: Self.edges(tops: [Int](repeating: Int(21_900 / bandWidth), count: 100)))
        #expect(reaching.verdict == .upsampled && reaching.sourceRate == 44_100, "\(reaching)")
        #expect(reaching.reachingCutoff == 0 && reaching.reachingSourceNyquist == 1)
        // A sweep's tops, spread from 1 kHz up: too few reach the old Nyquist frequency.
        let spread = Self.judge(sampleRate: 96_000, level: level, edges: Self.edges(tops: Array(5...118)))
        #expect(spread.verdict != .upsampled && (spread.reachingSourceNyquist ?? 1) < Authenticity.leastReach, "\(spread)")
    }

    @Test("a shelf where a 44.1 kHz upsample would put it: frames cut well below it are a coder's, frames cut at it an anti-imaging filter's")
    func framesBelowTheShelfAreACoder() {
        // 48 kHz, content to 21.1 kHz (0.957 of 22.05 kHz), rounding above.
        let level = { (f: Double) in f < 21_100 ? -60.0 : -190 }
        let bandWidth = 24_000.0 / 256
        let tops = [Int](repeating: Int(21_050 / bandWidth), count: 100)
        let coder = Self.judge(sampleRate: 48_000, level: level, edges: Self.edges(tops: tops, edgesAt: Int(19_450 / bandWidth)))
        #expect(coder.verdict == .lossyOrigin, "\(coder)")
        let filter = Self.judge(sampleRate: 48_000, level: level, edges: Self.edges(tops: tops, edgesAt: Int(21_000 / bandWidth)))
        #expect(filter.verdict == .upsampled && filter.sourceRate == 44_100, "\(filter)")
    }

    @Test("a noise floor that ends at 22.05 kHz in most segments of a 96 kHz file is an upsample; one that ends at Nyquist, or moves, is not")
    func noiseFloorShowsTheSourceRate() {
        // Content to 47 kHz (no shelf): the spectrum's rules alone say lossless_origin.
        let level = { (_: Double) in -90.0 }
        let bandWidth = 48_000.0 / 256
        func judged(floorTops: [Int]) -> Authenticity {
            var edges = Self.edges(tops: [Int](repeating: 255, count: floorTops.count))
            for band in floorTops { edges.floorTopCounts[band] += 1 }
            return Self.judge(sampleRate: 96_000, level: level, edges: edges)
        }
        let upsample = judged(floorTops: [Int](repeating: Int(21_300 / bandWidth), count: 90) + Array(150..<160))
        #expect(upsample.verdict == .upsampled && upsample.sourceRate == 44_100, "\(upsample)")
        #expect(judged(floorTops: [Int](repeating: 255, count: 100)).verdict == .losslessOrigin)
        // Below the 80 % that the rule asks for.
        let moving = judged(floorTops: [Int](repeating: Int(21_300 / bandWidth), count: 70) + Array(150..<180))
        #expect(moving.verdict == .losslessOrigin && moving.noiseFloorTopShare == 0.7, "\(moving)")
    }
}

extension AuthenticityTests {
    @Test(
        "content to the band edge, or a steep shelf at 0.975 of Nyquist: lossless_origin at 44.1 and 48 kHz, inconclusive at 22.05 and 32 kHz, where coders keep the whole band",
        arguments: [(44_100, Authenticity.Verdict.losslessOrigin), (48_000, .losslessOrigin), (22_050, .inconclusive), (32_000, .inconclusive)])
    func positiveEvidenceNeedsABandCodersCut(sampleRate: Int, expected: Authenticity.Verdict) {
        let nyquist = Double(sampleRate) / 2
        let full = Self.judge(sampleRate: sampleRate, level: { _ in -70 }, edges: Self.edges(tops: [Int](repeating: 255, count: 100)))
        #expect(full.verdict == expected && full.cutoff == nil, "\(full)")
        let shelf = 0.975 * nyquist
        let filtered = Self.judge(
            sampleRate: sampleRate, level: { $0 < shelf ? -70 : -190 }, edges: Self.edges(tops: [Int](repeating: Int(shelf / nyquist * 256) - 1, count: 100)))
        #expect(filtered.verdict == expected && abs((filtered.cutoff ?? 0) / shelf - 1) < 0.01, "\(filtered)")
    }

    @Test(
        "a 96 kHz file's shelf names the source whose resampler it matches: 0.975 of 24 kHz (sox) from 48 kHz, 1.165 of 22.05 kHz (FFmpeg) from 44.1 kHz, 24.6 kHz (1.025 of 24, 1.12 of 22.05: neither) lossy_origin",
        arguments: [(23_400.0, 48_000), (25_690, 44_100), (24_600, nil)])
    func shelfMatchesAResamplersSignature(cutoff: Double, source: Int?) {
        let bandWidth = 48_000.0 / 256
        let judged = Self.judge(
            sampleRate: 96_000, level: { $0 < cutoff ? -60 : -190 }, edges: Self.edges(tops: [Int](repeating: Int(cutoff / bandWidth) - 1, count: 100)))
        #expect(judged.verdict == (source == nil ? .lossyOrigin : .upsampled) && judged.sourceRate == source, "\(judged)")
    }

    @Test("a coder's frame grid turns a full-band spectrum's lossless_origin into lossy_origin with the window's codec; a grid under the threshold does not")
    func frameGridShowsACoder() {
        // Content to the band edge: the spectrum's rules alone say lossless_origin.
        let level = { (_: Double) in -70.0 }
        let tops = [Int](repeating: 255, count: 100)
        func judged(excess: Double, window: FrameGridStatistics.Window) -> Authenticity {
            var grid = FrameGridStatistics()
            grid.examined = [10_000, 10_000]
            grid.excess[FrameGridStatistics.Window.allCases.firstIndex(of: window)!] = Int(excess * 10_000)
            let binWidth = 48_000.0 / Double(Self.fftSize)
            let meanSquare = (0...Self.fftSize / 2).map { bin in pow(10, level(Double(bin) * binWidth) / 10) / 4 }
            let format = AudioFormat(container: .wav, sampleFormat: .pcm(bits: 16, signed: true), sampleRate: 48_000, channels: 2, frames: nil)
            return Authenticity(
                meanSquare: meanSquare, binWidth: binWidth, noiseBandwidth: 2.9e-4, edges: Self.edges(tops: tops), frameGrid: grid, format: format,
                bitsInUse: 16, monoAsStereo: false)
        }
        let vorbis = judged(excess: 0.05, window: .vorbis)
        #expect(vorbis.verdict == .lossyOrigin && vorbis.codecHint == "vorbis" && vorbis.frameGridWindow == .vorbis, "\(vorbis)")
        let aac = judged(excess: 0.03, window: .kaiserBesselDerived)
        #expect(aac.verdict == .lossyOrigin && aac.codecHint == "aac" && aac.frameGridExcess == 0.03, "\(aac)")
        let chance = judged(excess: 0.005, window: .vorbis)
        #expect(chance.verdict == .losslessOrigin && chance.codecHint == nil && chance.frameGridExcess == 0.005, "\(chance)")
    }

    @Test("a shelf at 19.47 kHz (44.1 kHz) reads as mp3 256k, aac 192k or vorbis q4; a Vorbis window's grid keeps vorbis q4, a KBD one's aac 192k")
    func frameGridNarrowsTheShelfsHint() {
        let level = { (f: Double) in f < 19_470 ? -60.0 : -190 }
        let bandWidth = 22_050.0 / 256
        func judged(window: FrameGridStatistics.Window?) -> Authenticity {
            var grid = FrameGridStatistics()
            grid.examined = [10_000, 10_000]
            if let window { grid.excess[FrameGridStatistics.Window.allCases.firstIndex(of: window)!] = 500 }
            let binWidth = 44_100.0 / Double(Self.fftSize)
            let meanSquare = (0...Self.fftSize / 2).map { bin in pow(10, level(Double(bin) * binWidth) / 10) / 4 }
            let format = AudioFormat(container: .wav, sampleFormat: .pcm(bits: 24, signed: true), sampleRate: 44_100, channels: 2, frames: nil)
            return Authenticity(
                meanSquare: meanSquare, binWidth: binWidth, noiseBandwidth: 2.9e-4,
                edges: Self.edges(tops: [Int](repeating: Int(19_400 / bandWidth), count: 100)), frameGrid: grid, format: format, bitsInUse: 24,
                monoAsStereo: false)
        }
        let shelf = judged(window: nil)
        #expect(shelf.verdict == .lossyOrigin && shelf.codecHint == "mp3 256k or aac 192k or vorbis q4", "\(shelf)")
        #expect(judged(window: .vorbis).codecHint == "vorbis q4")
        #expect(judged(window: .kaiserBesselDerived).codecHint == "aac 192k")
    }
}
