/// What `replaygain --db` remembers of the files it tagged, in a table of its own (`replaygain`) in
/// a SQLite database (a scan database, or a new file): each file's size and modification time
/// after tagging, the settings and the album it was tagged with, and the values written. A file
/// whose size, time, settings and album are unchanged is current and is not read again.
public final class ReplayGainLedger {
    private let database: SQLiteDatabase

    public init(path: String) throws(SignalPathError) {
        database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS replaygain (
                path TEXT PRIMARY KEY, size_bytes INTEGER NOT NULL, modified_ns INTEGER NOT NULL,
                settings TEXT NOT NULL, album TEXT, loudness_lufs REAL, peak REAL,
                album_loudness_lufs REAL, album_peak REAL, fields TEXT NOT NULL)
            """)
    }

    /// A file's identity on disk: size and modification time (ns).
    public static func identity(of path: String) -> (size: Int64, modified: Int64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (Int64(status.st_size), Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }

    /// Whether `path` was tagged with `settings` as a member of `album` and has not changed since.
    public func isCurrent(_ path: String, settings: String, album: String?) throws(SignalPathError) -> Bool {
        guard let identity = Self.identity(of: path) else { return false }
        let rows = try database.rows("SELECT size_bytes, modified_ns, settings, album FROM replaygain WHERE path = ?", [.text(ScanPath.absolute(path))])
        guard let row = rows.first else { return false }
        return row[0].integer == identity.size && row[1].integer == identity.modified && row[2].text == settings && row[3].text == album
    }

    /// Records `path` as tagged now with `gain` (call after the file was rewritten).
    public func record(_ path: String, settings: String, album: String?, gain: ReplayGain) throws(SignalPathError) {
        guard let identity = Self.identity(of: path) else { return }
        let fields = gain.fields.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        _ = try database.run(
            "INSERT OR REPLACE INTO replaygain VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .text(ScanPath.absolute(path)), .integer(identity.size), .integer(identity.modified), .text(settings), album.map { .text($0) } ?? .null,
                .real(gain.trackLoudness), .real(gain.trackPeak), gain.album.map { .real($0.loudness) } ?? .null, gain.album.map { .real($0.peak) } ?? .null,
                .text(fields),
            ])
    }

    /// A name for an album: its tracks' absolute paths, sorted, hashed (FNV-1a, 64 bits).
    public static func albumKey(_ tracks: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in tracks.map(ScanPath.absolute).sorted().joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
