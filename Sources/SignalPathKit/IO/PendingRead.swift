import Dispatch

/// One read in flight, whose result any number of threads may wait for.
///
/// `complete` is called exactly once; the dispatch group orders that write before every `wait`
/// returns, which is why the unchecked `Sendable` is sound.
final class PendingRead: @unchecked Sendable {
    private let finished = DispatchGroup()
    private var outcome: Result<FileBytes, SignalPathError>?

    init() {
        finished.enter()
    }

    /// Stores the outcome and wakes every waiter. Must be called exactly once.
    func complete(_ result: Result<FileBytes, SignalPathError>) {
        outcome = result
        finished.leave()
    }

    /// Suspends until the read has finished, without blocking a thread.
    func outcome() async -> Result<FileBytes, SignalPathError> {
        await withCheckedContinuation { continuation in
            finished.notify(queue: .global()) { continuation.resume(returning: self.outcome!) }
        }
    }

    /// Blocks the calling thread until the read has finished. Never call from the reader's own queue.
    func wait() -> Result<FileBytes, SignalPathError> {
        finished.wait()
        return outcome!
    }

}
