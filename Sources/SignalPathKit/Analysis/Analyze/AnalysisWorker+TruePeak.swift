/// Step 4 of `AnalysisWorker`: each channel's true peak (`TruePeakMeter`).
extension AnalysisWorker {
    /// Step 4: the channel's true peak over the times of its own frames (outputs `delay` frames
    /// later), and where it lies (relative frame, nil when the sample peak is the true peak).
    /// Where the range meets the input's start or end, the interpolator also rings into the
    /// silence around the input, as it would for a meter fed the file; inside a file, it reads
    /// the frames around the range and reports only the range's times.
    func measureTruePeak(_ channel: Int, _ frames: ChunkFrames, above samplePeak: Float) -> (peak: Float, frame: Double?) {
        let delay = Int64(meter.delay)
        let lower = frames.startsInput ? -Int64(meter.lookAhead) : frames.own.lowerBound + delay
        var upper = frames.own.upperBound + delay
        if frames.isLast, let end = frames.endOfInput { upper = frames.endsInput ? end + Int64(meter.lookBehind) : end + delay }
        let found = meter.locatePeak(UnsafeBufferPointer(row(channel)), range: frames.offset(lower)..<frames.offset(upper), above: samplePeak)
        return (found.peak, found.position.map { Double(frames.loaded.lowerBound) + $0 - Double(frames.padding) })
    }
}
