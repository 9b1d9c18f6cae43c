import Dispatch
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, handled in one place.
///
/// By default they end the process as they would without a handler, after removing the temporary
/// files of `TemporaryFiles` (an `--output` being written): the handler unlinks them and raises the
/// signal again with its default action, so the exit status still says "killed by SIGINT". Making
/// a temporary file installs the handler.
///
/// A loop that must finish its work properly (scan, replay, record) asks instead, with `install`,
/// for a request to stop: the handler only records the signal (without SA_RESTART, so a blocking
/// read returns), and the loop closes its file or restores the terminal. With
/// `secondSignalEnds`, a second signal ends the process at once, as by default (scan).
///
/// A signal that was ignored when the handler came (nohup, a background job of a script) stays
/// ignored. SIGXFSZ is ignored so that a file size limit shows up as a failed write (EFBIG)
/// rather than killing the process; SIGPIPE likewise (a closed pipe is a failed write).
public enum StopSignals {
    private static let lastSignal = Atomic<Int32>(0)
    /// What the handler does: `ends`, `requestsStop` or `requestsStopThenEnds`.
    private static let response = Atomic<Int32>(ends)
    private static let ends: Int32 = 0, requestsStop: Int32 = 1, requestsStopThenEnds: Int32 = 2
    private static let installed = Atomic<Bool>(false)
    /// The handler writes a byte here for each signal that asks to stop, so `onRequest` can hear
    /// it on a dispatch queue (a pipe: `write` is async-signal-safe).
    private static let notifications: (read: Int32, write: Int32) = {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return (-1, -1) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }
        return (descriptors[0], descriptors[1])
    }()

    /// Signals become requests to stop (`stopRequested`); with `secondSignalEnds`, a second
    /// signal ends the process at once.
    public static func install(secondSignalEnds: Bool = false) {
        response.store(secondSignalEnds ? requestsStopThenEnds : requestsStop, ordering: .relaxed)
        installHandler()
        Glibc.signal(SIGXFSZ, SIG_IGN)
        Glibc.signal(SIGPIPE, SIG_IGN)
    }

    /// Installs the handler, once; what it does is `response`'s.
    static func installHandler() {
        guard installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        // Everything the handler touches is initialised before it can run.
        _ = lastSignal.load(ordering: .relaxed)
        _ = notifications
        TemporaryFiles.prepare()
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var previous = sigaction()
            sigaction(signal, nil, &previous)
            if let handler = previous.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in StopSignals.handle(number) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }

    /// Runs in the signal handler: only atomics, `write`, `unlink`, `signal` and `raise`.
    private static func handle(_ number: Int32) {
        let earlier = lastSignal.exchange(number, ordering: .relaxed)
        let response = response.load(ordering: .relaxed)
        if response == requestsStop || (response == requestsStopThenEnds && earlier == 0) {
            // The interrupted code may be about to read errno.
            let interrupted = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(notifications.write, &byte, 1)
            errno = interrupted
            return
        }
        TemporaryFiles.removeAll()
        Glibc.signal(number, SIG_DFL)
        // Delivered when the handler returns (the signal is blocked while it runs): the default action.
        raise(number)
    }

    /// The signal that asked to stop, if one did.
    public static var received: Int32? {
        let value = lastSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    public static var stopRequested: Bool { received != nil }

    /// Calls `body` with the signal, on a dispatch queue, when a stop is first requested (at
    /// once when one already was), until the returned watch is cancelled: a loop whose threads
    /// are all busy can still say what it is doing.
    public static func onRequest(_ body: @escaping @Sendable (Int32) -> Void) -> Watch {
        let source = DispatchSource.makeReadSource(fileDescriptor: notifications.read, queue: .global())
        let called = Protected(false)
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 16)
            while read(notifications.read, &bytes, bytes.count) > 0 {}
            let first = called.withLock { called in
                defer { called = true }
                return !called
            }
            if first, let signal = received { body(signal) }
        }
        source.activate()
        return Watch(source: source)
    }

    /// A registration of `onRequest`.
    public final class Watch: @unchecked Sendable {
        // @unchecked: a dispatch source may be cancelled from any thread.
        private let source: any DispatchSourceRead

        fileprivate init(source: any DispatchSourceRead) {
            self.source = source
        }

        /// After this, `body` is not called (again).
        public func cancel() {
            source.cancel()
        }
    }
}
