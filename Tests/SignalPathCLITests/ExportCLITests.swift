import Foundation
import SignalPathTestSupport
import Testing

/// `export` where nothing can be read: no half of a document on standard output, one line on
/// standard error, the exit code of the failure (docs/SCAN.md); and a query without rows still a
/// whole document.
@Suite("signalpath export: failures and empty results")
struct ExportCLITests {
    let scratch = ScratchDirectory("export")

    @Test("a missing database (exit 66) and a file that is not one (exit 65) write nothing to standard output, in every format")
    func unreadableDatabase() throws {
        let notDatabase = scratch.write("notes.db", Array("not an SQLite database".utf8))
        for (database, status, reason) in [(scratch.file("missing.db"), Int32(66), "no such file"), (notDatabase, Int32(65), "file is not a database")] {
            for format in ["csv", "json", "ndjson"] {
                let result = try signalpath("export", database, "--format", format)
                #expect(result.status == status, "\(format): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(format): \(result.stdout.debugDescription)")
                #expect(result.stderr == "signalpath: \(database): \(reason)\n", "\(format)")
            }
        }
    }

    @Test("a query that matches no row: CSV is the header alone, JSON a document with no files")
    func noRows() throws {
        let database = scratch.file("one.db")
        let scan = try signalpath("scan", sample("sine-1k-48k-s16-mono.wav"), "--db", database)
        try #require(scan.status == 0, "\(scan.stderr)")
        let csv = try signalpath("export", database, "--format", "csv", "--where", "0")
        #expect(csv.status == 0 && csv.stdout.hasPrefix("path,") && csv.stdout.split(separator: "\n").count == 1, "\(csv.stdout)")
        let document = try json(try signalpath("export", database, "--format", "json", "--where", "0"))
        #expect((document["files"] as? [Any])?.isEmpty == true, "\(document)")
    }
}
