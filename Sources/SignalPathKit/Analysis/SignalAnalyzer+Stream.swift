/// A chunk's frames as a stream's one reader loaded them, for a worker without a reader.
struct LoadedChunk: Sendable {
    var index: Int
    var load: FrameWindow.ChunkLoad
    /// The interleaved samples of the `load.got` frames loaded.
    var samples: [Float]
}

extension SignalAnalyzer {
    /// A stream has one reader: it loads chunk after chunk, each with the same frames a worker
    /// reading a file would load, and hands them to up to `workers` workers, reading the next
    /// while they measure. Same chunks, same merge, so the result is the one a single worker gets.
    /// (With one worker reading and measuring in turn, `cat F.wav | signalpath analyze -` took
    /// 5.5 s against 2.3 s for the file: BENCHMARKS.md, streams.) Memory: `workers` + 1 chunks.
    func runStream(
        workers: Int, combiner: AnalysisCombiner, subBlocks: (_ energy: Double, _ frames: Int) -> Void
    ) async throws(SignalPathError) {
        let window = try AnalysisWorker.makeWindow(self)
        var idle: [AnalysisWorker] = []
        for _ in 0..<max(1, workers) { idle.append(try AnalysisWorker(analyzer: self, reading: false)) }
        let channels = file.format.channels
        var nextChunk = 0
        var ended = false
        func readNext() throws(SignalPathError) -> LoadedChunk? {
            guard !ended else { return nil }
            let chunk = nextChunk
            nextChunk += 1
            let load = try AnalysisWorker.load(chunk, into: window, analyzer: self)
            // The chunk that saw the stream end within its own frames is the last.
            if let end = load.endOfInput, end <= Int64(chunk + 1) * Int64(chunkFrames) { ended = true }
            return LoadedChunk(index: chunk, load: load, samples: Array(window.samples[0..<load.got * channels]))
        }
        do {
            try await withThrowingTaskGroup(of: (AnalysisWorker, AnalysisChunk).self) { group in
                var ready = try readNext()
                while true {
                    while let loaded = ready, let worker = idle.popLast() {
                        group.addTask { (worker, worker.process(loaded)) }
                        ready = try readNext()
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
