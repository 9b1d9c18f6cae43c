import ArgumentParser
import SignalPathKit

/// The one place where failures become exit codes (sysexits.h values) and messages.
enum ExitStatus {
    /// `check`: every file was read, and one or more did not meet the rules. Not an error: a
    /// failure to read (64–74) wins over it.
    static let checkFailed: Int32 = 1
    /// `compare --max-residual`: every pair was read, and one or more left a residual above the limit.
    static let residualAboveLimit: Int32 = 1
    static let usage: Int32 = 64
    static let badData: Int32 = 65
    static let cannotOpen: Int32 = 66
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74

    static func code(for error: SignalPathError) -> Int32 {
        switch error.category {
        case .usage: return usage
        case .badData: return badData
        case .cannotOpen: return cannotOpen
        case .cannotCreate: return cannotCreate
        case .io: return ioError
        }
    }

    /// The category's name in machine output (`error_category`), beside the exit code.
    static func name(of category: SignalPathError.Category) -> String {
        switch category {
        case .usage: return "usage"
        case .badData: return "bad_data"
        case .cannotOpen: return "cannot_open"
        case .cannotCreate: return "cannot_create"
        case .io: return "io"
        }
    }

    /// Prints `signalpath: FILE: reason` on standard error and returns the exit code for it.
    @discardableResult
    static func report(_ error: SignalPathError) -> Int32 {
        StandardError.writeLine("signalpath: \(TerminalText.sanitized(error.path)): \(error.reason)")
        return code(for: error)
    }

    /// A failed file as JSON members: `path`, `error`, `error_category`, `exit_code`, so that a JSON
    /// consumer sees every file it asked for.
    static func jsonMembers(_ error: SignalPathError) -> [JSONValue.Member] {
        [
            .init("path", .string(error.path)), .init("error", .string(error.reason)),
            .init("error_category", .string(name(of: error.category))), .init("exit_code", .integer(Int64(code(for: error)))),
        ]
    }
}

/// Collects the outcome of a command over several files: the first failure decides the exit code.
struct FailureTally {
    private(set) var firstCode: Int32?
    /// False in a batch: failures are kept (`kept`) and reported by the batch in input order.
    var reports = true
    private(set) var kept: [SignalPathError] = []

    mutating func record(_ error: SignalPathError) {
        guard reports else { return kept.append(error) }
        let code = ExitStatus.report(error)
        if firstCode == nil { firstCode = code }
    }

    /// Throws the exit code of the first failure, if any.
    func finish() throws {
        if let firstCode { throw ExitCode(firstCode) }
    }
}
