import SignalPathKit

/// Where a command's output goes: standard output as it comes, or an `--output` file written
/// whole or not at all (`AtomicFile`).
///
/// A failed write to the file is kept and reported by `finish()`, and later writes are dropped:
/// the commands go on without checking each write, and the file is never put in place.
final class OutputSink {
    private let file: AtomicFile?
    /// Standard output is the terminal a progress line may be on: it is erased before a result.
    private let sharesTerminal: Bool
    private var wroteAnything = false
    private var failure: SignalPathError?

    /// Standard output when `path` is nil.
    init(path: String?, overwrite: Bool) throws(SignalPathError) {
        file = try path.map { path throws(SignalPathError) in try AtomicFile(path: path, overwrite: overwrite) }
        sharesTerminal = path == nil && StandardOutput.isTerminal
    }

    func write(_ text: String) {
        wroteAnything = wroteAnything || !text.isEmpty
        guard let file else {
            if sharesTerminal { StandardError.eraseProgress() }
            return print(text, terminator: "")
        }
        guard failure == nil else { return }
        do throws(SignalPathError) {
            try file.write(text)
        } catch {
            failure = error
        }
    }

    /// Writes `bytes` as they are (a PNG or PDF).
    func write(bytes: [UInt8]) {
        wroteAnything = wroteAnything || !bytes.isEmpty
        guard let file else {
            if sharesTerminal { StandardError.eraseProgress() }
            StandardOutput.write(bytes: bytes)
            return
        }
        guard failure == nil else { return }
        do throws(SignalPathError) {
            try file.write(bytes: bytes)
        } catch {
            failure = error
        }
    }

    /// Writes `text` and a line end.
    func writeLine(_ text: String) {
        write(text + "\n")
    }

    /// Gives up after a failure part-way: an --output file is discarded, never put in place half
    /// written (standard output cannot be taken back; the exit code says it is incomplete).
    func abandon() {
        file?.discard()
    }

    /// Puts the file in place, or throws the write that failed. When nothing was written (every
    /// input failed before any output), no file is made: an empty file would pass for a result.
    func finish() throws(SignalPathError) {
        guard let file else { return }
        if let failure {
            file.discard()
            throw failure
        }
        if wroteAnything { try file.commit() } else { file.discard() }
    }
}
