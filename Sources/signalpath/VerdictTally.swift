import SignalPathKit

/// The counts over a batch of verdicts (`FileBatch.runSideBySide(tallying:)`): how many files
/// passed, failed, or could not be read, and the ways they close the output.
struct VerdictTally: Equatable {
    let files: Int
    private(set) var passed = 0, failed = 0, unreadable = 0

    init(files: Int) {
        self.files = files
    }

    mutating func record(passed: Bool) {
        if passed { self.passed += 1 } else { failed += 1 }
    }

    mutating func recordUnreadable() {
        unreadable += 1
    }

    /// The last line of the text report of several files (one file's report says it all already).
    var closingLine: String { "\(passed) of \(files) passed, \(failed) failed, \(unreadable) unreadable" }

    /// JSON's `summary` after `files`, and NDJSON's last line.
    var json: JSONValue {
        .object([
            .init("files", .number(Double(files))), .init("passed", .number(Double(passed))),
            .init("failed", .number(Double(failed))), .init("unreadable", .number(Double(unreadable))),
        ])
    }
}
