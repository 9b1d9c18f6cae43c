import Foundation

/// A fresh temporary directory per test, removed when the value is released.
public final class ScratchDirectory: Sendable {
    public let path: String

    public init(_ name: String = "test") {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/signalpath-\(name)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `bytes` to `name` inside the directory and returns the full path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) -> String {
        let file = "\(path)/\(name)"
        precondition(FileManager.default.createFile(atPath: file, contents: Data(bytes)), "cannot write \(file)")
        return file
    }

    public func file(_ name: String) -> String { "\(path)/\(name)" }
}

/// The result of running a program to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutData: Data
    /// True when the process died of a signal (a crash, or killed).
    public var crashed = false
}

/// Time limits are multiplied by TEST_TIMEOUT_SCALE from the environment (`make sanitize` sets it:
/// sanitizers slow every process down several times).
public let timeoutScale: Double = {
    guard let text = getenv("TEST_TIMEOUT_SCALE").map({ String(cString: $0) }), let value = Double(text), value >= 1 else { return 1 }
    return value
}()

/// Runs `executable` with `arguments`, feeding `input` to its standard input; waits at most
/// `timeout` seconds (× `timeoutScale`), then kills it (a hang is a failure, not a stuck test run).
public func run(
    _ executable: String, _ arguments: [String], input: Data? = nil,
    environment: [String: String]? = nil, timeout: Double = 60
) throws -> ProcessResult {
    // A child that exits before reading all its input must not kill the test run with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    let timeout = timeout * timeoutScale
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let outPipe = Pipe(), errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    let inPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
    try process.run()
    if let input {
        DispatchQueue.global().async {
            try? inPipe.fileHandleForWriting.write(contentsOf: input)
            try? inPipe.fileHandleForWriting.close()
        }
    }
    let group = DispatchGroup()
    nonisolated(unsafe) var out = Data(), err = Data()
    group.enter()
    DispatchQueue.global().async {
        out = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
        err = errPipe.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(2000) }
    if process.isRunning {
        process.terminate()
        usleep(100_000)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        _ = group.wait(timeout: .now() + 5)
        return ProcessResult(
            status: -1, stdout: String(decoding: out, as: UTF8.self),
            stderr: "timed out after \(timeout) s", stdoutData: out)
    }
    process.waitUntilExit()
    group.wait()
    var result = ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: err, as: UTF8.self), stdoutData: out)
    result.crashed = process.terminationReason == .uncaughtSignal
    return result
}

/// The full path of a program on PATH, or nil.
public func which(_ name: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// The repository's root folder (for Samples/), found from this source file's location.
public let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()
