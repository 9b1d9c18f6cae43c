/// Step 5 of `AnalysisWorker` for the stereo pair: both channels' segments and their cross-spectrum
/// (`StereoImage.Sums`).
extension AnalysisWorker {
    /// Step 5, for the stereo pair: the zero-lag sums over the chunk's own frames, and each segment
    /// of both channels transformed one after the other, so that besides each channel's power (as
    /// `addSegments` adds it) the segment's cross-spectrum conj(X_L)·X_R is summed.
    func measurePair(
        _ pair: (left: Int, right: Int), _ frames: ChunkFrames, starts: [Int64], sums: inout StereoImage.Sums, power: inout [Double],
        strongestBins: inout [(bin: Int, power: Double)], edges: inout SpectralEdgeStatistics?
    ) {
        sums.add(samples(pair.left, frames.present, frames), samples(pair.right, frames.present, frames))
        let bins = transform.binCount
        let leftRow = UnsafeBufferPointer(row(pair.left)), rightRow = UnsafeBufferPointer(row(pair.right))
        guard let rightTransform else { preconditionFailure("a worker for a pair has its right channel's transform") }
        // The cross sums' arrays are the worker's properties: taken once for the chunk, since each
        // access to a class's stored array is checked for exclusivity at run time
        // (docs/DECISIONS.md#stereo-sums).
        crossReal.withUnsafeMutableBufferPointer { real in
            crossImaginary.withUnsafeMutableBufferPointer { imaginary in
                real.update(repeating: 0)
                imaginary.update(repeating: 0)
                power.withUnsafeMutableBufferPointer { power in
                    let leftPower = UnsafeMutableBufferPointer(rebasing: power[pair.left * bins..<(pair.left + 1) * bins])
                    let rightPower = UnsafeMutableBufferPointer(rebasing: power[pair.right * bins..<(pair.right + 1) * bins])
                    for (segment, start) in starts.enumerated() {
                        let leftAccumulation = SegmentTransform.Accumulation(sums: leftPower, band: analyzer.distortionBins)
                        let left = transform.transform(leftRow, firstFrame: frames.offset(start), channels: 1, channel: 0, accumulating: leftAccumulation)
                        if let left { strongestBins[segment * channels + pair.left] = left }
                        probeEdges(of: transform, into: &edges)
                        let rightAccumulation = SegmentTransform.Accumulation(sums: rightPower, band: analyzer.distortionBins)
                        let right = rightTransform.transform(
                            rightRow, firstFrame: frames.offset(start), channels: 1, channel: 0, accumulating: rightAccumulation)
                        if let right { strongestBins[segment * channels + pair.right] = right }
                        probeEdges(of: rightTransform, into: &edges)
                        transform.withSpectrum { left in
                            rightTransform.withSpectrum { StereoImage.Sums.accumulateCross(left, $0, real: real, imaginary: imaginary) }
                        }
                    }
                }
                sums.addCross(real: UnsafeBufferPointer(real), imaginary: UnsafeBufferPointer(imaginary))
            }
        }
    }
}
