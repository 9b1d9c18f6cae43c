import Foundation
import Testing
import SignalPathTestSupport

/// `replaygain` on files made by the real encoders (Tests/Reference/replaygain_reference.py):
/// the tags read back by mutagen, the gains against BS.1770 recomputed in numpy from ffmpeg's
/// decode, the audio's MD5 (ffmpeg) before and after, and loudgain on copies of the same files.
@Suite("signalpath replaygain")
struct ReplayGainCLITests {
    let scratch = ScratchDirectory("replaygain-cli")

    static let formats = ["flac", "mp3", "ogg", "m4a", "opus"]
    /// The tag each format's title is read back under (mutagen's keys, upper-cased).
    static let titleKeys = ["flac": "TITLE", "mp3": "TIT2", "ogg": "TITLE", "m4a": "©NAM", "opus": "TITLE"]

    /// Two tracks per format, made once for the suite, with their independent readings.
    static let material: (scratch: ScratchDirectory, json: Data?, failure: String) = {
        let scratch = ScratchDirectory("replaygain-material")
        guard let python = which("python3") else { return (scratch, nil, "python3 is missing: run `make setup`") }
        guard let result = try? run(python, [repositoryRoot + "/Tests/Reference/replaygain_reference.py", "make", scratch.file("made")], timeout: 300),
            result.status == 0
        else { return (scratch, nil, "replaygain_reference.py failed (it needs flac, lame, vorbis-tools, opus-tools, ffmpeg, mutagen: `make setup`)") }
        return (scratch, result.stdoutData, "")
    }()

    /// A fresh copy of the material's folder for `format`: the tracks' paths in the copy.
    func copy(_ format: String, into name: String) throws -> [String] {
        _ = try materialFacts()
        let folder = scratch.file(name)
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try (1...2).map { index in
            let source = "\(Self.material.scratch.file("made"))/\(format)/track\(index).\(format)"
            let target = "\(folder)/track\(index).\(format)"
            try FileManager.default.copyItem(atPath: source, toPath: target)
            return target
        }
    }

    func materialFacts() throws -> [String: Any] {
        let data = try #require(Self.material.json, "\(Self.material.failure)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The facts of the original of a copied track (its loudness, peak and MD5).
    func facts(_ format: String, track: Int) throws -> [String: Any] {
        let files = try #require(try materialFacts()["files"] as? [String: [String: Any]])
        return try #require(files["\(Self.material.scratch.file("made"))/\(format)/track\(track).\(format)"])
    }

    func albumFacts(_ format: String) throws -> [String: Double] {
        try #require((try materialFacts()["albums"] as? [String: [String: Double]])?[format])
    }

    /// mutagen's reading of `paths`: per path its tags (upper-cased keys), raw keys, pictures and decoded MD5.
    func read(_ paths: [String]) throws -> [String: [String: Any]] {
        let result = try run("/usr/bin/env", ["python3", repositoryRoot + "/Tests/Reference/replaygain_reference.py", "read"] + paths, timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: [String: Any]])
    }

    func tag(_ file: [String: Any], _ key: String) -> String? { ((file["tags"] as? [String: [String]])?[key])?.first }

    func decibels(_ text: String?) -> Double? {
        guard let text, text.hasSuffix(" dB") else { return nil }
        return Double(text.dropLast(3))
    }

    @Test("track and album gains and peaks in each container's fields, against BS.1770 in numpy; audio, titles and pictures kept", arguments: formats)
    func againstReference(format: String) throws {
        let tracks = try copy(format, into: "reference-\(format)")
        let result = try signalpath(["replaygain", "--album"] + tracks)
        #expect(result.status == 0, "\(result.stderr)")
        let album = try albumFacts(format)
        let read = try read(tracks)
        for (index, path) in tracks.enumerated() {
            let file = try #require(read[path]), original = try facts(format, track: index + 1)
            let lufs = try #require(original["lufs"] as? Double), peak = try #require(original["sample_peak"] as? Double)
            #expect(file["md5"] as? String == original["md5"] as? String, "\(path): the decoded audio changed")
            #expect(tag(file, Self.titleKeys[format]!) == "Track \(index + 1)", "\(path): \(file)")
            if format != "ogg" && format != "m4a" { #expect(file["pictures"] as? Int == 1, "\(path): the picture is gone") }
            let keys = (file["tags"] as? [String: [String]] ?? [:]).keys
            if format == "opus" {
                // RFC 7845: Q7.8 to -23 LUFS; the integer's rounding is half a step.
                let trackGain = try #require(tag(file, "R128_TRACK_GAIN").flatMap { Double($0) }, "\(file)")
                let albumGain = try #require(tag(file, "R128_ALBUM_GAIN").flatMap { Double($0) })
                #expect(abs(trackGain / 256 - (-23 - lufs)) <= 0.05 + 0.5 / 256, "\(path): \(trackGain)")
                #expect(abs(albumGain / 256 - (-23 - album["lufs"]!)) <= 0.05 + 0.5 / 256, "\(path): \(albumGain)")
                #expect(!keys.contains { $0.hasPrefix("REPLAYGAIN") }, "\(path): \(keys.sorted())")
                continue
            }
            let trackGain = try #require(decibels(tag(file, "REPLAYGAIN_TRACK_GAIN")), "\(file)")
            let albumGain = try #require(decibels(tag(file, "REPLAYGAIN_ALBUM_GAIN")), "\(file)")
            #expect(abs(trackGain - (-18 - lufs)) <= 0.05, "\(path): \(trackGain) dB, reference \(-18 - lufs)")
            #expect(abs(albumGain - (-18 - album["lufs"]!)) <= 0.05, "\(path): album \(albumGain) dB, reference \(-18 - album["lufs"]!)")
            let trackPeak = try #require(tag(file, "REPLAYGAIN_TRACK_PEAK").flatMap { Double($0) })
            let albumPeak = try #require(tag(file, "REPLAYGAIN_ALBUM_PEAK").flatMap { Double($0) })
            #expect(abs(trackPeak / peak - 1) <= 0.01, "\(path): peak \(trackPeak), reference \(peak)")
            #expect(abs(albumPeak / album["peak"]! - 1) <= 0.01, "\(path): album peak \(albumPeak), reference \(album["peak"]!)")
            #expect(tag(file, "REPLAYGAIN_REFERENCE_LOUDNESS") == "-18.00 LUFS")
            #expect(tag(file, "REPLAYGAIN_TRACK_GAIN")?.range(of: #"^-?\d+\.\d\d dB$"#, options: .regularExpression) != nil)
            #expect(tag(file, "REPLAYGAIN_TRACK_PEAK")?.range(of: #"^\d\.\d{6}$"#, options: .regularExpression) != nil)
            #expect(!keys.contains { $0.hasPrefix("R128") })
            let raw = file["raw_keys"] as? [String] ?? []
            switch format {
            case "m4a": #expect(raw.contains("----:com.apple.iTunes:replaygain_track_gain"), "\(raw)")
            case "mp3":
                #expect(raw.contains("TXXX:REPLAYGAIN_TRACK_GAIN"), "\(raw)")
                // lame writes ID3v2.3: the version is kept, so its other frames are not converted.
                #expect((file["id3_version"] as? [Int])?.prefix(2) == [2, 3], "\(file)")
            default: break
            }
        }
    }

    @Test("gains within 0.1 dB of loudgain's on copies of the same files", arguments: formats)
    func againstLoudgain(format: String) throws {
        let loudgain = try #require(which("loudgain"), "loudgain is missing: run `make setup`")
        let ours = try copy(format, into: "ours-\(format)"), theirs = try copy(format, into: "loudgain-\(format)")
        let result = try signalpath(["replaygain", "--album", "--peak", "true"] + ours)
        #expect(result.status == 0, "\(result.stderr)")
        let ran = try run(loudgain, ["-q", "-a", "-s", "i"] + theirs, timeout: 120)
        try #require(ran.status == 0, "\(ran.stderr)")
        let mine = try read(ours), reference = try read(theirs)
        for (path, other) in zip(ours, theirs) {
            let a = try #require(mine[path]), b = try #require(reference[other])
            let keys = format == "opus" ? ["R128_TRACK_GAIN", "R128_ALBUM_GAIN"] : ["REPLAYGAIN_TRACK_GAIN", "REPLAYGAIN_ALBUM_GAIN"]
            for key in keys {
                let value: (String?) -> Double? = { text in format == "opus" ? text.flatMap { Double($0) }.map { $0 / 256 } : self.decibels(text) }
                let x = try #require(value(tag(a, key)), "\(path) \(key): \(a)"), y = try #require(value(tag(b, key)), "loudgain's \(key): \(b)")
                #expect(abs(x - y) <= 0.1 + (format == "opus" ? 1.0 / 256 : 0), "\(path) \(key): signalpath \(x), loudgain \(y)")
            }
            if format != "opus" {
                // loudgain's peaks are true peaks (libebur128's 4× interpolation).
                let x = try #require(tag(a, "REPLAYGAIN_TRACK_PEAK").flatMap { Double($0) }), y = try #require(tag(b, "REPLAYGAIN_TRACK_PEAK").flatMap { Double($0) })
                #expect(abs(x / y - 1) <= 0.01, "\(path) true peak: signalpath \(x), loudgain \(y)")
            }
        }
    }

    @Test("read-only, unreadable and missing files are one line each with their exit code; the others are tagged")
    func failuresGoOn() throws {
        let tracks = try copy("flac", into: "failures")
        let readOnly = scratch.file("failures/read-only.flac"), notAudio = scratch.file("failures/not-audio.flac")
        try FileManager.default.copyItem(atPath: tracks[1], toPath: readOnly)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)
        let before = try Data(contentsOf: URL(fileURLWithPath: readOnly))
        try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: notAudio))
        let missing = scratch.file("failures/missing.flac")
        let result = try signalpath("replaygain", readOnly, tracks[0], notAudio, missing)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("signalpath: \(readOnly): the file is read-only"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("signalpath: \(notAudio): ") }, "\(lines)")
        #expect(lines.contains("signalpath: \(missing): no such file"), "\(lines)")
        #expect(lines.count == 3, "\(lines)")
        #expect(result.status == 73, "the first failure's code (read-only: 73)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: readOnly)) == before)
        #expect(tag(try #require(try read([tracks[0]])[tracks[0]]), "REPLAYGAIN_TRACK_GAIN") != nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.file("failures")).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    @Test("--dry-run reports the fields in JSON and writes nothing")
    func dryRun() throws {
        let tracks = try copy("mp3", into: "dry-run")
        let before = try tracks.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let result = try signalpath(["replaygain", "--dry-run", "--album", "--format", "json"] + tracks)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try tracks.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        let files = try #require(try json(result)["files"] as? [[String: Any]])
        #expect(files.count == 2)
        let first = try #require(files.first), lufs = try #require(try facts("mp3", track: 1)["lufs"] as? Double)
        #expect(first["status"] as? String == "would_write")
        #expect(abs((first["track_gain_db"] as? Double ?? 0) - (-18 - lufs)) <= 0.05)
        let fields = try #require(first["fields"] as? [String: String])
        #expect(fields["REPLAYGAIN_TRACK_GAIN"] != nil && fields["REPLAYGAIN_ALBUM_GAIN"] != nil, "\(fields)")
    }

    @Test("CSV: a row per file with the JSON's values at the tags' decimals (gains 2, peaks 6), the gain as the tag writes it")
    func table() throws {
        let tracks = try copy("flac", into: "table")
        let files = try #require(try json(try signalpath(["replaygain", "--dry-run", "--album", "--format", "json"] + tracks))["files"] as? [[String: Any]])
        let csv = try signalpath(["replaygain", "--dry-run", "--album", "--format", "csv"] + tracks)
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = [
            "path", "container", "status", "loudness_lufs", "track_gain_db", "track_peak", "album_loudness_lufs", "album_gain_db", "album_peak", "peak",
        ]
        #expect(lines.first == header && lines.count == files.count + 1, "\(csv.stdout)")
        for (row, file) in zip(lines.dropFirst(), files) {
            let column = Dictionary(uniqueKeysWithValues: zip(header, row))
            #expect(column["path"] == file["path"] as? String && column["status"] == "would_write" && column["container"] == "flac")
            for (key, decimals) in [("loudness_lufs", 2), ("track_gain_db", 2), ("track_peak", 6), ("album_gain_db", 2), ("album_peak", 6)] {
                let value = try #require(file[key] as? Double, "\(key)")
                #expect(abs((Double(column[key] ?? "") ?? .nan) - value) <= 0.5 * pow(10, -Double(decimals)) + 1e-12, "\(key): \(column[key] ?? "")")
            }
            #expect((file["fields"] as? [String: String])?["REPLAYGAIN_TRACK_GAIN"] == "\(column["track_gain_db"] ?? "") dB")
        }
    }

    @Test("a directory's folders are albums; current files are skipped, by their tags or by --db, and a changed album is measured again")
    func easyMode() throws {
        let flac = try copy("flac", into: "library/a"), opus = try copy("opus", into: "library/b")
        let library = scratch.file("library"), database = scratch.file("library.sqlite")
        let first = try signalpath("replaygain", library, "--format", "json")
        #expect(first.status == 0, "\(first.stderr)")
        let statuses = { (result: ProcessResult) throws -> [String] in
            try #require(try json(result)["files"] as? [[String: Any]]).map { $0["status"] as? String ?? "" }
        }
        #expect(try statuses(first) == ["written", "written", "written", "written"])
        let read = try read(flac + opus)
        #expect(tag(try #require(read[flac[0]]), "REPLAYGAIN_ALBUM_GAIN") == tag(try #require(read[flac[1]]), "REPLAYGAIN_ALBUM_GAIN"))
        #expect(tag(try #require(read[opus[0]]), "R128_ALBUM_GAIN") != nil)
        let stamp = try FileManager.default.attributesOfItem(atPath: flac[0])[.modificationDate] as? Date
        #expect(try statuses(try signalpath("replaygain", library, "--format", "json")) == ["current", "current", "current", "current"])
        #expect(try FileManager.default.attributesOfItem(atPath: flac[0])[.modificationDate] as? Date == stamp)
        // --db knows nothing yet: every file is measured and recorded, then current without being read.
        #expect(try statuses(try signalpath("replaygain", library, "--db", database, "--format", "json")) == ["written", "written", "written", "written"])
        #expect(try statuses(try signalpath("replaygain", library, "--db", database, "--format", "json")) == ["current", "current", "current", "current"])
        // A track changed: its whole album is measured again (the album gain depends on it).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: opus[1])
        #expect(try statuses(try signalpath("replaygain", library, "--db", database, "--format", "json")) == ["current", "current", "written", "written"])
    }

    @Test("--album adds the album fields, --peak true reads the true peak, --retag rewrites current tags, --output takes the report")
    func options() throws {
        let tracks = try copy("ogg", into: "options")
        func first(_ arguments: [String]) throws -> [String: Any] {
            let result = try signalpath(["replaygain", "--format", "json"] + arguments + tracks)
            #expect(result.status == 0, "\(result.stderr)")
            return try #require((try json(result)["files"] as? [[String: Any]])?.first)
        }
        let plain = try first(["--dry-run"]), album = try first(["--dry-run", "--album"]), truePeak = try first(["--dry-run", "--peak", "true"])
        #expect((plain["fields"] as? [String: String])?["REPLAYGAIN_ALBUM_GAIN"] == nil && plain["album_gain_db"] is NSNull)
        #expect((album["fields"] as? [String: String])?["REPLAYGAIN_ALBUM_GAIN"] != nil)
        let samplePeak = try #require(plain["track_peak"] as? Double), reading = try #require(truePeak["track_peak"] as? Double)
        #expect(reading > samplePeak && reading < samplePeak * 1.12, "true peak \(reading), sample peak \(samplePeak)")
        #expect(try first([])["status"] as? String == "written")
        #expect(try first([])["status"] as? String == "current")
        #expect(try first(["--retag"])["status"] as? String == "written")
        let report = scratch.file("options/report.json")
        let written = try signalpath(["replaygain", "--dry-run", "--output", report] + tracks)
        #expect(written.status == 0 && written.stdout.isEmpty)
        #expect((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])?["schema"] as? String == "signalpath.replaygain/1")
    }

    @Test("--jobs 1 and --jobs 4 write the same bytes and report the same, to the last bit and in the same order, on an album of every container")
    func sameForAnyJobs() throws {
        var reports: [[(name: String, entry: [String: Any])]] = [], albums: [[String]] = []
        for jobs in [1, 4] {
            let tracks = try Self.formats.flatMap { try copy($0, into: "jobs-\(jobs)/\($0)") }
            let result = try signalpath(["replaygain", "--album", "--jobs", "\(jobs)", "--format", "json"] + tracks)
            #expect(result.status == 0, "\(result.stderr)")
            let files = try #require(try json(result)["files"] as? [[String: Any]])
            // Named by the track's place in the album: the folders differ.
            reports.append(files.map { (String(($0["path"] as? String ?? "").split(separator: "/").suffix(2).joined(separator: "/")), $0) })
            albums.append(tracks)
        }
        #expect(reports[0].count == 10 && reports[0].map(\.name) == reports[1].map(\.name), "\(reports.map { $0.map(\.name) })")
        for (one, four) in zip(reports[0], reports[1]) {
            #expect(one.entry["status"] as? String == "written", "\(one.name): \(one.entry)")
            for key in ["loudness_lufs", "track_peak", "album_loudness_lufs", "album_peak"] {
                let once = one.entry[key] as? Double, fourfold = four.entry[key] as? Double
                #expect(once != nil && once == fourfold, "\(one.name) \(key): \(once ?? .nan) with --jobs 1, \(fourfold ?? .nan) with --jobs 4")
            }
        }
        for (one, four) in zip(albums[0], albums[1]) {
            #expect(FileManager.default.contentsEqual(atPath: one, andPath: four), "\(one) and \(four) differ")
        }
    }

    /// White noise made by sox, `seconds` long, in the scratch folder `moves`: its path.
    func noise(_ name: String, seconds: Int, compression: String) throws -> String {
        let folder = scratch.file("moves")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/\(name)"
        try? FileManager.default.removeItem(atPath: path)
        let made = try run("/usr/bin/env", ["sox", "-n", "-r", "44100", "-c", "2", "-C", compression, path, "synth", "\(seconds)", "whitenoise", "vol", "0.5"], timeout: 60)
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    func size(_ path: String) throws -> Int { try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) }

    @Test("a tag that grows moves the audio of a FLAC without padding whole, megabyte after megabyte")
    func growingTag() throws {
        let track = try noise("grows.flac", seconds: 30, compression: "5")
        let stripped = try run("/usr/bin/env", ["metaflac", "--remove", "--block-type=PADDING", "--dont-use-padding", track], timeout: 60)
        try #require(stripped.status == 0 && (try size(track)) > 2_500_000, "\(stripped.stderr)")
        let before = try #require(try read([track])[track])
        let result = try signalpath("replaygain", track)
        #expect(result.status == 0, "\(result.stderr)")
        let after = try #require(try read([track])[track])
        #expect(after["md5"] as? String == before["md5"] as? String, "the decoded audio changed")
        #expect(decibels(tag(after, "REPLAYGAIN_TRACK_GAIN")) != nil, "\(after)")
    }

    @Test("a tag that shrinks (a stale field of 100 kB replaced) moves the Ogg pages after it back, the audio whole")
    func shrinkingTag() throws {
        let track = try noise("shrinks.ogg", seconds: 45, compression: "10")
        let stale = "REPLAYGAIN_TRACK_GAIN=\(String(repeating: "9", count: 100_000)) dB"
        let added = try run("/usr/bin/env", ["vorbiscomment", "-a", "-t", "TITLE=Noise", "-t", stale, track], timeout: 60)
        try #require(added.status == 0 && (try size(track)) > 2_000_000, "\(added.stderr)")
        let before = try #require(try read([track])[track]), bytes = try size(track)
        let result = try signalpath("replaygain", track)
        #expect(result.status == 0, "\(result.stderr)")
        let after = try #require(try read([track])[track])
        #expect(after["md5"] as? String == before["md5"] as? String, "the decoded audio changed")
        #expect(tag(after, "TITLE") == "Noise" && decibels(tag(after, "REPLAYGAIN_TRACK_GAIN")) != nil, "\(after)")
        let shrunk = try size(track)
        #expect(shrunk < bytes - 99_000, "\(bytes) bytes before, \(shrunk) after")
    }

    @Test("Opus: R128_TRACK_GAIN is relative to the header's output gain (RFC 7845), which the decoded loudness includes")
    func opusOutputGain() throws {
        let tracks = try copy("opus", into: "output-gain")
        let gained = scratch.file("output-gain/gained.opus")
        let made = try run(
            "/usr/bin/env", ["python3", repositoryRoot + "/Tests/Reference/replaygain_reference.py", "opus-gain", tracks[0], gained, "-6"], timeout: 120)
        try #require(made.status == 0, "\(made.stderr)")
        let lufs = try #require((try JSONSerialization.jsonObject(with: made.stdoutData) as? [String: Double])?["lufs"])
        let result = try signalpath("replaygain", tracks[0], gained)
        #expect(result.status == 0, "\(result.stderr)")
        let read = try read([tracks[0], gained])
        let plainFile = try #require(read[tracks[0]]), gainedFile = try #require(read[gained])
        let plain = try #require(tag(plainFile, "R128_TRACK_GAIN").flatMap { Double($0) })
        let withGain = try #require(tag(gainedFile, "R128_TRACK_GAIN").flatMap { Double($0) })
        #expect(abs(withGain / 256 - (-23 - lufs)) <= 0.05 + 0.5 / 256, "\(withGain), reference \((-23 - lufs) * 256)")
        // The header already takes 6 dB off: the tag gives back 6 dB more than the plain file's.
        #expect(abs(withGain - plain - 6 * 256) <= 1, "\(withGain) against \(plain)")
    }
}
