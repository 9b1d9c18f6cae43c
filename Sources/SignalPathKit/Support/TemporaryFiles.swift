import Synchronization

/// The temporary files that a signal must not leave behind (`AtomicFile`'s): their names in a
/// fixed table of C strings, which `StopSignals`' handler reads without allocating or locking and
/// unlinks (`removeAll`).
///
/// A name enters the table before its file exists — `create` lets `mkstemp` fill in the template
/// in the table itself — and leaves it only after the file was renamed into place or removed, so
/// a signal at any moment in between finds it.
public enum TemporaryFiles {
    /// A file made by `create`.
    public struct File: Sendable {
        public let descriptor: Int32
        public let path: String
        /// Its place in the table; nil when the table was full (the file is then not removed on a signal).
        let slot: Int?
    }

    /// Room for --jobs' 256 files side by side, and more.
    static let capacity = 272
    private static let nameSize = Int(PATH_MAX)

    private static let free: UInt8 = 0, filling: UInt8 = 1, named: UInt8 = 2

    /// Per slot a state (free, being filled — which the handler skips —, or naming a file) and
    /// `nameSize` bytes for the name. Allocated once, never freed; the pages of unused slots are
    /// never touched.
    private struct Table: @unchecked Sendable {
        // @unchecked: a slot's name is written only by the thread that claimed its state, and read
        // (by the handler) only while the state says `named`, with acquire/release ordering.
        let states: UnsafeMutablePointer<Atomic<UInt8>>
        let names: UnsafeMutablePointer<CChar>

        init() {
            states = .allocate(capacity: TemporaryFiles.capacity)
            for slot in 0..<TemporaryFiles.capacity { (states + slot).initialize(to: Atomic(TemporaryFiles.free)) }
            names = .allocate(capacity: TemporaryFiles.capacity * TemporaryFiles.nameSize)
        }
    }

    private static let table = Table()

    /// Makes the table before a signal handler may read it (a lazy global's first use is not
    /// async-signal-safe).
    static func prepare() {
        _ = table
    }

    /// Makes a file from `template` (its last six characters `XXXXXX`, as `mkstemp` takes; mode
    /// 0600, close-on-exec), its name in the table from before it exists, and installs the
    /// handler that removes such files on SIGINT, SIGTERM and SIGHUP. nil, with `errno` set, when
    /// the file cannot be made.
    public static func create(_ template: String) -> File? {
        StopSignals.installHandler()
        let bytes = Array(template.utf8CString)
        guard bytes.count <= nameSize else {
            errno = ENAMETOOLONG
            return nil
        }
        guard let slot = claim() else {
            var local = bytes
            let descriptor = local.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { return nil }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            return File(descriptor: descriptor, path: String(cString: local), slot: nil)
        }
        let name = table.names + slot * nameSize
        bytes.withUnsafeBufferPointer { name.update(from: $0.baseAddress!, count: $0.count) }
        table.states[slot].store(named, ordering: .releasing)
        let descriptor = mkstemp(name)
        guard descriptor >= 0 else {
            let code = errno
            release(slot)
            errno = code
            return nil
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return File(descriptor: descriptor, path: String(cString: name), slot: slot)
    }

    /// Takes `file`'s name out of the table: call after the file was renamed into place or removed.
    public static func forget(_ file: File) {
        if let slot = file.slot { release(slot) }
    }

    /// Removes every file named in the table. Only `unlink`: a signal handler may call it.
    static func removeAll() {
        for slot in 0..<capacity where table.states[slot].load(ordering: .acquiring) == named {
            unlink(table.names + slot * nameSize)
        }
    }

    private static func claim() -> Int? {
        for slot in 0..<capacity where table.states[slot].compareExchange(expected: free, desired: filling, ordering: .acquiring).exchanged {
            return slot
        }
        return nil
    }

    private static func release(_ slot: Int) {
        table.states[slot].store(free, ordering: .releasing)
    }
}
