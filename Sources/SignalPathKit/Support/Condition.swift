/// A pthread mutex with a condition variable: a producing thread and its consumer waiting on each
/// other (compare's decoder of B). pthread rather than Foundation's `NSCondition`: no source
/// imports Foundation (docs/DECISIONS.md#no-foundation), and ThreadSanitizer sees pthread.
final class Condition: @unchecked Sendable {
    // @unchecked: the pthread mutex and condition are the synchronization; allocated once, never moved.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the lock while waiting for a `broadcast`, and holds it again on return.
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }
}
