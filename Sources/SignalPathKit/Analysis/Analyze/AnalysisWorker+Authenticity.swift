/// Authenticity's evidence gathered by `AnalysisWorker`: where each segment's content ends
/// (`SpectralEdgeProbe`) and a coder's frame grid (`FrameGridProbe`).
extension AnalysisWorker {
    /// Step 5, once for the chunks `FrameGridProbe.searches` picks: the first channel's excerpt in
    /// the middle of the chunk's own frames (on the range's 1024-frame grid) searched for a coder's
    /// frame grid. Only at rates up to 48 kHz, where the corpus shows what the search finds, not in
    /// a lossy file's own decode, which is `lossy_origin` by its format, and not in a range known to
    /// be shorter than `FrameGridProbe.shortestRange`.
    func searchFrameGrid(_ chunk: Int, _ frames: ChunkFrames) -> FrameGridStatistics? {
        if case .compressed = analyzer.file.format.sampleFormat { return nil }
        guard analyzer.settings.searchesFrameGrid else { return nil }
        let rate = Int64(analyzer.file.format.sampleRate)
        if let length = analyzer.knownLength, length < Int64(FrameGridProbe.shortestRange) * rate { return nil }
        guard edgeProbe != nil, analyzer.file.format.sampleRate <= FrameGridProbe.highestRate, FrameGridProbe.searches(chunk: chunk) else { return nil }
        let hop = Int64(FrameGridProbe.hop), length = Int64(FrameGridProbe.excerptLength)
        let start = (frames.present.lowerBound + frames.present.upperBound - length) / 2 / hop * hop
        guard start >= frames.present.lowerBound, start + length <= frames.present.upperBound else { return nil }
        let probe = gridProbe ?? FrameGridProbe(sampleRate: analyzer.file.format.sampleRate)
        gridProbe = probe
        var statistics = FrameGridStatistics()
        let row = UnsafeBufferPointer(row(0))
        // Picking from both ends matters where one excerpt is all there is; later excerpts add
        // their own chances at half the cost (docs/DECISIONS.md#frame-grid-cost).
        probe.search(UnsafeBufferPointer(rebasing: row[frames.offset(start)..<frames.offset(start) + Int(length)]), bothEnds: chunk == 0, into: &statistics)
        return statistics
    }

    /// Step 5, for every segment: the edge and holes of `transform`'s last power into `edges`.
    func probeEdges(of transform: SegmentTransform, into edges: inout SpectralEdgeStatistics?) {
        guard let edgeProbe, edges != nil else { return }
        transform.power.withUnsafeBufferPointer { edgeProbe.add($0, to: &edges!) }
    }
}
