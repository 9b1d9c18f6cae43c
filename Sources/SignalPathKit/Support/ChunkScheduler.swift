/// A worker that brings a chunk's bytes in (suspending, not blocking) and then processes it.
protocol ChunkWorking: AnyObject, Sendable {
    associatedtype Output: Sendable
    func load(chunk: Int) async throws(SignalPathError)
    func process(chunk: Int) throws(SignalPathError) -> Output
}

/// Runs chunks `0..<count` on `pool` in a task group: each worker takes the next chunk as it
/// finishes one, and results reach `receive`, in the calling task, in the order they finish
/// (callers that need chunk order merge by index). A worker is handed to one child task at a time.
func runChunks<Worker: ChunkWorking>(
    _ count: Int, on pool: [Worker], path: String,
    receive: (Worker.Output) -> Void
) async throws(SignalPathError) {
    do {
        try await withThrowingTaskGroup(of: (Worker, Worker.Output).self) { group in
            var nextChunk = 0
            func start(_ worker: Worker) {
                let chunk = nextChunk
                nextChunk += 1
                group.addTask {
                    try await worker.load(chunk: chunk)
                    return (worker, try worker.process(chunk: chunk))
                }
            }
            for worker in pool where nextChunk < count { start(worker) }
            while let (worker, result) = try await group.next() {
                receive(result)
                if nextChunk < count { start(worker) }
            }
        }
    } catch let error as SignalPathError {
        throw error
    } catch {
        throw .invalidRequest(path: path, reason: "analysis was cancelled")
    }
}
