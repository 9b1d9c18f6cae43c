/// Runs `body` on a thread of its own and waits for it without holding one of Swift's cooperative
/// threads (one per core): for work that waits on the disk rather than the processor (a file's
/// `fsync`), so that more of it can wait at once than there are cores.
public func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        let context = Unmanaged.passRetained(ThreadWork { continuation.resume(returning: body()) }).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<ThreadWork>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // No thread to be had (EAGAIN): the work runs here instead.
            Unmanaged<ThreadWork>.fromOpaque(context).takeRetainedValue().run()
        }
    }
}

/// The work handed to the thread, kept alive by the retain passed with it.
private final class ThreadWork: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
