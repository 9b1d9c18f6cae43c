import Foundation
import Testing
import SignalPathTestSupport

/// Rules about the sources themselves that no behaviour test would notice until a benchmark did.
@Suite("Sources: imports")
struct SourceRulesTests {
    /// Every Swift file under Sources/, with its text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = repositoryRoot + "/Sources"
        let listed = try run(try #require(which("find")), [root, "-name", "*.swift", "-type", "f"], timeout: 30)
        return try listed.stdout.split(separator: "\n").map { path in
            (String(path), try String(contentsOfFile: String(path), encoding: .utf8))
        }
    }

    /// With the static standard library, Foundation links ICU's data into every command
    /// (docs/DECISIONS.md#no-foundation).
    @Test("no source imports Foundation: with the static standard library it links ICU's data into every command")
    func noFoundation() throws {
        let files = try Self.sources()
        #expect(files.count > 100, "the sources were found")
        let importing = files.filter { file in
            file.text.split(separator: "\n").contains { $0.hasPrefix("import Foundation") || $0.hasPrefix("@preconcurrency import Foundation") }
        }
        #expect(importing.isEmpty, "\(importing.map(\.path))")
    }

    @Test("each C library is imported by exactly one Swift file")
    func oneDoorPerCLibrary() throws {
        var importers: [String: [String]] = [:]
        for file in try Self.sources() {
            for line in file.text.split(separator: "\n") where line.hasPrefix("import C") {
                let module = String(line.dropFirst("import ".count).prefix { $0.isLetter || $0.isNumber })
                importers[module, default: []].append(file.path)
            }
        }
        #expect(importers.keys.contains("CFFTW") && importers.keys.contains("CSndFile"), "\(importers.keys.sorted())")
        for (module, files) in importers {
            #expect(files.count == 1, "\(module): \(files)")
        }
    }
}
