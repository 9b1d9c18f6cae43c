/// Reads one segment's power spectrum into `SpectralEdgeStatistics`. Its band buffer is made once;
/// `add` allocates nothing, and its thresholds are power ratios, so no band's logarithm is taken
/// (the probe is 2.3 % of analyze's CPU on the 60-minute file: docs/AUTHENTICITY.md).
public final class SpectralEdgeProbe {
    private var bands: [Float]
    private let binsPerBand: Int
    private let bandWidth: Double
    /// The power of a full-scale sine's peak bin: (Σw / 2)².
    private let fullScale: Float
    private let content: Float, step: Float, hole: Float, floor: Float
    private let firstHoleGroup: Int

    public init(fftSize: Int, windowSum: Double, sampleRate: Int) {
        let count = SpectralEdgeStatistics.bandCount(fftSize: fftSize)
        bands = [Float](repeating: 0, count: count)
        binsPerBand = fftSize / 2 / count
        bandWidth = Double(sampleRate) / 2 / Double(count)
        fullScale = Float(windowSum * windowSum / 4)
        content = fullScale * Float(pow(10, SpectralEdgeStatistics.contentDecibels / 10))
        step = Float(pow(10, SpectralEdgeStatistics.stepDecibels / 10))
        hole = Float(pow(10, SpectralEdgeStatistics.holeDecibels / 10))
        floor = fullScale * Float(pow(10, SpectralEdgeStatistics.floorDecibels / 10))
        firstHoleGroup = Int((SpectralEdgeStatistics.holeFloorHertz / (4 * bandWidth)).rounded(.up))
    }

    public var bandCount: Int { bands.count }

    /// Adds the segment whose |X|² per bin (0...fftSize/2) is `power`.
    public func add(_ power: UnsafeBufferPointer<Float>, to statistics: inout SpectralEdgeStatistics) {
        let count = bands.count, perBand = binsPerBand
        let content = self.content, step = self.step, floor = self.floor
        bands.withUnsafeMutableBufferPointer { bands in
            var top = -1, floorTop = -1
            for band in 0..<count {
                var sum: Float = 0
                let first = band &* perBand
                for bin in first..<first &+ perBand { sum += power[bin] }
                bands[band] = sum
                if sum >= content { top = band }
                if sum >= floor { floorTop = band }
            }
            if floorTop >= 0 { statistics.floorTopCounts[floorTop] += 1 }
            guard top >= 0 else { return }
            statistics.activeSegments += 1
            statistics.topCounts[top] += 1
            // The highest edge: four full bands below e, the three after e + 1 all `step` lower.
            var edge: Int? = nil
            var e = count - 5
            while e >= 4 {
                let below = min(min(bands[e - 1], bands[e - 2]), min(bands[e - 3], bands[e - 4]))
                if below >= content {
                    let above = max(bands[e + 2], max(bands[e + 3], bands[e + 4]))
                    if below >= step * above {
                        edge = e
                        break
                    }
                }
                e -= 1
            }
            if let edge { statistics.edgeCounts[edge] += 1 }
            countHoles(bands, below: edge ?? count, into: &statistics)
        }
    }

    /// Groups of four bands from `firstHoleGroup` up to the one before `edge`'s group.
    private func countHoles(_ bands: UnsafeMutableBufferPointer<Float>, below edge: Int, into statistics: inout SpectralEdgeStatistics) {
        let groups = edge / 4
        guard groups > firstHoleGroup + 1 else { return }
        // Sum each group in place into the first band of the group (bands are not needed again).
        for group in 0..<groups {
            let base = group &* 4
            bands[group] = bands[base] + bands[base + 1] + bands[base + 2] + bands[base + 3]
        }
        let reach = 4
        for group in max(firstHoleGroup, 1)..<groups - 1 {
            var left: Float = 0, right: Float = 0
            for other in max(0, group - reach)..<group { left = max(left, bands[other]) }
            for other in group + 1...min(groups - 1, group + reach) { right = max(right, bands[other]) }
            let around = min(left, right)
            guard around >= 4 * content else { continue }
            statistics.examinedGroups += 1
            if bands[group] * hole <= around { statistics.holeGroups += 1 }
        }
    }
}
