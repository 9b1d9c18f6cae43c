import Foundation
import SignalPathTestSupport
import Testing

/// `scan --md5 --fingerprint` and `duplicates` on a tree of real copies (Tests/Reference/
/// duplicate_material.py): a WAV of synthesized music, its FLAC (flac), its 128 kb/s MP3 (lame), a
/// copy cut 3 s at the start (sox) and espeak-ng speech. The stored MD5s and fingerprints are
/// checked against metaflac and fpcalc, the groups against how the files were made.
@Suite("signalpath duplicates", .serialized)
struct DuplicatesCLITests {
    let scratch = ScratchDirectory("duplicates")

    /// The tree, scanned into a fresh database: (database, name → path).
    func scanned() throws -> (database: String, files: [String: String]) {
        let root = scratch.file("tree")
        let made = try run(try #require(which("python3")), ["\(repositoryRoot)/Tests/Reference/duplicate_material.py", root], timeout: 120)
        try #require(made.status == 0, "\(made.stderr)")
        let files = try #require(try JSONSerialization.jsonObject(with: made.stdoutData) as? [String: Any])["files"] as? [String: String]
        let database = scratch.file("tree.db")
        try? FileManager.default.removeItem(atPath: database)
        let scan = try signalpath("scan", root, "--db", database, "--md5", "--fingerprint")
        try #require(scan.status == 0, "\(scan.stderr)")
        return (database, try #require(files))
    }

    /// The export's rows by path.
    func exported(_ database: String) throws -> [String: [String: Any]] {
        let export = try signalpath("export", database)
        try #require(export.status == 0, "\(export.stderr)")
        var rows: [String: [String: Any]] = [:]
        for line in export.stdout.split(separator: "\n") {
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            rows[try #require(row["path"] as? String)] = row
        }
        return rows
    }

    @Test("a WAV, its FLAC, its MP3 and a cut copy are one near group (the cut 3 s in), WAV and FLAC an exact group, the speech in none")
    func groups() throws {
        let (database, files) = try scanned()
        let result = try signalpath("duplicates", database, "--format", "json")
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result)
        #expect(report["schema"] as? String == "signalpath.duplicates/1")
        let exact = try #require(report["exact"] as? [[String: Any]])
        let exactPaths = exact.map { group in Set((group["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }) }
        #expect(exactPaths == [[files["piece.wav"]!, files["piece.flac"]!]], "\(exact)")
        let near = try #require(report["near"] as? [[String: Any]])
        try #require(near.count == 1, "\(near)")
        let members = try #require(near[0]["files"] as? [[String: Any]])
        let offsets = Dictionary(uniqueKeysWithValues: members.compactMap { member in (member["path"] as? String).map { ($0, member["offset_s"] as? Double ?? .nan) } })
        #expect(Set(offsets.keys) == Set(["piece.wav", "piece.flac", "piece.mp3", "piece-cut.wav"].map { files[$0]! }), "\(members)")
        #expect(abs((offsets[files["piece-cut.wav"]!] ?? .nan) - 3) <= 0.2, "\(offsets)")
        for name in ["piece.wav", "piece.flac", "piece.mp3"] { #expect(abs(offsets[files[name]!] ?? .nan) <= 0.2, "\(name): \(offsets)") }
        for member in members {
            let similarity = try #require(member["similarity"] as? Double)
            #expect(similarity >= 0.65 && similarity <= 1, "\(member)")
        }
        let text = try signalpath("duplicates", database)
        #expect(text.status == 0 && text.stdout.contains(files["piece-cut.wav"]!) && !text.stdout.contains(files["other.wav"]!), "\(text.stdout)")
    }

    @Test("the stored columns are metaflac's MD5 and fpcalc's fingerprint; a scan without the options keeps them; CSV leaves the raw items out")
    func columns() throws {
        let (database, files) = try scanned()
        var rows = try exported(database)
        let flac = try #require(rows[files["piece.flac"]!])
        let metaflac = try run(try #require(which("metaflac")), ["--show-md5sum", files["piece.flac"]!])
        #expect(flac["audio_md5"] as? String == metaflac.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(flac["embedded_md5_status"] as? String == "matches" && rows[files["piece.wav"]!]?["embedded_md5_status"] as? String == "none")
        #expect(rows[files["piece.mp3"]!]?["audio_md5"] is NSNull, "a lossy decode has no audio MD5")
        let fpcalc = try run(try #require(which("fpcalc")), ["-json", "-raw", files["piece.wav"]!])
        let fpcalcCompressed = try run(try #require(which("fpcalc")), ["-json", files["piece.wav"]!])
        let raw = (try json(fpcalc)["fingerprint"] as? [NSNumber])?.map(\.uint32Value)
        let compressed = try json(fpcalcCompressed)["fingerprint"] as? String
        let wav = try #require(rows[files["piece.wav"]!])
        #expect(wav["fingerprint"] as? String == compressed)
        #expect((wav["fingerprint_raw"] as? [NSNumber])?.map(\.uint32Value) == raw)
        #expect(abs((wav["fingerprint_duration_s"] as? Double ?? 0) - 24) < 0.01)
        #expect((wav["result"] as? [String: Any])?["fingerprint"] == nil, "the fingerprint is in its columns only")

        // A scan without --md5 --fingerprint keeps the rows that have them, as it keeps verdicts.
        let again = try signalpath("scan", scratch.file("tree"), "--db", database, "--format", "json")
        let summary = try json(again)
        #expect(again.status == 0 && summary["unchanged"] as? Int == 5, "\(again.stdout)")
        rows = try exported(database)
        #expect(rows[files["piece.flac"]!]?["audio_md5"] as? String == flac["audio_md5"] as? String)
        let csv = try signalpath("export", database, "--format", "csv")
        #expect(csv.stdout.hasPrefix("path,") && csv.stdout.contains(",audio_md5,") && !csv.stdout.contains("fingerprint_raw"))
    }
}
