import Dispatch

/// The one writer of a scan's database: rows handed in from any task are written on one serial
/// queue, and whatever arrived while the previous transaction was committing goes into the next
/// (group commit). So a row waits for at most one commit in progress — a kill loses only the files
/// being analysed and the rows of that one commit — and under load many rows share a commit.
final class ScanWriter: @unchecked Sendable {
    // @unchecked: `store` is used only on `queue`; the shared state is in `pending`, under its lock.
    enum Operation: Sendable {
        case store(ScanRecord)
        /// A file recognised by its content under a new path: its row moves there.
        case move(ScanRecord, from: String)
    }

    private struct Pending: Sendable {
        var operations: [Operation] = []
        var flushScheduled = false
        var failure: SignalPathError?
        var commits = 0
        var rows = 0
    }

    private let store: ScanStore
    private let queue = DispatchQueue(label: "signalpath.ScanWriter")
    private let pending = Protected(Pending())

    init(store: ScanStore) {
        self.store = store
    }

    /// Operations waiting beyond this make `submit` wait for the commits queued so far: a scan
    /// that recognised files by content faster than SQLite committed their rows held them all in
    /// memory (a first scan of a 100 000-entry list: BENCHMARKS.md's peak RSS row).
    static let backlogLimit = 256

    /// Queues `operation`; it is committed with whatever else is waiting. Waits while more than
    /// `backlogLimit` operations wait.
    func submit(_ operation: Operation) {
        let (schedule, backlog) = pending.withLock { pending in
            pending.operations.append(operation)
            defer { pending.flushScheduled = true }
            return (!pending.flushScheduled, pending.operations.count)
        }
        if schedule { queue.async { self.flush() } }
        if backlog > Self.backlogLimit { queue.sync {} }
    }

    /// The first write that failed, if one did (the scan then stops starting files).
    var failure: SignalPathError? { pending.withLock { $0.failure } }

    /// Waits for every queued row to be committed; returns the commits and rows written.
    func finish() throws(SignalPathError) -> (commits: Int, rows: Int) {
        queue.sync {}
        let state = pending.withLock { $0 }
        if let failure = state.failure { throw failure }
        return (state.commits, state.rows)
    }

    private func flush() {
        let batch = pending.withLock { pending in
            defer {
                pending.operations = []
                pending.flushScheduled = false
            }
            return pending.failure == nil ? pending.operations : []
        }
        guard !batch.isEmpty else { return }
        do throws(SignalPathError) {
            try store.database.transaction { () throws(SignalPathError) in
                for operation in batch {
                    switch operation {
                    case .store(let record):
                        try store.store(record)
                    case .move(let record, let old):
                        try store.remove(old)
                        try store.store(record)
                    }
                }
            }
            pending.withLock {
                $0.commits += 1
                $0.rows += batch.count
            }
        } catch {
            pending.withLock { if $0.failure == nil { $0.failure = error } }
        }
    }
}
