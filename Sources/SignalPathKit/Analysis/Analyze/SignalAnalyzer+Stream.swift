extension SignalAnalyzer {
    /// A stream has one reader: it loads chunk after chunk, each with the same frames a worker
    /// reading a file would load, into each idle worker's rows, and the workers measure them in
    /// parallel. Same chunks, same merge, so the result is the one a single worker gets (one worker
    /// reading and measuring in turn was more than twice as slow:
    /// docs/DECISIONS.md#stream-into-rows). Memory: the reader's window and each worker's rows, as
    /// for a file; no copy of each chunk for the workers.
    func runStream(
        workers: Int, combiner: AnalysisCombiner, subBlocks: (_ energy: Double, _ frames: Int) -> Void
    ) async throws(SignalPathError) {
        let window = try AnalysisWorker.makeWindow(self)
        // 16-bit PCM goes from the stream's buffer into the workers' rows (`loadStreamed`).
        let streamsInt16 = window.reader.streamsHostInt16
        if streamsInt16 { window.reader.keepBehind(frames: AnalysisWorker.streamOverlap(self)) }
        var idle: [AnalysisWorker] = []
        for _ in 0..<max(1, workers) { idle.append(try AnalysisWorker(analyzer: self, reading: false)) }
        var nextChunk = 0
        var ended = false
        do {
            try await withThrowingTaskGroup(of: (AnalysisWorker, AnalysisChunk).self) { group in
                while true {
                    while !ended, let worker = idle.popLast() {
                        let chunk = nextChunk
                        nextChunk += 1
                        let frames =
                            streamsInt16
                            ? try worker.loadStreamed(chunk, from: window.reader)
                            : worker.prepare(chunk, try AnalysisWorker.load(chunk, into: window, analyzer: self), from: window)
                        // The chunk that saw the stream end within its own frames is the last.
                        if let end = frames.endOfInput, end <= Int64(chunk + 1) * Int64(chunkFrames) { ended = true }
                        group.addTask { (worker, worker.measure(chunk, frames)) }
                    }
                    guard let (worker, result) = try await group.next() else { break }
                    combiner.add(result, subBlocks: subBlocks)
                    idle.append(worker)
                }
            }
        } catch let error as SignalPathError {
            throw error
        } catch {
            throw .invalidRequest(path: file.path, reason: "analysis was cancelled")
        }
    }
}
