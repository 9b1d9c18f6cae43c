/// A plain mutual-exclusion lock (pthread) guarding a C library's global state (libsndfile's error
/// slot, FFTW's planner); `Protected` uses it to guard Swift values.
///
/// Unlike `Mutex.withLock`, `withLock` places no `sending` requirement on the result, so it can
/// hand back C handles made under the lock.
final class Lock: @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronization; it is allocated once and never moves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value guarded by a pthread mutex: shared mutable state (the cache's chunks, reads in flight,
/// per-process tables).
///
/// Preferred over the standard library's `Mutex` because on Linux that one is built on futexes
/// inside the uninstrumented runtime, so ThreadSanitizer cannot see it order anything and reports
/// races between accesses it protects; a pthread mutex it intercepts, so `make sanitize` checks
/// the code for real. `Value` is Sendable: the value is shared by every thread that takes the lock.
final class Protected<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `value` happens inside `lock`.
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
