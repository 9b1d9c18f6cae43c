import ArgumentParser
import SignalPathKit

struct ReplayGainCommand: AsyncParsableCommand, DataCommand {
    static let configuration = CommandConfiguration(
        commandName: "replaygain",
        _superCommandName: "signalpath",
        abstract: "Write ReplayGain 2.0 tags (R128 gains in Opus): track and album gain and peak, for players to level by.",
        discussion: """
            Each file's integrated loudness (ITU-R BS.1770-4, as analyze measures it) becomes \
            REPLAYGAIN_TRACK_GAIN (-18 LUFS minus the loudness, "-3.83 dB"), \
            REPLAYGAIN_TRACK_PEAK (the sample peak, linear, 1.000000 at full scale; --peak true \
            for the true peak) and REPLAYGAIN_REFERENCE_LOUDNESS ("-18.00 LUFS"). With --album, \
            the files named are one album: REPLAYGAIN_ALBUM_GAIN from all their gating blocks \
            gated together (as ReplayGain 2.0, rsgain and loudgain compute it, not an average of \
            the tracks) and REPLAYGAIN_ALBUM_PEAK, the largest track peak. A directory is walked \
            (FLAC, Ogg, Opus, MP3, M4A by extension) and each folder in it is an album, as in \
            rsgain's easy mode.

            Where the fields go: Vorbis comments (FLAC, Ogg Vorbis), ID3v2 TXXX frames (MP3; the \
            tag's version is kept, v2.4 for a new tag; an APEv2 tag the file has gets them too), \
            iTunes freeform atoms ----:com.apple.iTunes:replaygain_track_gain (M4A). Opus gets \
            R128_TRACK_GAIN and R128_ALBUM_GAIN (RFC 7845: Q7.8 dB to -23 LUFS on top of the \
            header's output gain) and never REPLAYGAIN_* fields. Other tags, pictures and the \
            audio stay as they were: the file is copied beside itself, TagLib rewrites the copy, \
            which is renamed over the original (a signal or failure leaves the original whole).

            Files whose tags are current (written with the same settings: album or not, the \
            same album with --db) are not measured again; --retag measures and writes them all. \
            With --db FILE (a SQLite database, a scan database too) a file is current when its \
            size and time are those recorded after signalpath tagged it, without reading it; \
            without, when it holds the fields these settings write.

            --dry-run measures and reports what would be written, writing nothing. The report \
            gives each file's loudness and fields; --format json (schema signalpath.replaygain/1) \
            per file path, container, status (written, would_write, current), loudness_lufs, \
            track_gain_db, track_peak, album_loudness_lufs, album_gain_db, album_peak, fields; \
            --format csv the same but fields, a row per file. See docs/REPLAYGAIN.md.

            Exit status: 0 when every file was tagged (or current); a file that cannot be read \
            or written is one line on standard error (signalpath: FILE: reason) and the others \
            go on: 65 not audio or not taggable, 66 missing or unreadable, 73 read-only or the \
            tags could not be written, 74 a read error; the first failure's code is the exit code.

            Examples:
              signalpath replaygain track.flac
              signalpath replaygain --album cd1/*.flac
              signalpath replaygain ~/Music --db ~/Music/loudness.sqlite
              signalpath replaygain --dry-run --format json album/
            """
    )
    static let name = "replaygain"
    static let formats: [OutputFormat] = [.text, .csv, .tsv, .json, .ndjson]
    static let view = TerminalView.report
    static let schema = "signalpath.replaygain/1"

    /// Which peak the _PEAK fields hold.
    enum PeakKind: String, ExpressibleByArgument, CaseIterable {
        case sample, `true`
    }

    @Argument(help: "Audio files (FLAC, Ogg Vorbis, Opus, MP3, M4A) or directories, whose folders are albums.")
    var inputs: [String]

    @Flag(name: .long, help: "The files named are one album: album gain and peak too.")
    var album = false

    @Flag(name: .customLong("dry-run"), help: "Measure and report what would be written; write nothing.")
    var dryRun = false

    @Option(name: .long, help: ArgumentHelp("What the _PEAK fields hold: sample (the largest sample) or true (BS.1770-4's 4× true peak).", valueName: "kind"))
    var peak = PeakKind.sample

    @Flag(name: .long, help: "Measure and write files whose tags are current too.")
    var retag = false

    @Option(name: .long, help: ArgumentHelp("A SQLite database (made when missing) that remembers the files tagged, so that current ones are not read again.", valueName: "file"))
    var db: String?

    @OptionGroup var output: OutputOptions<ReplayGainCommand>
    @OptionGroup var jobs: JobOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name at least one file or directory.") }
        if inputs.contains("-") { throw ValidationError("replaygain rewrites files in place: standard input (`-`) cannot be tagged.") }
        if retag && db == nil && dryRun { throw ValidationError("--retag with --dry-run changes nothing: --dry-run already measures every file.") }
        try output.check(inputs: inputs)
    }

    func run() async throws {
        var writer = try ResultWriter(output: output, schema: Self.schema)
        let plan = ReplayGainPlan(inputs: inputs, album: album)
        for problem in plan.problems { writer.failed(problem) }
        let ledger: ReplayGainLedger?
        do throws(SignalPathError) {
            ledger = try db.map { path throws(SignalPathError) in try ReplayGainLedger(path: path) }
        } catch {
            throw ExitCode(ExitStatus.report(error))
        }
        var counts = Counts()
        for group in plan.albums {
            await tag(group, ledger: ledger, writer: &writer, counts: &counts)
        }
        let closing = "\(counts.written) \(dryRun ? "to write" : "written"), \(counts.current) current, \(counts.failed) failed"
        let summary = JSONValue.object([
            .init("files", .number(Double(counts.files))), .init(dryRun ? "would_write" : "written", .number(Double(counts.written))),
            .init("current", .number(Double(counts.current))), .init("failed", .number(Double(counts.failed))),
        ])
        try writer.finish(summary: summary, closingLine: counts.files > 1 ? closing : nil)
    }

    private struct Counts {
        var files = 0, written = 0, current = 0, failed = 0
    }

    /// What one track came to: its container and loudness, or why not.
    private struct Measured: Sendable {
        let path: String
        let container: TagContainer
        let loudness: TrackLoudness
    }

    /// Files rewritten at once per worker: a rewrite mostly waits for its flush. At most 32 in all:
    /// each holds a copy on disk and three descriptors.
    private static let writersPerWorker = 4, writersAtMost = 32

    private var settingsKey: String { "replaygain2;peak=\(peak.rawValue)" }

    /// One album (or group of tracks tagged alone): skipped when current, else measured side by
    /// side, then written in the order named.
    private func tag(_ group: ReplayGainPlan.Album, ledger: ReplayGainLedger?, writer: inout ResultWriter, counts: inout Counts) async {
        let albumKey = group.isAlbum ? ReplayGainLedger.albumKey(group.tracks) : nil
        let settings = settingsKey + (group.isAlbum ? ";album" : "")
        var pending = group.tracks
        if !retag && !dryRun {
            let current = await currentTracks(group, ledger: ledger, settings: settings, albumKey: albumKey)
            // An album is measured whole or not at all: its gain depends on every track.
            if group.isAlbum ? current.count == group.tracks.count : true {
                for path in group.tracks where current.contains(path) {
                    counts.files += 1
                    counts.current += 1
                    report(path: path, status: .current, gain: nil, writer: &writer)
                }
                pending = group.isAlbum ? [] : group.tracks.filter { !current.contains($0) }
            }
        }
        guard !pending.isEmpty else { return }
        let workers = jobs.workers, writes = !dryRun
        // Tracks side by side first: a track split between workers costs each part's seek and
        // filter settling, so only the workers left over split tracks.
        let workersPerTrack = max(1, workers / pending.count)
        var results: [Result<Measured, SignalPathError>] = []
        await forEachFileInOrder(pending, workers: workers) { path throws(SignalPathError) in
            let file = try await AudioFile.load(path)
            guard let container = TagContainer(format: file.format) else {
                throw .unrecognizedFormat(path: path, reason: "replaygain writes tags into FLAC, Ogg Vorbis, Opus, MP3 and MP4/M4A, not \(file.format.container.displayName)")
            }
            // A file that cannot be written is refused before it is measured.
            if writes { try TagRewrite.checkWritable(path) }
            return Measured(path: path, container: container, loudness: try await TrackLoudness.measure(file, workers: workersPerTrack))
        } deliver: {
            results.append($0)
        }
        let measured = results.compactMap { try? $0.get() }.filter { $0.loudness.integrated != nil }
        let albumValues: (loudness: Double, peak: Double)? =
            group.isAlbum ? TrackLoudness.albumLoudness(measured.map(\.loudness)).map { ($0, measured.map { peakValue($0.loudness) }.max() ?? 0) } : nil
        let gains: [Result<ReplayGain, SignalPathError>] = results.map { result in
            result.flatMap { track in
                guard let integrated = track.loudness.integrated else {
                    return .failure(.invalidRequest(path: track.path, reason: "no loudness to level: silent, or shorter than 0.4 s"))
                }
                return .success(ReplayGain(path: track.path, container: track.container, trackLoudness: integrated, trackPeak: peakValue(track.loudness), album: albumValues))
            }
        }
        // The files are rewritten side by side too, each on a thread of its own: a copy, TagLib and
        // an fsync, mostly waiting on the disk, and flushes made together share the file system's
        // journal commits (docs/DECISIONS.md#replaygain-flush). Reported, and recorded in the
        // ledger, in the order named.
        var planned: [String: ReplayGain] = [:]
        for case .success(let gain) in gains { planned[gain.path] = gain }
        let toWrite = gains.compactMap { try? $0.get().path }
        var written: [String: Result<ReplayGain, SignalPathError>] = [:]
        if writes {
            let work = planned
            await forEachFileInOrder(toWrite, workers: min(workers * Self.writersPerWorker, Self.writersAtMost)) { path throws(SignalPathError) in
                let gain = work[path]!
                return try await onOwnThread {
                    Result { () throws(SignalPathError) in
                        try TagRewrite.rewrite(path, container: gain.container, removing: ReplayGain.managedKeys(gain.container), setting: gain.fields)
                        return gain
                    }
                }.get()
            } deliver: { result in
                if case .success(let gain) = result { written[gain.path] = result } else if case .failure(let error) = result { written[error.path] = result }
            }
        }
        for result in gains {
            counts.files += 1
            do throws(SignalPathError) {
                var gain = try result.get()
                if writes {
                    gain = try written[gain.path]!.get()
                    try ledger?.record(gain.path, settings: settings, album: albumKey, gain: gain)
                }
                counts.written += 1
                report(path: gain.path, status: writes ? .written : .wouldWrite, gain: gain, writer: &writer)
            } catch {
                counts.failed += 1
                writer.failed(error)
            }
        }
    }

    private func peakValue(_ loudness: TrackLoudness) -> Double { peak == .true ? loudness.truePeak : loudness.samplePeak }

    /// The tracks of `group` whose tags are current: by the ledger, or by the fields they hold.
    private func currentTracks(_ group: ReplayGainPlan.Album, ledger: ReplayGainLedger?, settings: String, albumKey: String?) async -> Set<String> {
        var current = Set<String>()
        for path in group.tracks {
            do throws(SignalPathError) {
                if let ledger {
                    if try ledger.isCurrent(path, settings: settings, album: albumKey) { current.insert(path) }
                    continue
                }
                let file = try await AudioFile.load(path)
                guard let container = TagContainer(format: file.format) else { continue }
                let expected = ReplayGain(path: path, container: container, trackLoudness: 0, trackPeak: 0, album: group.isAlbum ? (0, 0) : nil)
                if expected.isCurrent(in: try TagLibrary.fields(of: path, container: container)) { current.insert(path) }
            } catch {
                // Measured (and reported) as any other file.
            }
        }
        return current
    }

    private func report(path: String, status: ReplayGainOutcome.Status, gain: ReplayGain?, writer: inout ResultWriter) {
        do throws(SignalPathError) {
            try writer.write(ReplayGainOutcome(path: path, status: status, gain: gain, peak: peak.rawValue))
        } catch {
            writer.failed(error)
        }
    }
}
