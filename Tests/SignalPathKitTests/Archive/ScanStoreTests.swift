import Foundation
import SignalPathTestSupport
import Testing

@testable import SignalPathKit

@Suite("scan database")
struct ScanStoreTests {
    let scratch = ScratchDirectory("scan-store")

    /// A row; every fifth size is a truncated file (the frames promised and present from the size).
    func record(_ path: String, size: Int64, at time: String, lufs: Double? = nil, key: String = "k") -> ScanRecord {
        let truncated = size.isMultiple(of: 5)
        return ScanRecord(
            path: path, sizeBytes: size, modifiedNanoseconds: size * 7, contentSHA256: size.isMultiple(of: 3) ? "hash-\(size)" : nil, status: .ok,
            analyzedAt: time, toolVersion: "test", settingsKey: key, integratedLUFS: lufs, truncated: truncated,
            framesPromised: truncated ? size / 2 : nil, framesPresent: size / 4, audioMD5: size.isMultiple(of: 4) ? "md5-\(size)" : nil,
            embeddedMD5Status: size.isMultiple(of: 4) ? "none" : nil, fingerprint: size.isMultiple(of: 2) ? "AQAA\(size)" : nil,
            fingerprintRaw: size.isMultiple(of: 2) ? [UInt32(truncatingIfNeeded: size), 0xFFFF_FFFF, 0x8000_0001] : nil,
            fingerprintSeconds: size.isMultiple(of: 2) ? 0.5 : nil, resultJSON: "{\"path\":\"\(path)\"}")
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

    /// The schema of version 1, as it was written (ScanStore.swift before version 2), and rows in it:
    /// `result_json` is analyze's record, whose `format` says whether the file was cut short.
    func versionOneDatabase(_ name: String, rows: [(path: String, format: String?)]) throws -> String {
        let path = scratch.file(name)
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute(
            """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE files (
                path TEXT PRIMARY KEY, size_bytes INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, content_sha256 TEXT,
                status TEXT NOT NULL CHECK (status IN ('ok', 'error')), error_code INTEGER, error_category TEXT, error_message TEXT,
                analyzed_at TEXT NOT NULL, tool_version TEXT NOT NULL, settings_key TEXT NOT NULL, duration_s REAL, integrated_lufs REAL,
                true_peak_dbtp REAL, passed INTEGER, result_json TEXT
            );
            CREATE INDEX files_by_content ON files (content_sha256) WHERE content_sha256 IS NOT NULL;
            INSERT INTO meta (key, value) VALUES ('application', 'signalpath.scan'), ('schema_version', '1');
            """)
        for row in rows {
            let json: SQLiteDatabase.Value = row.format.map { .text("{\"path\":\"\(row.path)\",\"format\":\($0),\"channels\":[]}") } ?? .null
            _ = try database.run(
                """
                INSERT INTO files (path, size_bytes, mtime_ns, status, error_code, analyzed_at, tool_version, settings_key, result_json)
                VALUES (?, 1, 1, ?, ?, '2026-11-24T00:00:00.000000Z', 'old', 'k', ?)
                """, [.text(row.path), .text(row.format == nil ? "error" : "ok"), row.format == nil ? .integer(65) : .null, json])
        }
        return path
    }

    @Test("a version 1 database: read as it is with the new columns from result_json (--where on them too), migrated in place when written, carried by merge")
    func versionOne() throws {
        let rows: [(path: String, format: String?)] = [
            ("/a/cut.wav", #"{"container":"wav","frames":250,"truncated":true,"frames_promised":96000,"duration_s":0.005}"#),
            ("/a/whole.flac", #"{"container":"flac","frames":48000,"truncated":false,"frames_promised":null,"duration_s":1}"#),
            ("/a/broken.wav", nil),
        ]
        // (truncated, promised, present) as version 2 writes them.
        let expected: [String: (Bool?, Int64?, Int64?)] = ["/a/cut.wav": (true, 96_000, 250), "/a/whole.flac": (false, nil, 48_000), "/a/broken.wav": (nil, nil, nil)]
        func facts(_ store: ScanStore, where filter: String? = nil) throws -> [String: (Bool?, Int64?, Int64?)] {
            var found: [String: (Bool?, Int64?, Int64?)] = [:]
            try store.forEachRecord(where: filter) { found[$0.path] = ($0.truncated, $0.framesPromised, $0.framesPresent) }
            return found
        }
        func same(_ a: [String: (Bool?, Int64?, Int64?)], _ b: [String: (Bool?, Int64?, Int64?)]) -> Bool {
            a.count == b.count && a.allSatisfy { path, value in b[path].map { $0 == value } ?? false }
        }
        let old = try versionOneDatabase("v1-read.db", rows: rows)
        let reader = try ScanStore.openForReading(old)
        #expect(same(try facts(reader), expected))
        #expect(Set(try facts(reader, where: "truncated = 1").keys) == ["/a/cut.wav"])
        #expect(try reader.database.rows("SELECT value FROM meta WHERE key = 'schema_version'") == [[.text("1")]], "reading changes nothing")

        let target = try ScanStore.openForWriting(scratch.file("v2-target.db"))
        #expect(try target.merge(from: old) == 3)
        #expect(same(try facts(target), expected))

        let migrated = try ScanStore.openForWriting(try versionOneDatabase("v1-write.db", rows: rows))
        #expect(try migrated.database.rows("SELECT value FROM meta WHERE key = 'schema_version'") == [[.text(String(ScanStore.schemaVersion))]])
        #expect(same(try facts(migrated), expected))
        #expect(try migrated.database.rows("SELECT path FROM files WHERE truncated = 1") == [[.text("/a/cut.wav")]], "stored, not worked out")
        #expect(try migrated.integrityCheck() == "ok")
    }

    @Test("a version 2 database: read with NULL identity columns, carried by merge, migrated in place (columns and index added, no row rewritten)")
    func versionTwo() throws {
        // What version 2 wrote: today's table without the six identity columns, schema_version 2.
        func versionTwoDatabase(_ name: String) throws -> String {
            let path = scratch.file(name)
            let store = try ScanStore.openForWriting(path)
            try store.store(record("/b/one.wav", size: 8, at: "2026-11-25T00:00:00.000000Z"))
            try store.database.execute("DROP INDEX files_by_audio_md5")
            for column in ["audio_md5", "embedded_md5", "embedded_md5_status", "fingerprint", "fingerprint_raw", "fingerprint_duration_s"] {
                try store.database.execute("ALTER TABLE files DROP COLUMN \(column)")
            }
            try store.database.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
            return path
        }
        var expected = record("/b/one.wav", size: 8, at: "2026-11-25T00:00:00.000000Z")
        (expected.audioMD5, expected.embeddedMD5Status, expected.fingerprint, expected.fingerprintRaw, expected.fingerprintSeconds) = (nil, nil, nil, nil, nil)
        var read: [ScanRecord] = []
        let old = try versionTwoDatabase("v2-read.db")
        try ScanStore.openForReading(old).forEachRecord(where: "audio_md5 IS NULL") { read.append($0) }
        #expect(read == [expected])
        let target = try ScanStore.openForWriting(scratch.file("v3-target.db"))
        #expect(try target.merge(from: old) == 1)
        #expect(try target.record(at: "/b/one.wav") == expected)
        let migrated = try ScanStore.openForWriting(try versionTwoDatabase("v2-write.db"))
        #expect(try migrated.record(at: "/b/one.wav") == expected)
        #expect(try migrated.database.rows("SELECT value FROM meta WHERE key = 'schema_version'") == [[.text(String(ScanStore.schemaVersion))]])
        #expect(try migrated.database.rows("SELECT count(*) FROM sqlite_master WHERE name = 'files_by_audio_md5'") == [[.integer(1)]])
        try migrated.store(record("/b/two.wav", size: 12, at: "2026-11-27T00:00:00.000000Z"))
        #expect(try migrated.record(at: "/b/two.wav") == record("/b/two.wav", size: 12, at: "2026-11-27T00:00:00.000000Z"))
    }

    @Test("settings keys: a row holding the same analysis and at least the verdict and events asked for covers a scan; any other difference does not")
    func keyRelations() throws {
        func key(fft: Int = 8192, profile: DeliveryProfile? = nil, events: Bool = false, md5: Bool = false, fingerprint: Double? = nil) -> String {
            var analysis = AnalysisSettings()
            analysis.spectrum.fftSize = fft
            analysis.computesAudioMD5 = md5
            analysis.fingerprintSeconds = fingerprint
            return ScanSettings(analysis: analysis, rules: profile.map { DeliveryRules(profile: $0) }, findsEvents: events, hashesContent: false, jobs: 1).key
        }
        let full = key(profile: .ebuR128, events: true)
        #expect(ScanSettings.relation(ofStored: full, to: full) == .same)
        // The identity columns are extras too: rows with them cover a scan without; a fingerprint
        // of other seconds does not stand for this scan's.
        let identified = key(profile: .ebuR128, events: true, md5: true, fingerprint: 120)
        #expect(identified == full + ";md5;fingerprint=120")
        #expect(ScanSettings.relation(ofStored: identified, to: full) == .covers)
        #expect(ScanSettings.relation(ofStored: identified, to: key(md5: true)) == .covers)
        #expect(ScanSettings.relation(ofStored: full, to: key(md5: true)) == .differs, "no audio MD5 stored")
        #expect(ScanSettings.relation(ofStored: identified, to: key(fingerprint: 30)) == .differs, "a fingerprint of other seconds")
        #expect(ScanSettings.relation(ofStored: full, to: key()) == .covers)
        #expect(ScanSettings.relation(ofStored: full, to: key(profile: .ebuR128)) == .covers)
        #expect(ScanSettings.relation(ofStored: full, to: key(events: true)) == .covers)
        #expect(ScanSettings.relation(ofStored: key(profile: .ebuR128), to: key(events: true)) == .differs, "no events stored")
        #expect(ScanSettings.relation(ofStored: key(events: true), to: key(profile: .ebuR128)) == .differs, "no verdict stored")
        #expect(ScanSettings.relation(ofStored: full, to: key(profile: .streaming)) == .differs, "another profile's verdict")
        #expect(ScanSettings.relation(ofStored: full, to: key(fft: 4096)) == .differs, "another analysis")
        #expect(ScanSettings.relation(ofStored: key(), to: key(fft: 4096)) == .differs)
        // Rows of older rules: the podcast profile's mono target is part of its verdict, events of
        // the rules before events/2 do not stand for this scan's, nor an older analysis.
        let podcast = key(profile: .podcast)
        #expect(podcast.contains("mono-target=-19") && ScanSettings.relation(ofStored: podcast, to: key()) == .covers)
        #expect(ScanSettings.relation(ofStored: full.replacingOccurrences(of: "events/2", with: "events"), to: key(events: true)) == .differs)
        #expect(ScanSettings.relation(ofStored: key().replacingOccurrences(of: "analyze/2", with: "analyze/1"), to: key()) == .differs)
        let (rowsOnly, scanOnly) = ScanSettings.differences(stored: key(profile: .ebuR128), current: key(fft: 4096))
        #expect(rowsOnly.first == "fft=8192" && rowsOnly.dropFirst().allSatisfy { ["check=", "target=", "max-true-peak="].contains(where: $0.hasPrefix) })
        #expect(rowsOnly.count == 4 && scanOnly == ["fft=4096"])
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
