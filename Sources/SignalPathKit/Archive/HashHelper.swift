import DescriptorMessage

/// A `signalpath-sha256` process, which hashes the files it is lent descriptors of (the protocol
/// is in its main.swift).
///
/// swift-crypto is linked into that helper rather than into signalpath: in signalpath its 409
/// conformance records and relocated data cost every command's start, for one option of `scan`
/// (docs/DECISIONS.md#sha256-helper). A Swift library cannot be opened on first
/// use as the C libraries are, since the runtime is linked in statically; so the helper is a
/// process, started on first use and kept for the next file. It is found next to the executable
/// (the build tree) or in `../libexec/signalpath/` from it (`make install`).
final class HashHelper: @unchecked Sendable {
    // @unchecked: a helper serves one hash at a time (taken from the pool, given back after).

    /// The file name of the helper executable.
    static let executableName = "signalpath-sha256"

    private let socket: Int32
    private let process: pid_t

    private init(socket: Int32, process: pid_t) {
        self.socket = socket
        self.process = process
    }

    deinit {
        close(socket)
        // End of input ends the helper: reaped here, so that none outlives its use as a zombie.
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 && errno == EINTR {}
    }

    /// Idle helpers: as many as hashes ran at once so far.
    private static let idle = Protected<[HashHelper]>([])

    /// The SHA-256 of the first `count` bytes of the file open on `descriptor` (fewer if it is
    /// shorter by then), in lowercase hexadecimal, by an idle helper or a new one. `path` names
    /// the file in errors.
    static func sha256(descriptor: Int32, count: Int64, path: String) throws(SignalPathError) -> String {
        let answer: String
        if let reused = idle.withLock({ $0.popLast() }), let reply = try? reused.ask(descriptor: descriptor, count: count, path: path) {
            answer = reply
            idle.withLock { $0.append(reused) }
        } else {
            // No idle helper, or one that has died since its last answer (killed, say): a new one.
            // Only a helper that answered goes back.
            let helper = try start(for: path)
            answer = try helper.ask(descriptor: descriptor, count: count, path: path)
            idle.withLock { $0.append(helper) }
        }
        if answer.hasPrefix("error "), let code = Int32(answer.dropFirst(6)) {
            throw SignalPathError.fromErrno(code, path: path)
        }
        guard answer.utf8.count == 64, answer.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw failure(path)
        }
        return answer
    }

    /// The process ids of the idle helpers (for tests).
    static var idleProcesses: [pid_t] { idle.withLock { $0.map(\.process) } }

    /// Sends one request and reads the answer's line. The helper writes the line with one call, so
    /// it comes in one piece or few: read 1 byte at a time it took 65 calls per file (`strace -c`,
    /// a first scan of 10 000 entries with --content-hash: 650 000 of 670 002 calls).
    private func ask(descriptor: Int32, count: Int64, path: String) throws(SignalPathError) -> String {
        guard DescriptorMessage.send(count: UInt64(count), descriptor: descriptor, on: socket) else { throw Self.failure(path) }
        var line = [UInt8](repeating: 0, count: 80)
        var received = 0
        while received < line.count {
            let got = line.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + received, $0.count - received, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Self.failure(path) }
            received += got
            if let end = line[..<received].firstIndex(of: UInt8(ascii: "\n")) {
                // One request is in flight at a time, so nothing follows the line.
                guard end == received - 1 else { throw Self.failure(path) }
                return String(decoding: line[..<end], as: UTF8.self)
            }
        }
        throw Self.failure(path)
    }

    private static func failure(_ path: String) -> SignalPathError {
        .unavailable(path: path, reason: "the SHA-256 helper (\(executableName)) stopped without an answer")
    }

    /// Starts a helper on one end of a socket pair (its standard input and output).
    private static func start(for path: String) throws(SignalPathError) -> HashHelper {
        guard let executable = location() else { throw SignalPathError.unavailable(path: path, reason: "cannot hash: \(executableName) \(missingReason)") }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw SignalPathError.fromErrno(errno, path: path)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The socket as standard input and output; nothing else of ours beyond standard error
        // (descriptors opened without close-on-exec, by SQLite say, would stay open in the helper).
        posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        // glibc 2.34's closefrom action, looked up: <spawn.h> declares it only under _GNU_SOURCE,
        // which Swift's Glibc module is not built with.
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }
        var process: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(executable), nil]
        defer { for argument in arguments { free(argument) } }
        let code = posix_spawn(&process, executable, &actions, nil, arguments, environ)
        close(ends[1])
        guard code == 0 else {
            close(ends[0])
            throw SignalPathError.unavailable(path: path, reason: "cannot start \(executableName): \(String(cString: strerror(code)))")
        }
        return HashHelper(socket: ends[0], process: process)
    }

    static let missingReason = "not found next to signalpath or in ../libexec/signalpath (make install puts it there)"

    /// The helper next to the running executable, or in `../libexec/signalpath/` from it.
    static func location() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard length > 0 else { return nil }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        let directory = executable[..<slash]
        return ["\(directory)/\(executableName)", "\(directory)/../libexec/signalpath/\(executableName)"]
            .first { access($0, X_OK) == 0 }
    }
}
