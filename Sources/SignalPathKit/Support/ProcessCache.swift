/// Values made once per process and key and shared by every thread: tables that depend only on
/// their key (a window's coefficients, its response, its autocorrelation), which `scan` would
/// otherwise make again for file after file. The lock is not held while a value is made, so two
/// threads asking for a new key at once may both make it; the first stored is kept and handed to
/// both (the values are equal: pure functions of the key).
final class ProcessCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Protected<[Key: Value]>([:])

    init() {}

    /// The value for `key`, made by `make` the first time.
    func value(for key: Key, make: () -> Value) -> Value {
        if let known = values.withLock({ $0[key] }) { return known }
        let made = make()
        return values.withLock { values in
            if let first = values[key] { return first }
            values[key] = made
            return made
        }
    }
}
