import Foundation
import Testing
import SignalPathTestSupport

/// `scan`, `export`, `merge` on a generated archive (Tests/Reference/scan_tree.py: files written by
/// libsndfile and ffmpeg's libmp3lame, broken files, a non-audio file, a symbolic link loop). The
/// databases are read back by Python's own sqlite3 module, hashes checked against hashlib, exports
/// loaded by DuckDB, shards run concurrently by GNU parallel.
@Suite("signalpath scan, export, merge", .serialized)
struct ScanCLITests {
    /// Files in the generated tree (the suite runs the debug build, ~0.1 s of CPU a file; the bench
    /// scans 500 with the release build).
    static let fileCount = 40

    struct Tree: @unchecked Sendable {
        let root: String
        let audio: [String]
        let broken: [String]
        let other: [String]
        let loop: String
        let knownLUFS: [String: Double]
    }

    /// One tree per test (tests change it), made by the generator with the test's seed.
    func makeTree(_ scratch: ScratchDirectory, seed: Int = 7) throws -> Tree {
        let root = scratch.file("tree")
        let made = try run(try #require(which("python3")), ["\(repositoryRoot)/Tests/Reference/scan_tree.py", root, String(seed), String(Self.fileCount)], timeout: 120)
        try #require(made.status == 0, "\(made.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: made.stdoutData) as? [String: Any])
        return Tree(
            root: root, audio: manifest["audio"] as! [String], broken: manifest["broken"] as! [String], other: manifest["other"] as! [String],
            loop: manifest["loop"] as! String, knownLUFS: manifest["known_lufs"] as! [String: Double])
    }

    /// Rows of `database` as Python's sqlite3 reads them (path → column → value), and the result of
    /// `PRAGMA integrity_check`.
    func rows(_ database: String) throws -> (rows: [String: [String: Any]], integrity: String) {
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.row_factory = sqlite3.Row
            rows = {r["path"]: dict(r) for r in db.execute("SELECT * FROM files")}
            print(json.dumps({"rows": rows, "integrity": db.execute("PRAGMA integrity_check").fetchone()[0]}))
            """
        let result = try run(try #require(which("python3")), ["-c", script, database])
        try #require(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        return (object["rows"] as! [String: [String: Any]], object["integrity"] as! String)
    }

    func summary(_ result: ProcessResult) throws -> [String: Any] {
        try json(result)
    }

    @Test(
        "first scan: a row per audio file, failures as error rows, loop reported; export into DuckDB; a second scan reads nothing; a touched file is read again"
    )
    func scanRescanTouch() throws {
        let scratch = ScratchDirectory("scan-first")
        let tree = try makeTree(scratch)
        let database = scratch.file("r.db")
        let first = try signalpath("scan", tree.root, "--db", database, "--profile", "ebu-r128", "--format", "json")
        #expect(first.status == 65, "a broken file and a link loop: exit 65\n\(first.stderr)")
        let counts = try summary(first)
        #expect(counts["analysed"] as? Int == tree.audio.count && counts["failed"] as? Int == tree.broken.count && counts["unreachable"] as? Int == 1, "\(counts)")
        #expect(first.stderr.contains("\(tree.loop): symbolic link loop"), "\(first.stderr)")
        #expect(!first.stderr.contains("files/s") && !first.stderr.contains("\u{1B}["), "no progress line when standard error is not a terminal")
        for path in tree.broken { #expect(first.stderr.contains("signalpath: \(path): "), "no line for \(path)") }
        let (stored, integrity) = try rows(database)
        #expect(integrity == "ok")
        #expect(Set(stored.keys) == Set(tree.audio + tree.broken), "the non-audio files are not taken; every audio file is")
        for path in tree.audio {
            #expect(stored[path]?["status"] as? String == "ok" && stored[path]?["result_json"] is String, "\(path): \(stored[path] ?? [:])")
        }
        for path in tree.broken {
            #expect(stored[path]?["status"] as? String == "error" && stored[path]?["error_code"] as? Int == 65 && stored[path]?["error_message"] is String)
        }
        // EBU Tech 3341 case 1: -23.0 LUFS, ±0.1 LU.
        for (path, lufs) in tree.knownLUFS {
            let measured = try #require(stored[path]?["integrated_lufs"] as? Double)
            #expect(abs(measured - lufs) <= 0.1, "\(path): \(measured) LUFS")
        }
        // The stored record is analyze's JSON for the file.
        let probe = try #require(tree.audio.first)
        let analyze = try signalpath("analyze", probe, "--format", "json")
        let analyzeFile = try #require((try json(analyze)["files"] as? [[String: Any]])?.first)
        var storedRecord = try #require(
            try JSONSerialization.jsonObject(with: Data((stored[probe]?["result_json"] as? String ?? "").utf8)) as? [String: Any])
        #expect((storedRecord["check"] as? [String: Any])?["profile"] as? String == "ebu-r128")
        storedRecord["check"] = nil
        #expect(NSDictionary(dictionary: storedRecord).isEqual(to: analyzeFile), "scan stores analyze's record, and check's verdict beside it")

        // Export: NDJSON that DuckDB loads (rows, a column's values, Parquet), CSV, --failed, --where.
        let ndjson = scratch.file("all.ndjson")
        #expect(try signalpath("export", database, "--output", ndjson).status == 0)
        let script = """
            import duckdb, json, sys
            rows = duckdb.sql(f"SELECT count(*) FROM read_json_auto('{sys.argv[1]}')").fetchall()[0][0]
            known = duckdb.sql(f"SELECT path, integrated_lufs, passed, result.loudness.integrated_lufs FROM read_json_auto('{sys.argv[1]}') WHERE path LIKE '%tech3341%' ORDER BY path").fetchall()
            failed = duckdb.sql(f"SELECT count(*) FROM read_json_auto('{sys.argv[1]}') WHERE status = 'error'").fetchall()[0][0]
            duckdb.sql(f"COPY (SELECT * FROM read_json_auto('{sys.argv[1]}')) TO '{sys.argv[2]}' (FORMAT parquet)")
            parquet = duckdb.sql(f"SELECT count(*) FROM '{sys.argv[2]}'").fetchall()[0][0]
            print(json.dumps({"rows": rows, "known": known, "failed": failed, "parquet": parquet}))
            """
        let duck = try run(try #require(which("python3")), ["-c", script, ndjson, scratch.file("all.parquet")])
        try #require(duck.status == 0, "DuckDB: \(duck.stderr)")
        let facts = try #require(try JSONSerialization.jsonObject(with: duck.stdoutData) as? [String: Any])
        #expect(facts["rows"] as? Int == tree.audio.count + tree.broken.count && facts["parquet"] as? Int == facts["rows"] as? Int)
        #expect(facts["failed"] as? Int == tree.broken.count)
        let known = try #require(facts["known"] as? [[Any]])
        #expect(known.count == 2)
        for row in known {
            #expect(abs((row[1] as? Double ?? 0) + 23) <= 0.1 && row[2] as? Bool == true && abs((row[3] as? Double ?? 0) + 23) <= 0.1, "\(row)")
        }
        // JSON: the NDJSON records (without their schema) in one document, written as it goes.
        let document = try #require(try JSONSerialization.jsonObject(with: try signalpath("export", database, "--format", "json").stdoutData) as? [String: Any])
        let entries = try #require(document["files"] as? [[String: Any]])
        let records = try String(contentsOfFile: ndjson, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(document["schema"] as? String == "signalpath.export/1" && entries.count == records.count && records.count == tree.audio.count + tree.broken.count)
        for (entry, record) in zip(entries, records) {
            let canonical = { (object: [String: Any]) in try JSONSerialization.data(withJSONObject: object, options: .sortedKeys) }
            #expect(try canonical(entry) == canonical(record.filter { $0.key != "schema" }), "\(entry["path"] ?? "")")
        }
        let none = try JSONSerialization.jsonObject(with: try signalpath("export", database, "--where", "0", "--format", "json").stdoutData) as? [String: Any]
        #expect((none?["files"] as? [Any])?.isEmpty == true)
        let failedCSV = try signalpath("export", database, "--failed", "--format", "csv")
        let lines = failedCSV.stdout.split(separator: "\n")
        #expect(lines.count == tree.broken.count + 1 && lines[0].hasPrefix("path,size_bytes,mtime_ns,content_sha256,status"))
        let loud = try signalpath("export", database, "--where", "integrated_lufs > -23.5 AND integrated_lufs < -22.5")
        let inRange = stored.values.filter { (($0["integrated_lufs"] as? Double) ?? 0) > -23.5 && (($0["integrated_lufs"] as? Double) ?? 0) < -22.5 }
        #expect(loud.stdout.split(separator: "\n").count == inRange.count && inRange.count >= 2, "\(loud.stdout)")
        let bad = try signalpath("export", database, "--where", "no_such_column > 1")
        #expect(bad.status == 64 && bad.stderr.split(separator: "\n").count == 1 && bad.stderr.contains("no such column"), "\(bad.stderr)")

        let second = try signalpath("scan", tree.root, "--db", database, "--profile", "ebu-r128", "--format", "json")
        let again = try summary(second)
        #expect(again["analysed"] as? Int == 0 && again["unchanged"] as? Int == tree.audio.count && again["failed_before"] as? Int == tree.broken.count, "\(again)")
        #expect(second.status == 65, "the stored failures still count")

        let touched = tree.audio[3]
        let before = try #require(stored[touched]?["analyzed_at"] as? String)
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, touched, &times, 0) == 0)
        let third = try summary(try signalpath("scan", tree.root, "--db", database, "--profile", "ebu-r128", "--format", "json"))
        #expect(third["analysed"] as? Int == 1 && third["unchanged"] as? Int == tree.audio.count - 1, "\(third)")
        let after = try rows(database).rows[touched]
        #expect(after?["mtime_ns"] as? Int == 1_700_000_000_000_000_000 && (after?["analyzed_at"] as? String ?? "") > before)
    }

    @Test("a file deleted mid-scan is reported and skipped; --content-hash equals sha256sum's; a renamed file is recognised, not analysed; --duplicates lists copies")
    func contentHash() throws {
        let scratch = ScratchDirectory("scan-hash")
        let tree = try makeTree(scratch, seed: 11)
        let database = scratch.file("r.db")
        // A file deleted while the scan runs: the scan lists and stats every file first, then takes a
        // named pipe (held open 2 s by its writer); once the pipe is in flight, the file goes.
        // It is reported as vanished, has no row, and the scan goes on.
        let deleted = try #require(tree.audio.sorted().last), fifo = scratch.file("live.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: try #require(which("python3")))
        writer.arguments = [repositoryRoot + "/Tests/Reference/slow_fifo.py", fifo, "2"]
        let connected = Pipe()
        writer.standardOutput = connected
        try writer.run()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: signalpath)
        process.arguments = ["scan", fifo, tree.root, "--db", database, "--jobs", "1", "--format", "json"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // One line, as soon as it comes (the writer still holds the pipe).
        var line = ""
        while !line.hasSuffix("\n") {
            let data = connected.fileHandleForReading.availableData
            if data.isEmpty { break }
            line += String(decoding: data, as: UTF8.self)
        }
        #expect(line.hasPrefix("connected") && unlink(deleted) == 0, "\(line)")
        let summaryData = out.fileHandleForReading.readDataToEndOfFile()
        let messages = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        writer.waitUntilExit()
        let first = try #require(try JSONSerialization.jsonObject(with: summaryData) as? [String: Any])
        #expect(first["vanished"] as? Int == 1 && first["analysed"] as? Int == tree.audio.count, "the pipe and every file but one: \(first)")
        #expect(messages.contains("signalpath: \(deleted): vanished before it was read; skipped"), "\(messages)")
        #expect(try rows(database).rows[deleted] == nil)
        // The hashes: rows without one are read again for it.
        _ = try signalpath("scan", tree.root, "--db", database, "--content-hash", "--jobs", "2")
        let audio = tree.audio.filter { $0 != deleted }
        let sums = try run(try #require(which("sha256sum")), audio)
        try #require(sums.status == 0)
        let expected = Dictionary(
            uniqueKeysWithValues: sums.stdout.split(separator: "\n").map { line in
                (String(line.dropFirst(66)), String(line.prefix(64)))
            })
        let stored = try rows(database).rows
        for path in audio { #expect(stored[path]?["content_sha256"] as? String == expected[path], "\(path)") }

        let old = audio[5], new = (old as NSString).deletingLastPathComponent + "/renamed take.wav"
        #expect(rename(old, new) == 0)
        let copy = (audio[6] as NSString).deletingLastPathComponent + "/copy of take"
        try FileManager.default.copyItem(atPath: audio[6], toPath: copy + "." + (audio[6] as NSString).pathExtension)
        let rescan = try summary(try signalpath("scan", tree.root, "--db", database, "--content-hash", "--format", "json"))
        #expect(rescan["recognised"] as? Int == 2 && rescan["analysed"] as? Int == 0, "\(rescan)")
        let after = try rows(database).rows
        #expect(after[old] == nil && after[new]?["status"] as? String == "ok", "the row moved with the file")
        #expect(after[new]?["integrated_lufs"] as? Double == stored[old]?["integrated_lufs"] as? Double)
        let duplicates = try json(try signalpath("scan", "--db", database, "--duplicates", "--format", "json"))
        #expect(duplicates["schema"] as? String == "signalpath.scan-duplicates/1", "not `duplicates`' schema, whose groups are of audio")
        let groups = try #require(duplicates["groups"] as? [[String: Any]])
        #expect(groups.count == 1 && (groups.first?["paths"] as? [String])?.count == 2 && groups.first?["content_sha256"] as? String == expected[audio[6]])
    }

    @Test(
        "kill -9 at seeded moments then a resumed scan, and four shards under GNU parallel merged: each equals the uninterrupted single run row for row; merge refuses other settings"
    )
    func killAndResume() throws {
        let scratch = ScratchDirectory("scan-kill")
        let tree = try makeTree(scratch, seed: 13)
        let reference = scratch.file("reference.db"), interrupted = scratch.file("interrupted.db")
        let started = Date()
        _ = try signalpath("scan", tree.root, "--db", reference, "--jobs", "1")
        let uninterrupted = Date().timeIntervalSince(started)
        var generator = SeededGenerator(seed: 2026)
        var counts: [Int] = []
        for _ in 0..<3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: signalpath)
            process.arguments = ["scan", tree.root, "--db", interrupted, "--jobs", "1"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // At seeded fractions of the uninterrupted run's time, so that the first kill lands
            // mid-scan however fast the build (fixed delays of up to 0.4 s came after the end once
            // the library was optimised and the analysis faster).
            usleep(UInt32(uninterrupted * Double.random(in: 0.1...0.5, using: &generator) * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let (stored, integrity) = try rows(interrupted)
            #expect(integrity == "ok")
            counts.append(stored.count)
        }
        #expect(counts == counts.sorted() && counts[0] < tree.audio.count + tree.broken.count, "each run adds to the last: \(counts)")
        let resumed = try summary(try signalpath("scan", tree.root, "--db", interrupted, "--format", "json"))
        #expect((resumed["unchanged"] as? Int ?? 0) + (resumed["analysed"] as? Int ?? 0) == tree.audio.count && (resumed["unchanged"] as? Int ?? 0) > 0, "\(resumed)")
        try expectEqualRows(try rows(reference).rows, try rows(interrupted).rows)

        // Four shards at once under GNU parallel, merged: the same rows again.
        let merged = scratch.file("all.db")
        let parallel = try #require(which("parallel"), "GNU parallel is missing: run `make setup`")
        let shards = try run(
            parallel, ["--will-cite", "-j4", signalpath, "scan", tree.root, "--db", scratch.file("shard-{}.db"), "--shard", "{}/4", "--jobs", "1", ":::", "1", "2", "3", "4"],
            timeout: 300)
        #expect(shards.status == 4, "parallel counts the shards that failed: each meets the loop: \(shards.stderr)")
        var shardSizes: [Int] = []
        for shard in 1...4 { shardSizes.append(try rows(scratch.file("shard-\(shard).db")).rows.count) }
        #expect(shardSizes.allSatisfy { $0 > 0 } && shardSizes.reduce(0, +) == tree.audio.count + tree.broken.count, "\(shardSizes)")
        let merge = try signalpath(["merge"] + (1...4).map { scratch.file("shard-\($0).db") } + ["--into", merged])
        #expect(merge.status == 0, "\(merge.stderr)")
        try expectEqualRows(try rows(reference).rows, try rows(merged).rows)

        let other = scratch.file("other.db")
        _ = try signalpath("scan", tree.audio[0], "--db", other, "--rms-reference", "sine")
        let refused = try signalpath("merge", other, "--into", merged)
        #expect(refused.status == 65 && refused.stderr.contains("other settings") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(try signalpath("merge", other, "--into", merged, "--force").status == 0)
    }

    @Test("SIGTERM finishes the files in flight and commits (exit 143); export runs while a scan writes")
    func terminate() throws {
        let scratch = ScratchDirectory("scan-term")
        let tree = try makeTree(scratch, seed: 17)
        let database = scratch.file("r.db"), fifo = scratch.file("live.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        // One file at a time: the files under a/, then the named pipe, which the writer holds open
        // for 3 s (so the scan has it in flight, deterministically), then the rest of the tree.
        let inA = (tree.audio + tree.broken).filter { $0.hasPrefix(tree.root + "/a/") }
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: try #require(which("python3")))
        writer.arguments = [repositoryRoot + "/Tests/Reference/slow_fifo.py", fifo, "3"]
        try writer.run()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: signalpath)
        process.arguments = ["scan", tree.root + "/a", fifo, tree.root, "--db", database, "--jobs", "1", "--format", "json"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read while the scan writes: wait until a/'s rows are committed (the pipe is then in flight).
        var exported = 0
        for _ in 0..<400 where exported < inA.count {
            usleep(25_000)
            let export = try signalpath("export", database)
            if export.status == 0 { exported = export.stdout.split(separator: "\n").count }
        }
        #expect(exported == inA.count, "export read the rows committed while the scan ran")
        kill(process.processIdentifier, SIGTERM)
        let summaryData = out.fileHandleForReading.readDataToEndOfFile()
        let messages = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        writer.terminate()
        #expect(process.terminationStatus == 143)
        #expect(messages.contains("signalpath: finishing 1 file in flight (a second signal to stop now)\n"), "\(messages)")
        let stopped = try #require(try JSONSerialization.jsonObject(with: summaryData) as? [String: Any])
        #expect(stopped["interrupted_by_signal"] as? Int == 15, "\(stopped)")
        let (stored, integrity) = try rows(database)
        #expect(integrity == "ok" && Set(stored.keys) == Set(inA + [fifo]), "the file in flight was finished and committed; none was started after")
        #expect(stored[fifo]?["status"] as? String == "ok" && abs((stored[fifo]?["duration_s"] as? Double ?? 0) - 0.2) < 1e-9)
    }

    @Test("on a terminal: a progress line with files, rates and ETA on standard error; Ctrl-C (SIGINT) finishes the file in flight, commits and exits 130")
    func progressAndInterrupt() throws {
        let scratch = ScratchDirectory("scan-pty")
        let tree = try makeTree(scratch, seed: 37)
        let database = scratch.file("r.db"), first = scratch.file("first.wav"), second = scratch.file("second.wav")
        #expect(mkfifo(first, 0o600) == 0 && mkfifo(second, 0o600) == 0)
        // One file at a time: a pipe held 1.5 s (so the files after it finish past the 1 s the
        // progress line waits for), d/, and a pipe held 6 s, in flight when SIGINT comes at 4.7 s
        // (d/ takes well under 1 s, in the debug build too).
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: try #require(which("python3")))
        writer.arguments = [repositoryRoot + "/Tests/Reference/slow_fifo.py", first, "1.5", second, "6"]
        try writer.run()
        let plan = #"[[\#(4.5 * timeoutScale),null,"running"],[\#(4.7 * timeoutScale),"SIGINT",null],[\#(5.2 * timeoutScale),null,"stopping"]]"#
        let result = try run(
            try #require(which("python3")),
            [repositoryRoot + "/Tests/Reference/pty_drive.py", "200", "12", plan, "--", signalpath, "scan"]
                + [first, tree.root + "/d", second, tree.root, "--db", database, "--jobs", "1"],
            timeout: 60)
        writer.terminate()
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stderr)")
        let running = try #require((report["snapshots"] as? [String: [String]])?["running"]).joined(separator: "\n")
        #expect(running.range(of: #"scan  \d+/\d+ files  [0-9.]+ MB/s  [0-9.]+ files/s(  \d+ failed)?  ETA "#, options: .regularExpression) != nil, "\(running)")
        #expect(report["status"] as? Int == 130)
        let stopping = try #require((report["snapshots"] as? [String: [String]])?["stopping"])
        #expect(stopping.contains("signalpath: finishing 1 file in flight (Ctrl-C again to stop now)"), "on a line of its own: \(stopping)")
        let end = try #require(report["raw_tail"] as? String)
        #expect(end.contains("stopped by signal 2: the files in flight were finished and committed"), "\(end)")
        let (stored, integrity) = try rows(database)
        let before = (tree.audio + tree.broken).filter { $0.hasPrefix(tree.root + "/d/") }
        #expect(integrity == "ok" && Set(stored.keys) == Set(before + [first, second]))
    }

    @Test(
        "Ctrl-C says how many files are in flight and a second Ctrl-C stops at once: the database passes integrity_check and holds whole rows of the files committed before, none of those in flight"
    )
    func secondInterrupt() throws {
        let scratch = ScratchDirectory("scan-twice")
        let tree = try makeTree(scratch, seed: 41)
        let database = scratch.file("r.db"), first = scratch.file("first.wav"), second = scratch.file("second.wav")
        #expect(mkfifo(first, 0o600) == 0 && mkfifo(second, 0o600) == 0)
        // Two pipes held open for a minute, each by its own writer: with --jobs 2 both are in flight
        // after the tree's files, and finishing them would take that minute.
        var writers: [(Process, Pipe)] = []
        for fifo in [first, second] {
            let writer = Process(), said = Pipe()
            writer.executableURL = URL(fileURLWithPath: try #require(which("python3")))
            writer.arguments = [repositoryRoot + "/Tests/Reference/slow_fifo.py", fifo, "60"]
            writer.standardOutput = said
            try writer.run()
            writers.append((writer, said))
        }
        defer { for (writer, _) in writers { writer.terminate() } }
        let process = Process(), err = Pipe()
        process.executableURL = URL(fileURLWithPath: signalpath)
        process.arguments = ["scan", tree.root, first, second, "--db", database, "--jobs", "2"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        for (_, said) in writers {
            let line = String(decoding: said.fileHandleForReading.availableData, as: UTF8.self)
            #expect(line.hasPrefix("connected"), "the scan opened both pipes: \(line)")
        }
        // Both pipes are open: their files are in flight once their headers are read.
        usleep(500_000)
        kill(process.processIdentifier, SIGINT)
        var messages = ""
        let deadline = Date().addingTimeInterval(20 * timeoutScale)
        while !messages.contains("in flight") && Date() < deadline {
            let data = err.fileHandleForReading.availableData
            if data.isEmpty { break }
            messages += String(decoding: data, as: UTF8.self)
        }
        #expect(messages.contains("signalpath: finishing 2 files in flight (Ctrl-C again to stop now)\n"), "\(messages)")
        let interrupted = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(interrupted) < 10 * timeoutScale, "stopped at once, not when the pipes end")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)

        let (stored, integrity) = try rows(database)
        #expect(integrity == "ok")
        #expect(Set(stored.keys) == Set(tree.audio + tree.broken), "the tree's files, committed before; neither pipe")
        for (path, row) in stored {
            if row["status"] as? String == "ok" {
                let record = try JSONSerialization.jsonObject(with: Data(((row["result_json"] as? String) ?? "").utf8)) as? [String: Any]
                #expect(row["duration_s"] is Double && record?["path"] as? String == path, "a whole row: \(path)")
            } else {
                #expect(row["status"] as? String == "error" && row["error_message"] is String, "\(path): \(row)")
            }
        }
    }

    @Test("--files-from with NUL separators, a listed file that vanished, a newer schema and a foreign database refused in one line")
    func listsAndRefusals() throws {
        let scratch = ScratchDirectory("scan-lists")
        let tree = try makeTree(scratch, seed: 29)
        let list = Data((Array(tree.audio.prefix(5)) + [scratch.file("gone.wav")]).joined(separator: "\0").utf8)
        let database = scratch.file("r.db")
        let listed = try signalpath(["scan", "--files-from", "-", "--null", "--db", database, "--format", "json"], input: list)
        let counts = try json(listed)
        #expect(counts["analysed"] as? Int == 5 && counts["vanished"] as? Int == 1 && listed.status == 0, "\(counts) \(listed.stderr)")
        #expect(listed.stderr.contains("gone.wav: vanished"))
        let python = try #require(which("python3"))
        _ = try run(
            python, ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE meta SET value='99' WHERE key='schema_version'\"); c.commit()", database])
        let newer = try signalpath("scan", tree.audio[0], "--db", database)
        #expect(newer.status == 65 && newer.stderr.contains("newer signalpath") && newer.stderr.split(separator: "\n").count == 1, "\(newer.stderr)")
        let foreign = scratch.file("foreign.db")
        _ = try run(python, ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE t (x)'); c.commit()", foreign])
        let refused = try signalpath("export", foreign)
        #expect(refused.status == 65 && refused.stderr.contains("not a signalpath scan database"), "\(refused.stderr)")
        let uncreatable = try signalpath("scan", tree.audio[0], "--db", scratch.file("no/such/dir/r.db"))
        #expect(uncreatable.status == 73, "\(uncreatable.stderr)")
    }

    /// A folder of real files, whole and cut short: sox's WAV and FLAC and ffmpeg's WAV (which
    /// carries a LIST chunk before its data), copies cut with `truncate` and `head -c`, a WAV cut
    /// at its data chunk (no frame left) and random bytes named .wav. The frames each header
    /// promises are sox's count of the whole file; those present, ffmpeg's decode of the cut one.
    struct CutTree {
        let root: String
        /// path → (frames promised, frames present) for the truncated files.
        let truncated: [String: (promised: Int, present: Int)]
        /// path → frames, for the whole files.
        let whole: [String: Int]
        let noFrames: String
        let broken: String
    }

    func makeCutTree(_ scratch: ScratchDirectory) throws -> CutTree {
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let shell = try #require(which("sh"))
        let root = scratch.file("cut tree")
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        func make(_ tool: String, _ arguments: [String]) throws {
            let made = try run(tool, arguments)
            try #require(made.status == 0, "\(tool) \(arguments): \(made.stderr)")
        }
        let soxWAV = root + "/sox whole.wav", soxFLAC = root + "/sub/sox whole.flac", ffmpegWAV = root + "/ffmpeg whole.wav"
        try make(sox, ["-n", "-r", "48000", "-c", "2", "-b", "16", soxWAV, "synth", "1", "sine", "1000", "vol", "0.5"])
        try make(sox, ["-n", "-r", "48000", "-c", "2", "-b", "16", soxFLAC, "synth", "1", "pinknoise", "vol", "0.3"])
        try make(ffmpeg, ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=1", "-ac", "2", ffmpegWAV])
        func frames(_ path: String) throws -> Int {
            try #require(Int(try run(sox, ["--i", "-s", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        func decoded(_ path: String) throws -> Int {
            try run(ffmpeg, ["-v", "quiet", "-nostdin", "-i", path, "-f", "s16le", "-"]).stdoutData.count / 4
        }
        let cutWAV = root + "/sub/cut by truncate.wav", cutFLAC = root + "/cut by head.flac", cutFFmpeg = root + "/sub/ffmpeg cut.wav"
        let noFrames = root + "/header only.wav"
        try make(shell, ["-c", "cp \"$1\" \"$2\" && truncate -s 100000 \"$2\"", "-", soxWAV, cutWAV])
        try make(shell, ["-c", "head -c $(( $(stat -c %s \"$1\") / 2 )) \"$1\" > \"$2\"", "-", soxFLAC, cutFLAC])
        try make(shell, ["-c", "cp \"$1\" \"$2\" && truncate -s 60001 \"$2\"", "-", ffmpegWAV, cutFFmpeg])
        // Everything up to the data chunk's first byte.
        let header = try Data(contentsOf: URL(fileURLWithPath: soxWAV))
        let dataChunk = try #require(header.range(of: Data("data".utf8))).lowerBound
        try header.prefix(dataChunk + 8).write(to: URL(fileURLWithPath: noFrames))
        var generator = SeededGenerator(seed: 38)
        let broken = scratch.write("cut tree/random bytes.wav", (0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let truncated = [
            cutWAV: (try frames(soxWAV), try decoded(cutWAV)), cutFLAC: (try frames(soxFLAC), try decoded(cutFLAC)),
            cutFFmpeg: (try frames(ffmpegWAV), try decoded(cutFFmpeg)), noFrames: (try frames(soxWAV), 0),
        ]
        for (path, counts) in truncated where path != noFrames { try #require(counts.1 > 0 && counts.1 < counts.0, "\(path): \(counts)") }
        return CutTree(
            root: root, truncated: truncated, whole: [soxWAV: try frames(soxWAV), soxFLAC: try frames(soxFLAC), ffmpegWAV: try frames(ffmpegWAV)],
            noFrames: noFrames, broken: broken)
    }

    /// 96000 → "96 000", as the messages group digits.
    func grouped(_ value: Int) -> String {
        var text = String(value)
        var index = text.count - 3
        while index > 0 {
            text.insert(" ", at: text.index(text.startIndex, offsetBy: index))
            index -= 3
        }
        return text
    }

    @Test(
        "truncated files: a truncated column with the frames promised (sox) and present (ffmpeg), counted in the summary, one stderr line each as analyze prints it; export --where 'truncated = 1' lists exactly them"
    )
    func truncatedFiles() throws {
        let scratch = ScratchDirectory("scan-truncated")
        let tree = try makeCutTree(scratch)
        let database = scratch.file("r.db")
        let first = try signalpath("scan", tree.root, "--db", database, "--format", "json")
        #expect(first.status == 65, "the random bytes and the header without frames fail: \(first.stderr)")
        let counts = try summary(first)
        #expect(counts["truncated"] as? Int == 4 && counts["truncated_before"] as? Int == 0, "\(counts)")
        #expect(counts["analysed"] as? Int == 6 && counts["failed"] as? Int == 2, "\(counts)")

        let (stored, integrity) = try rows(database)
        #expect(integrity == "ok" && stored.count == 8)
        for (path, (promised, present)) in tree.truncated {
            let row = stored[path] ?? [:]
            #expect(row["truncated"] as? Int == 1 && row["frames_promised"] as? Int == promised && row["frames_present"] as? Int == present, "\(path): \(row)")
            #expect(row["status"] as? String == (present == 0 ? "error" : "ok"), "\(path)")
        }
        for (path, frames) in tree.whole {
            let row = stored[path] ?? [:]
            #expect(row["truncated"] as? Int == 0 && row["frames_promised"] is NSNull && row["frames_present"] as? Int == frames, "\(path): \(row)")
        }
        #expect(stored[tree.broken]?["truncated"] is NSNull && stored[tree.broken]?["frames_present"] is NSNull, "not cut short: unknown")

        // One line per truncated file, the line analyze prints for it.
        let lines = first.stderr.split(separator: "\n").map(String.init)
        for (path, (promised, present)) in tree.truncated {
            let mentions = lines.filter { $0.hasPrefix("signalpath: \(path): ") }
            #expect(mentions.count == 1, "\(path): \(mentions)")
            if present == 0 {
                #expect(mentions.first == "signalpath: \(path): truncated: the header promises \(grouped(promised)) frames, none are present")
            } else {
                let line = "signalpath: \(path): truncated: the header promises \(grouped(promised)) frames, \(grouped(present)) are present; analysing those"
                #expect(mentions.first == line)
                #expect(try signalpath("analyze", "--format", "json", path).stderr == line + "\n", "analyze says the same")
            }
        }

        let exported = try signalpath("export", database, "--where", "truncated = 1")
        #expect(exported.status == 0, "\(exported.stderr)")
        let records = try exported.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(Set(records.compactMap { $0["path"] as? String }) == Set(tree.truncated.keys))
        #expect(records.allSatisfy { $0["truncated"] as? Bool == true }, "a boolean, as passed")
        let csv = try signalpath("export", database, "--format", "csv", "--where", "truncated = 0")
        #expect(
            csv.stdout.hasPrefix(
                "path,size_bytes,mtime_ns,content_sha256,status,error_code,error_category,error_message,analyzed_at,tool_version,settings_key,duration_s,integrated_lufs,true_peak_dbtp,passed,truncated,frames_promised,frames_present,audio_md5,embedded_md5,embedded_md5_status,fingerprint,fingerprint_duration_s\n"
            ))
        #expect(csv.stdout.split(separator: "\n").count == tree.whole.count + 1)

        // Again: every row holds; the truncated files are counted and said as kept.
        let second = try signalpath("scan", tree.root, "--db", database)
        #expect(second.stdout.contains("  truncated   0 now, 4 before (shorter than their headers promise: see the messages above)\n"), "\(second.stdout)")
        let again = second.stderr.split(separator: "\n").map(String.init)
        for (path, (promised, present)) in tree.truncated where present > 0 {
            let line = "signalpath: \(path): truncated: the header promises \(grouped(promised)) frames, \(grouped(present)) are present"
            #expect(again.filter { $0.hasPrefix("signalpath: \(path): ") } == [line + " (stored by an earlier scan; the file is unchanged, not read again)"])
        }
        #expect(again.filter { $0.hasPrefix("signalpath: \(tree.noFrames): ") }.count == 1)
    }

    @Test(
        "a database of schema version 1 (the columns of issue 38 dropped): export reads it with truncated worked out, merge carries it, a scan migrates it in place and reads no file"
    )
    func versionOneDatabase() throws {
        let scratch = ScratchDirectory("scan-v1")
        let tree = try makeCutTree(scratch)
        let current = scratch.file("current.db"), old = scratch.file("old.db")
        _ = try signalpath("scan", tree.root, "--db", current)
        let reference = try rows(current).rows
        try FileManager.default.copyItem(atPath: current, toPath: old)
        // What version 1 wrote: the table without the three columns (nor version 3's), schema_version 1.
        let downgrade = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("DROP INDEX files_by_audio_md5")
            for column in ("truncated", "frames_promised", "frames_present", "audio_md5", "embedded_md5", "embedded_md5_status", "fingerprint", "fingerprint_raw", "fingerprint_duration_s"):
                db.execute(f"ALTER TABLE files DROP COLUMN {column}")
            db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
            db.commit()
            """
        let python = try #require(which("python3"))
        try #require(try run(python, ["-c", downgrade, old]).status == 0)
        #expect(try rows(old).rows.values.allSatisfy { $0["truncated"] == nil })

        // Read as it is: the ok rows' facts come from their analyze records; version 1's error rows had none.
        let readable = Set(tree.truncated.keys).subtracting([tree.noFrames])
        let exported = try signalpath("export", old, "--where", "truncated = 1")
        #expect(exported.status == 0, "\(exported.stderr)")
        let paths = try exported.stdout.split(separator: "\n").map { try #require((try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"] as? String) }
        #expect(Set(paths) == readable)
        let merged = scratch.file("merged.db")
        #expect(try signalpath("merge", old, "--into", merged).status == 0)
        var expected = reference
        for column in ["truncated", "frames_promised", "frames_present"] { expected[tree.noFrames]?[column] = NSNull() }
        try expectEqualRows(expected, try rows(merged).rows)
        #expect(try rows(old).rows.values.allSatisfy { $0["truncated"] == nil }, "export and merge leave a source as it was")

        // Merged into: migrated, and said.
        let oldTarget = scratch.file("old-target.db")
        try FileManager.default.copyItem(atPath: old, toPath: oldTarget)
        let mergedInto = try signalpath("merge", merged, "--into", oldTarget, "--force")
        #expect(mergedInto.status == 0 && mergedInto.stderr.contains("its schema was upgraded from version 1 to 3"), "\(mergedInto.stderr)")

        // Written: migrated (said once, first), and no file is read again.
        let migrating = try signalpath("scan", tree.root, "--db", old, "--format", "json")
        #expect(migrating.stderr.hasPrefix("signalpath: \(old): its schema was upgraded from version 1 to 3"), "\(migrating.stderr)")
        #expect(!(try signalpath("scan", tree.root, "--db", old)).stderr.contains("upgraded"), "said only when it happens")
        let rescan = try summary(migrating)
        #expect(rescan["analysed"] as? Int == 0 && rescan["unchanged"] as? Int == 6 && rescan["truncated_before"] as? Int == 3, "\(rescan)")
        try expectEqualRows(expected, try rows(old).rows)
        let version = try run(
            python, ["-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT value FROM meta WHERE key='schema_version'\").fetchone()[0])", old])
        #expect(version.stdout == "3\n")
    }

    @Test(
        "a re-scan without --profile keeps the verdicts and events of one with it (said before any work), with --content-hash too; its summary's passed and failed equal the rows' and check's own verdicts"
    )
    func verdictsKept() throws {
        let scratch = ScratchDirectory("scan-verdicts")
        let tree = try makeTree(scratch, seed: 19)
        let database = scratch.file("r.db")
        let first = try signalpath("scan", tree.root, "--db", database, "--profile", "ebu-r128", "--events", "--format", "json")
        let check = try #require(try summary(first)["check"] as? [String: Any], "\(first.stdout)")
        let stored = try rows(database).rows
        let verdicts = stored.values.compactMap { $0["passed"] as? Int }
        #expect(verdicts.count == tree.audio.count)
        #expect(check["profile"] as? String == "ebu-r128" && check["without_verdict"] as? Int == 0)
        #expect(check["passed"] as? Int == verdicts.filter { $0 == 1 }.count && check["failed"] as? Int == verdicts.filter { $0 == 0 }.count, "\(check)")
        #expect((check["passed"] as? Int ?? 0) >= 2 && (check["failed"] as? Int ?? 0) >= 2, "the tree has files of both kinds: \(check)")
        // check's own verdicts on the same files.
        let checked = try json(try signalpath(["check", "--profile", "ebu-r128", "--format", "json"] + tree.audio))
        let passes = try #require(checked["files"] as? [[String: Any]]).compactMap { $0["passed"] as? Bool }
        #expect(passes.count == tree.audio.count && passes.filter { $0 }.count == check["passed"] as? Int)
        let text = try signalpath("scan", tree.root, "--db", database, "--profile", "ebu-r128", "--events")
        #expect(text.stdout.contains("  check       ebu-r128: \(check["passed"] ?? "") passed, \(check["failed"] ?? "") did not pass\n"), "\(text.stdout)")

        let second = try signalpath("scan", tree.root, "--db", database, "--format", "json")
        let counts = try summary(second)
        #expect(counts["analysed"] as? Int == 0 && counts["unchanged"] as? Int == tree.audio.count && counts["kept_other_settings"] as? Int == 0, "\(counts)")
        #expect(counts["check"] is NSNull)
        let notice =
            "signalpath: \(database): \(tree.audio.count) unchanged files keep their rows, made with settings that include this scan's "
            + "(the rows also have check=ebu-r128, "
        // First after the walk's line about the link loop.
        let said = second.stderr.split(separator: "\n").filter { !$0.hasPrefix("signalpath: \(tree.loop): ") }
        #expect(said.first?.hasPrefix(notice) == true, "said first: \(second.stderr)")
        #expect(second.stderr.contains(", events/2): their verdicts and events stay; new and changed files get this scan's\n"), "\(second.stderr)")
        let after = try rows(database).rows
        for (path, row) in stored { #expect(NSDictionary(dictionary: row).isEqual(to: after[path] ?? [:]), "\(path): not rewritten") }

        // --content-hash over them: each file is read for its hash alone; the rows keep the rest.
        let hashing = try summary(try signalpath("scan", tree.root, "--db", database, "--content-hash", "--format", "json"))
        #expect(hashing["analysed"] as? Int == 0 && hashing["unchanged"] as? Int == tree.audio.count, "\(hashing)")
        let sums = try run(try #require(which("sha256sum")), tree.audio).stdout.split(separator: "\n")
        let hashed = try rows(database).rows
        for line in sums {
            let path = String(line.dropFirst(66))
            var row = hashed[path] ?? [:]
            #expect(row["content_sha256"] as? String == String(line.prefix(64)), "\(path)")
            row["content_sha256"] = stored[path]?["content_sha256"]
            #expect(NSDictionary(dictionary: row).isEqual(to: stored[path] ?? [:]), "\(path): the verdict and events kept")
        }

        // A changed file gets this scan's settings: no verdict.
        let touched = tree.audio[2]
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, touched, &times, 0) == 0)
        let third = try summary(try signalpath("scan", tree.root, "--db", database, "--format", "json"))
        #expect(third["analysed"] as? Int == 1 && third["unchanged"] as? Int == tree.audio.count - 1, "\(third)")
        #expect(try rows(database).rows[touched]?["passed"] is NSNull)
    }

    @Test("a re-scan with other analysis settings keeps the rows and says so before any work; --rescan analyses them again and counts them")
    func otherSettings() throws {
        let scratch = ScratchDirectory("scan-rescan")
        let tree = try makeTree(scratch, seed: 23)
        let database = scratch.file("r.db")
        _ = try signalpath("scan", tree.root, "--db", database)
        let stored = try rows(database).rows

        let kept = try signalpath("scan", tree.root, "--db", database, "--fft-size", "4096", "--format", "json")
        let counts = try summary(kept)
        #expect(counts["analysed"] as? Int == 0 && counts["kept_other_settings"] as? Int == tree.audio.count && counts["rescanned"] as? Int == 0, "\(counts)")
        #expect(counts["failed"] as? Int == tree.broken.count, "error rows of other settings are tried again: \(counts)")
        let notice =
            "signalpath: \(database): \(tree.audio.count) unchanged files keep their rows, made with other settings (rows: fft=8192; this scan: fft=4096): "
            + "not analysed again; --rescan analyses them with this scan's"
        let said = kept.stderr.split(separator: "\n").filter { !$0.hasPrefix("signalpath: \(tree.loop): ") }
        #expect(said.first.map(String.init) == notice, "after the walk, before the failures met by the work: \(kept.stderr)")
        let afterKept = try rows(database).rows
        for path in tree.audio { #expect(NSDictionary(dictionary: stored[path] ?? [:]).isEqual(to: afterKept[path] ?? [:]), "\(path)") }

        let rescan = try signalpath("scan", tree.root, "--db", database, "--fft-size", "4096", "--rescan", "--format", "json")
        let redone = try summary(rescan)
        #expect(redone["analysed"] as? Int == tree.audio.count && redone["rescanned"] as? Int == tree.audio.count, "\(redone)")
        #expect(redone["kept_other_settings"] as? Int == 0 && redone["failed_before"] as? Int == tree.broken.count, "\(redone)")
        let announced =
            "signalpath: \(database): \(tree.audio.count) unchanged files have rows made with other settings (rows: fft=8192; this scan: fft=4096): "
            + "--rescan analyses them again with this scan's, replacing those rows"
        #expect(rescan.stderr.contains(announced + "\n"), "\(rescan.stderr)")
        let afterRescan = try rows(database).rows
        for path in tree.audio {
            let key = afterRescan[path]?["settings_key"] as? String ?? ""
            #expect(key.contains(";fft=4096;") && (afterRescan[path]?["analyzed_at"] as? String ?? "") > (stored[path]?["analyzed_at"] as? String ?? ""), "\(path): \(key)")
        }
        let text = try signalpath("scan", tree.root, "--db", database, "--fft-size", "8192", "--rescan")
        #expect(
            text.stdout.contains("  analysed    \(tree.audio.count) (") && text.stdout.contains("; \(tree.audio.count) of them again with this scan's settings (--rescan))\n"),
            "\(text.stdout)")
        let nothing = try summary(try signalpath("scan", tree.root, "--db", database, "--rescan", "--format", "json"))
        #expect(nothing["analysed"] as? Int == 0 && nothing["rescanned"] as? Int == 0, "the same settings: nothing to do again")
    }

    /// Two databases hold the same rows: every column but `analyzed_at` equal.
    func expectEqualRows(_ left: [String: [String: Any]], _ right: [String: [String: Any]], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(Set(left.keys) == Set(right.keys), sourceLocation: sourceLocation)
        for (path, row) in left {
            var a = row, b = right[path] ?? [:]
            a["analyzed_at"] = nil
            b["analyzed_at"] = nil
            #expect(NSDictionary(dictionary: a).isEqual(to: b), "\(path)", sourceLocation: sourceLocation)
        }
    }
}
