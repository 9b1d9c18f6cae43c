/// Step 5 of `AnalysisWorker`: the spectrum's segments of each channel outside the stereo pair
/// (`SegmentTransform`).
extension AnalysisWorker {
    /// The starts of the spectrum segments that begin in the chunk's own frames and fit the input.
    func segmentStarts(_ frames: ChunkFrames) -> [Int64] {
        guard analyzer.scope == .everything else { return [] }
        let hop = Int64(analyzer.spectrum.hop), windowSize = Int64(analyzer.spectrum.windowSize)
        return stride(from: (frames.own.lowerBound + hop - 1) / hop * hop, to: frames.own.upperBound, by: Int(hop))
            .filter { $0 + windowSize <= frames.available }
    }

    /// Step 5: the |X|² of the channel's segments that start in the chunk, summed into its bins of
    /// `power` (per channel and bin, bins fastest); each segment's strongest in-band bin and
    /// in-band power into `strongestBins` (per segment and channel, channel fastest); where its
    /// content ends into `edges`.
    func addSegments(
        _ channel: Int, _ frames: ChunkFrames, starts: [Int64], power: inout [Double], strongestBins: inout [(bin: Int, power: Double)],
        edges: inout SpectralEdgeStatistics?
    ) {
        // A loudness pass has no segments, and no bins to sum them into.
        guard !starts.isEmpty else { return }
        let bins = transform.binCount
        let row = UnsafeBufferPointer(row(channel))
        power.withUnsafeMutableBufferPointer { power in
            let channelPower = UnsafeMutableBufferPointer(rebasing: power[channel * bins..<(channel + 1) * bins])
            for (segment, start) in starts.enumerated() {
                let accumulation = SegmentTransform.Accumulation(sums: channelPower, band: analyzer.distortionBins)
                let strongest = transform.transform(row, firstFrame: frames.offset(start), channels: 1, channel: 0, accumulating: accumulation)
                if let strongest { strongestBins[segment * channels + channel] = strongest }
                probeEdges(of: transform, into: &edges)
            }
        }
    }
}
