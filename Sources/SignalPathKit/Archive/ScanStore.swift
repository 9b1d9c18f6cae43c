/// A scan's results database: the schema, its version, and the queries scan, export and merge
/// make. docs/SCAN.md documents the schema; change it only with a new `schemaVersion`, a step in
/// `migrate` and what older rows give for the new columns (`selectList`).
public final class ScanStore {
    /// The schema this signalpath writes. A database of an older version is migrated when opened
    /// for writing; one of a newer version is refused.
    public static let schemaVersion = 3
    /// `meta.application`: tells a signalpath database from any other SQLite file.
    public static let application = "signalpath.scan"

    public let database: SQLiteDatabase
    public var path: String { database.path }
    /// The schema of the rows: `schemaVersion` once opened for writing (migrated), else as stored.
    private(set) var version = ScanStore.schemaVersion
    /// The version this opening migrated the database from, to be said (`ScanNotice.migrated`);
    /// nil when it was already current, or is new.
    public private(set) var migratedFrom: Int?

    /// Opens (and when missing creates) the database at `path` for writing: write-ahead log, so
    /// readers are not blocked while a scan writes; `synchronous = NORMAL`, so a commit is a write
    /// to the log without an fsync — a killed process loses nothing committed (the kernel has the
    /// bytes), a power cut at most the last commits, never the database's integrity.
    public static func openForWriting(_ path: String) throws(SignalPathError) -> ScanStore {
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        let store = ScanStore(database: database)
        try store.prepareForWriting()
        return store
    }

    /// Opens an existing database for reading only (export, duplicates).
    public static func openForReading(_ path: String) throws(SignalPathError) -> ScanStore {
        var status = stat()
        guard stat(path, &status) == 0 else { throw SignalPathError.fromErrno(errno, path: path) }
        if status.st_mode & S_IFMT == S_IFDIR { throw SignalPathError.isDirectory(path: path) }
        let store = ScanStore(database: try SQLiteDatabase(path: path, mode: .readOnly))
        guard let version = try store.storedVersion() else {
            throw .database(path: path, reason: "not a signalpath scan database (no meta table naming \(application))", kind: .unusable)
        }
        try store.refuseNewer(version)
        store.version = version
        return store
    }

    private init(database: SQLiteDatabase) {
        self.database = database
    }

    // MARK: Schema

    private func prepareForWriting() throws(SignalPathError) {
        // journal_mode answers with a row; run() reads and drops it.
        try database.run("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = NORMAL")
        let version = try storedVersion()
        if let version {
            try refuseNewer(version)
            if version < Self.schemaVersion {
                try migrate(from: version)
                migratedFrom = version
            }
            return
        }
        let tables = try database.rows("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        guard tables.first?.first?.integer == 0 else {
            throw .database(path: path, reason: "not a signalpath scan database (it has other tables; no meta table naming \(Self.application))", kind: .unusable)
        }
        let definitions = ScanRecord.columns.map { "\($0) \(Self.columnTypes[$0] ?? "")" }.joined(separator: ",\n    ")
        try database.transaction { () throws(SignalPathError) in
            try database.execute(
                """
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE files (
                    \(definitions)
                );
                CREATE INDEX files_by_content ON files (content_sha256) WHERE content_sha256 IS NOT NULL;
                \(Self.audioMD5Index);
                """)
            try database.run("INSERT INTO meta (key, value) VALUES ('application', ?), ('schema_version', ?)", [.text(Self.application), .text(String(Self.schemaVersion))])
        }
    }

    /// The `meta` table's schema version, or nil when the database has no signalpath meta table.
    private func storedVersion() throws(SignalPathError) -> Int? {
        let hasMeta = try database.rows("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
        guard hasMeta.first?.first?.integer == 1 else { return nil }
        var application: String?, version: Int?
        try database.query("SELECT key, value FROM meta WHERE key IN ('application', 'schema_version')") { row throws(SignalPathError) in
            if row[0].text == "application" { application = row[1].text }
            if row[0].text == "schema_version" { version = row[1].text.flatMap { Int($0) } }
        }
        guard application == Self.application, let version else { return nil }
        return version
    }

    private func refuseNewer(_ version: Int) throws(SignalPathError) {
        guard version <= Self.schemaVersion else {
            throw .database(
                path: path, reason: "written by a newer signalpath (schema version \(version); this one reads up to \(Self.schemaVersion)): use that version",
                kind: .unusable)
        }
    }

    /// Each column's type and constraints in `CREATE TABLE files`.
    private static let columnTypes = [
        "path": "TEXT PRIMARY KEY", "size_bytes": "INTEGER NOT NULL", "mtime_ns": "INTEGER NOT NULL", "content_sha256": "TEXT",
        "status": "TEXT NOT NULL CHECK (status IN ('ok', 'error'))", "error_code": "INTEGER", "error_category": "TEXT", "error_message": "TEXT",
        "analyzed_at": "TEXT NOT NULL", "tool_version": "TEXT NOT NULL", "settings_key": "TEXT NOT NULL", "duration_s": "REAL",
        "integrated_lufs": "REAL", "true_peak_dbtp": "REAL", "passed": "INTEGER", "truncated": "INTEGER", "frames_promised": "INTEGER",
        "frames_present": "INTEGER", "audio_md5": "TEXT", "embedded_md5": "TEXT", "embedded_md5_status": "TEXT", "fingerprint": "TEXT",
        "fingerprint_raw": "BLOB", "fingerprint_duration_s": "REAL", "result_json": "TEXT",
    ]

    /// Exact duplicates are rows of one audio MD5: `duplicates` groups them through this index.
    private static let audioMD5Index = "CREATE INDEX files_by_audio_md5 ON files (audio_md5) WHERE audio_md5 IS NOT NULL"

    /// The columns version 2 added, and how a version 1 row gives them: its `result_json` is
    /// analyze's record, whose `format` has held the same facts since before scan existed. So a
    /// migrated row, or one read from a version 1 database (export, merge), says the same as a new one.
    private static let addedInVersion2 = [
        ("truncated", "json_extract(result_json, '$.format.truncated')"),
        ("frames_promised", "json_extract(result_json, '$.format.frames_promised')"),
        ("frames_present", "coalesce(json_extract(result_json, '$.format.frames'), json_extract(result_json, '$.range.end_frame'))"),
    ]

    /// The columns version 3 added (`scan --md5 --fingerprint`): no older scan computed them, so an
    /// older row holds NULL there, as a row of a scan without those options does.
    private static let addedInVersion3 = [
        ("audio_md5", "NULL"), ("embedded_md5", "NULL"), ("embedded_md5_status", "NULL"), ("fingerprint", "NULL"), ("fingerprint_raw", "NULL"),
        ("fingerprint_duration_s", "NULL"),
    ]

    /// Brings an older schema up to `schemaVersion`, one step per version, in one transaction.
    private func migrate(from version: Int) throws(SignalPathError) {
        guard (1..<Self.schemaVersion).contains(version) else {
            throw .database(path: path, reason: "schema version \(version) is unknown (this signalpath writes \(Self.schemaVersion))", kind: .unusable)
        }
        try database.transaction { () throws(SignalPathError) in
            if version < 2 {
                for (column, _) in Self.addedInVersion2 {
                    try database.execute("ALTER TABLE files ADD COLUMN \(column) \(Self.columnTypes[column] ?? "")")
                }
                let filled = Self.addedInVersion2.map { "\($0.0) = \($0.1)" }.joined(separator: ", ")
                try database.execute("UPDATE files SET \(filled) WHERE result_json IS NOT NULL")
            }
            if version < 3 {
                // Columns of NULL: no row is rewritten.
                for (column, _) in Self.addedInVersion3 {
                    try database.execute("ALTER TABLE files ADD COLUMN \(column) \(Self.columnTypes[column] ?? "")")
                }
                try database.execute(Self.audioMD5Index)
            }
            try database.run("UPDATE meta SET value = ? WHERE key = 'schema_version'", [.text(String(Self.schemaVersion))])
        }
    }

    /// The `files` columns as a `SELECT` of schema `version` gives them: an older database (opened
    /// for reading, so not migrated) has its newer columns worked out as a migration fills them.
    private static func selectList(version: Int) -> String {
        let derived = Dictionary(uniqueKeysWithValues: (version < 2 ? addedInVersion2 : []) + (version < 3 ? addedInVersion3 : []))
        return ScanRecord.columns.map { column in derived[column].map { "\($0) AS \(column)" } ?? column }.joined(separator: ", ")
    }

    // MARK: Rows

    private static let selectColumns = ScanRecord.columns.joined(separator: ", ")

    /// What is stored for `path`, if anything.
    public func record(at path: String) throws(SignalPathError) -> ScanRecord? {
        try database.rows("SELECT \(Self.selectColumns) FROM files WHERE path = ?", [.text(path)]).first.flatMap(ScanRecord.init(values:))
    }

    /// A successfully analysed row with `sha256` and `settingsKey` (another path with the same bytes).
    public func record(withContent sha256: String, settingsKey: String) throws(SignalPathError) -> ScanRecord? {
        try database.rows(
            // Any row will do (same bytes, same settings: same result). No ORDER BY: sorting every
            // row of a common content (10 000 copies of one silence) made each lookup O(n).
            "SELECT \(Self.selectColumns) FROM files WHERE content_sha256 = ? AND settings_key = ? AND status = 'ok' LIMIT 1",
            [.text(sha256), .text(settingsKey)]
        ).first.flatMap(ScanRecord.init(values:))
    }

    /// Inserts `record`, replacing the row of its path.
    public func store(_ record: ScanRecord) throws(SignalPathError) {
        let placeholders = Array(repeating: "?", count: ScanRecord.columns.count).joined(separator: ", ")
        try database.run("INSERT OR REPLACE INTO files (\(Self.selectColumns)) VALUES (\(placeholders))", record.values)
    }

    /// Removes the row of `path` (a file recognised under a new name).
    public func remove(_ path: String) throws(SignalPathError) {
        try database.run("DELETE FROM files WHERE path = ?", [.text(path)])
    }

    /// Every row passing `filter` (an SQL expression over the columns, or nil), in path order.
    public func forEachRecord(where filter: String?, _ body: (ScanRecord) throws(SignalPathError) -> Void) throws(SignalPathError) {
        let condition = filter.map { " WHERE (\($0))" } ?? ""
        // Over an older database the filter sees the newer columns, worked out.
        let rows = version < Self.schemaVersion ? "(SELECT \(Self.selectList(version: version)) FROM files)" : "files"
        try database.query("SELECT \(Self.selectColumns) FROM \(rows)\(condition) ORDER BY path") { values throws(SignalPathError) in
            guard let record = ScanRecord(values: values) else {
                throw .database(path: path, reason: "a row of files does not fit the schema (\(values.first?.text ?? "no path"))", kind: .unusable)
            }
            try body(record)
        }
    }

    /// Groups of paths with equal content (two or more), largest files first, paths sorted.
    public func duplicates() throws(SignalPathError) -> [(sha256: String, sizeBytes: Int64, paths: [String])] {
        var groups: [(sha256: String, sizeBytes: Int64, paths: [String])] = []
        try database.query(
            """
            SELECT content_sha256, size_bytes, path FROM files
            WHERE content_sha256 IN (SELECT content_sha256 FROM files WHERE content_sha256 IS NOT NULL GROUP BY content_sha256 HAVING count(*) > 1)
            ORDER BY size_bytes DESC, content_sha256, path
            """
        ) { row throws(SignalPathError) in
            guard let sha256 = row[0].text, let size = row[1].integer, let path = row[2].text else { return }
            if groups.last?.sha256 == sha256 {
                groups[groups.count - 1].paths.append(path)
            } else {
                groups.append((sha256, size, [path]))
            }
        }
        return groups
    }

    /// The distinct settings keys of the stored rows.
    public func settingsKeys() throws(SignalPathError) -> [String] {
        try database.rows("SELECT DISTINCT settings_key FROM files ORDER BY settings_key").compactMap { $0.first?.text }
    }

    /// Adds the rows of the database at `source` (already checked by the caller, schema version
    /// included): a path present in both keeps the row with the later `analyzed_at`. Returns the
    /// rows taken from `source`.
    public func merge(from source: String) throws(SignalPathError) -> Int {
        try database.run("ATTACH DATABASE ? AS source", [.text(source)])
        defer { try? database.execute("DETACH DATABASE source") }
        let sourceVersion = try database.rows("SELECT value FROM source.meta WHERE key = 'schema_version'").first?.first?.text.flatMap { Int($0) }
        let columns = Self.selectList(version: sourceVersion ?? Self.schemaVersion)
        let updates = ScanRecord.columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return try database.transaction { () throws(SignalPathError) in
            try database.run(
                """
                INSERT INTO files (\(Self.selectColumns)) SELECT \(columns) FROM source.files WHERE true
                ON CONFLICT (path) DO UPDATE SET \(updates) WHERE excluded.analyzed_at > files.analyzed_at
                """)
        }
    }

    /// SQLite's own check of the file (`PRAGMA integrity_check`): "ok", or what is wrong.
    public func integrityCheck() throws(SignalPathError) -> String {
        try database.rows("PRAGMA integrity_check").compactMap { $0.first?.text }.joined(separator: "; ")
    }
}
