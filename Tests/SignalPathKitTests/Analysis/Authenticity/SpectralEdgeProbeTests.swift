import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Spectral edge probe")
struct SpectralEdgeProbeTests {
    /// 8192-point FFT: 4097 bins, 256 bands of 16 bins; Σw = 2 makes a full-scale sine's peak bin 1.
    static let fftSize = 8192
    static func probe(sampleRate: Int = 48000) -> SpectralEdgeProbe { SpectralEdgeProbe(fftSize: fftSize, windowSum: 2, sampleRate: sampleRate) }

    /// Bins holding each band's power spread evenly over its 16 bins (the Nyquist bin empty).
    static func bins(bandPowers: [Double]) -> [Float] {
        var power = [Float](repeating: 0, count: fftSize / 2 + 1)
        for (band, value) in bandPowers.enumerated() {
            for bin in band * 16..<(band + 1) * 16 { power[bin] = Float(value / 16) }
        }
        return power
    }

    /// The rules of `SpectralEdgeStatistics` as its documentation states them, in decibels, band
    /// by band: the highest edge, the holes below it, and where the floor (-135 dB) ends.
    static func naive(_ bandPowers: [Double], sampleRate: Int) -> (edge: Int?, top: Int?, examined: Int, holes: Int, active: Bool, floorTop: Int?) {
        let decibels = bandPowers.map { 10 * log10(max($0, 1e-300)) }
        let bands = decibels.count
        let floorTop = decibels.lastIndex { $0 >= -135 }
        let active = decibels.contains { $0 >= -95 }
        guard active else { return (nil, nil, 0, 0, false, floorTop) }
        let top = decibels.lastIndex { $0 >= -95 }
        var edge: Int? = nil
        for e in stride(from: bands - 5, through: 4, by: -1) {
            let below = (e - 4..<e).map { decibels[$0] }
            let above = (e + 2...e + 4).map { decibels[$0] }
            if below.allSatisfy({ $0 >= -95 }) && below.min()! - above.max()! >= 25 {
                edge = e
                break
            }
        }
        let groups = (edge ?? bands) / 4
        let groupDecibels = (0..<groups).map { group in 10 * log10(max((0..<4).reduce(0.0) { $0 + bandPowers[group * 4 + $1] }, 1e-300)) }
        let groupWidth = 4 * Double(sampleRate) / 2 / Double(bands)
        var examined = 0, holes = 0
        // Groups from the first that starts at or above 4 kHz, to the one before the last.
        for group in 1..<max(1, groups - 1) where Double(group) * groupWidth >= 4000 {
            let left = (max(0, group - 4)..<group).map { groupDecibels[$0] }.max()!
            let right = (group + 1...min(groups - 1, group + 4)).map { groupDecibels[$0] }.max()!
            let around = min(left, right)
            guard around >= -95 + 10 * log10(4.0) else { continue }
            examined += 1
            if around - groupDecibels[group] >= 35 { holes += 1 }
        }
        return (edge, top, examined, holes, true, floorTop)
    }

    @Test("edges, holes and the floor's top agree with a band-by-band model in decibels: seeded random spectra")
    func agreesWithNaiveModel() {
        var random = SeededGenerator(seed: 19)
        // Powers 10 dB apart never sit exactly on a threshold (25, 35 dB; -95 dB, 6 dB over it;
        // the floor's -135 dB).
        let levels = [0.0, 1e-15, 1e-14, 1e-13, 1e-11, 1e-9, 1e-8, 1e-6, 1e-4, 1e-2, 1]
        var withEdges = 0, withHoles = 0, floorBelowTop = 0
        for trial in 0..<600 {
            let probe = Self.probe(sampleRate: [44100, 48000, 96000][trial % 3])
            var statistics = SpectralEdgeStatistics(bandCount: probe.bandCount)
            // Runs of equal bands, as spectra have, so edges and holes occur often.
            var bands: [Double] = []
            while bands.count < 256 {
                let value = levels.randomElement(using: &random)!
                bands += [Double](repeating: value, count: Int.random(in: 1...24, using: &random))
            }
            bands = Array(bands.prefix(256))
            let power = Self.bins(bandPowers: bands)
            power.withUnsafeBufferPointer { probe.add($0, to: &statistics) }
            let expected = Self.naive(bands, sampleRate: [44100, 48000, 96000][trial % 3])
            #expect(statistics.activeSegments == (expected.active ? 1 : 0), "trial \(trial)")
            #expect(statistics.edgeCounts.firstIndex(of: 1) == expected.edge, "trial \(trial): \(bands)")
            #expect(statistics.topCounts.firstIndex(of: 1) == expected.top, "trial \(trial)")
            #expect(statistics.examinedGroups == expected.examined && statistics.holeGroups == expected.holes, "trial \(trial): \(bands)")
            #expect(statistics.floorTopCounts.firstIndex(of: 1) == expected.floorTop, "trial \(trial)")
            #expect(statistics.floorSegments == (expected.floorTop == nil ? 0 : 1), "trial \(trial)")
            floorBelowTop += (expected.floorTop ?? 255) < 255 ? 1 : 0
            withEdges += expected.edge == nil ? 0 : 1
            withHoles += expected.holes > 0 ? 1 : 0
        }
        // The spectra exercise both rules, not only their absence.
        #expect(withEdges > 100 && withHoles > 100, "\(withEdges) with edges, \(withHoles) with holes")
        #expect(floorBelowTop > 100, "\(floorBelowTop) floors ending below the last band")
    }

    @Test("a lone partial with nothing around it is no edge; a full band ending in a step is")
    func lonePartialIsNoEdge() {
        let probe = Self.probe()
        var statistics = SpectralEdgeStatistics(bandCount: probe.bandCount)
        var partial = [Double](repeating: 1e-14, count: 256)
        partial[200] = 0.1
        Self.bins(bandPowers: partial).withUnsafeBufferPointer { probe.add($0, to: &statistics) }
        #expect(statistics.activeSegments == 1 && statistics.segmentsWithEdges == 0)
        let step = (0..<256).map { $0 <= 179 ? 1e-4 : 1e-14 }
        Self.bins(bandPowers: step).withUnsafeBufferPointer { probe.add($0, to: &statistics) }
        // Bands 176...179 full, 182...184 empty: the highest edge is band 180.
        #expect(statistics.edgeCounts[180] == 1 && statistics.segmentsWithEdges == 1)
    }

    @Test("merging sums every count, in any grouping")
    func mergeSums() {
        var random = SeededGenerator(seed: 7)
        let probe = Self.probe()
        var parts: [SpectralEdgeStatistics] = []
        for _ in 0..<12 {
            var statistics = SpectralEdgeStatistics(bandCount: probe.bandCount)
            for _ in 0..<5 {
                let cut = Int.random(in: 40...250, using: &random)
                let bands = (0..<256).map { $0 < cut ? Double.random(in: 1e-6...1e-2, using: &random) : 1e-15 }
                Self.bins(bandPowers: bands).withUnsafeBufferPointer { probe.add($0, to: &statistics) }
            }
            parts.append(statistics)
        }
        var forward = SpectralEdgeStatistics(bandCount: probe.bandCount)
        for part in parts { forward.merge(part) }
        var halves = [parts[6...], parts[..<6]].map { half in
            half.reduce(into: SpectralEdgeStatistics(bandCount: probe.bandCount)) { $0.merge($1) }
        }
        halves[0].merge(halves[1])
        #expect(forward == halves[0])
        #expect(forward.activeSegments == 60 && forward.segmentsWithEdges == 60 && forward.floorSegments == 60)
    }
}
