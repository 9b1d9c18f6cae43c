import Foundation
import SignalPathTestSupport
import Testing

@testable import SignalPathKit

@Suite("scan database")
struct ScanStoreTests {
    let scratch = ScratchDirectory("scan-store")

    func record(_ path: String, size: Int64, at time: String, lufs: Double? = nil, key: String = "k") -> ScanRecord {
        ScanRecord(
            path: path, sizeBytes: size, modifiedNanoseconds: size * 7, contentSHA256: size.isMultiple(of: 3) ? "hash-\(size)" : nil, status: .ok,
            analyzedAt: time, toolVersion: "test", settingsKey: key, integratedLUFS: lufs, resultJSON: "{\"path\":\"\(path)\"}")
    }

    @Test("seeded random stores, removals and merges agree with a dictionary model; rows read back equal what was stored")
    func againstModel() throws {
        var generator = SeededGenerator(seed: 16)
        let store = try ScanStore.openForWriting(scratch.file("model.db"))
        var model: [String: ScanRecord] = [:]
        let paths = (0..<40).map { "/archive/disc \($0 % 4)/take \($0).wav" }
        var clock = 0
        func now() -> String {
            clock += 1
            return String(format: "2026-11-23T10:%02d:%02d.000000Z", clock / 60, clock % 60)
        }
        for step in 0..<600 {
            let path = paths.randomElement(using: &generator)!
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                let row = record(path, size: Int64.random(in: 1...1_000_000, using: &generator), at: now(), lufs: Double.random(in: -40 ... -5, using: &generator))
                try store.store(row)
                model[path] = row
            case 6:
                try store.remove(path)
                model[path] = nil
            case 7:
                // Another database's rows, some older and some newer than the ones here.
                let other = try ScanStore.openForWriting(scratch.file("other-\(step).db"))
                for otherPath in paths.shuffled(using: &generator).prefix(8) {
                    let newer = Bool.random(using: &generator)
                    let time = newer ? now() : "2026-01-01T00:00:00.000000Z"
                    let row = record(otherPath, size: Int64.random(in: 1...1_000_000, using: &generator), at: time)
                    try other.store(row)
                    if newer || model[otherPath] == nil { model[otherPath] = row }
                }
                _ = try store.merge(from: other.path)
            default:
                #expect(try store.record(at: path) == model[path], "step \(step): \(path)")
            }
        }
        var stored: [String: ScanRecord] = [:]
        try store.forEachRecord(where: nil) { stored[$0.path] = $0 }
        #expect(stored == model)
        #expect(try store.integrityCheck() == "ok")
        // A hash lookup finds a row of that content and settings.
        if let hashed = model.values.first(where: { $0.contentSHA256 != nil }) {
            #expect(try store.record(withContent: hashed.contentSHA256!, settingsKey: "k")?.contentSHA256 == hashed.contentSHA256)
            #expect(try store.record(withContent: hashed.contentSHA256!, settingsKey: "other") == nil)
        }
    }

    @Test("a newer schema, a foreign database and a non-database file are refused as unusable; the version is stored in meta")
    func versions() throws {
        let path = scratch.file("versions.db")
        let store = try ScanStore.openForWriting(path)
        #expect(try store.database.rows("SELECT value FROM meta WHERE key = 'schema_version'") == [[.text(String(ScanStore.schemaVersion))]])
        try store.database.execute("UPDATE meta SET value = '\(ScanStore.schemaVersion + 1)' WHERE key = 'schema_version'")
        for writing in [true, false] {
            #expect {
                _ = writing ? try ScanStore.openForWriting(path) : try ScanStore.openForReading(path)
            } throws: { error in
                guard case .database(_, let reason, .unusable) = error as? SignalPathError else { return false }
                return reason.contains("newer signalpath")
            }
        }
        let foreign = scratch.file("foreign.db")
        try SQLiteDatabase(path: foreign, mode: .readWrite).execute("CREATE TABLE t (x)")
        #expect(throws: SignalPathError.self) { try ScanStore.openForWriting(foreign) }
        let text = scratch.write("text.db", Array("not a database at all, but long enough to have a header".utf8))
        #expect {
            try ScanStore.openForReading(text)
        } throws: { error in
            (error as? SignalPathError)?.category == .badData
        }
    }

    @Test("globs: a pattern without / matches the name, one with / the whole path; default extensions; shards partition")
    func treeFilters() throws {
        let root = scratch.file("tree")
        for name in ["a/one.wav", "a/two.FLAC", "a/notes.txt", "b/skip/three.wav", "b/four.mp3"] {
            try FileManager.default.createDirectory(atPath: root + "/" + (name as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: root + "/" + name, contents: Data([0]))
        }
        func walk(_ tree: ScanTree) -> [String] {
            var files: [String] = []
            tree.walk([root], file: { files.append(String($0.dropFirst(root.count + 1))) }, problem: { _ in })
            return files
        }
        #expect(walk(ScanTree()) == ["a/one.wav", "a/two.FLAC", "b/four.mp3", "b/skip/three.wav"])
        #expect(walk(ScanTree(include: ["*.txt"])) == ["a/notes.txt"])
        #expect(walk(ScanTree(exclude: ["skip"])) == ["a/one.wav", "a/two.FLAC", "b/four.mp3"])
        #expect(walk(ScanTree(include: ["*/b/*"])) == ["b/four.mp3", "b/skip/three.wav"])
        let all = walk(ScanTree())
        let shards = (1...3).map { walk(ScanTree(shard: ShardSelector(index: $0, count: 3))) }
        #expect(shards.flatMap { $0 }.sorted() == all.sorted())
        #expect(ScanPath.absolute("/x/./y//z/../w") == "/x/y/w" && ScanPath.absolute("/..") == "/")
    }

    @Test("lists: lines (with CR LF) or NUL-separated entries; empty entries dropped")
    func lists() throws {
        let lines = scratch.write("list.txt", Array("a.wav\r\nb c.wav\n\nd.wav".utf8))
        #expect(try PathList.read(lines, separator: UInt8(ascii: "\n")) == ["a.wav", "b c.wav", "d.wav"])
        let nul = scratch.write("list.bin", Array("x\ny.wav\u{0}z.wav\u{0}".utf8))
        #expect(try PathList.read(nul, separator: 0) == ["x\ny.wav", "z.wav"])
        #expect(throws: SignalPathError.notFound(path: scratch.file("missing"))) { try PathList.read(scratch.file("missing"), separator: 0) }
    }
}
