import Synchronization

/// SIGINT, SIGTERM and SIGHUP as a request to stop: the handler only records the signal (without
/// SA_RESTART, so a blocking read returns), and the running loop finishes its work properly —
/// closing the file, restoring the terminal. SIGXFSZ is ignored so that a file size limit shows up
/// as a failed write (EFBIG) rather than killing the process; SIGPIPE likewise (a closed pipe is a
/// failed write).
public enum StopSignals {
    private static let lastSignal = Atomic<Int32>(0)

    public static func install() {
        _ = lastSignal.load(ordering: .relaxed)  // initialised before any handler can run
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in StopSignals.lastSignal.store(number, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
        Glibc.signal(SIGXFSZ, SIG_IGN)
        Glibc.signal(SIGPIPE, SIG_IGN)
    }

    /// The signal that asked to stop, if one did.
    public static var received: Int32? {
        let value = lastSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    public static var stopRequested: Bool { received != nil }
}
