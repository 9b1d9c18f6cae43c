#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain mutual-exclusion lock guarding a C library's global state (libsndfile's error slot,
/// FFTW's planner) rather than a Swift value, which `Mutex` is for.
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
