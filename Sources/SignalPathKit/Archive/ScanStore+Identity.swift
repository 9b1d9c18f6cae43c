/// The identity columns read back for `duplicates`: exact copies by their audio MD5, and the
/// fingerprints one at a time (100 000 of them are 400 MB: they are indexed as they are read, and
/// only those of candidate pairs are read again).
extension ScanStore {
    /// Whether the rows can hold identity columns (schema version 3 or later).
    var holdsIdentity: Bool { version >= 3 }

    /// Rows with an audio MD5, and rows with a fingerprint.
    public func identityCounts() throws(SignalPathError) -> (hashed: Int, fingerprinted: Int) {
        guard holdsIdentity else { return (0, 0) }
        let row = try database.rows("SELECT count(audio_md5), count(fingerprint_raw) FROM files").first
        return (Int(row?[0].integer ?? 0), Int(row?[1].integer ?? 0))
    }

    /// Paths sharing an audio MD5 (two or more), with their durations: groups in MD5 order, paths sorted.
    public func exactAudioDuplicates() throws(SignalPathError) -> [(audioMD5: String, files: [(path: String, seconds: Double?)])] {
        guard holdsIdentity else { return [] }
        var groups: [(audioMD5: String, files: [(path: String, seconds: Double?)])] = []
        try database.query(
            """
            SELECT audio_md5, path, duration_s FROM files
            WHERE audio_md5 IN (SELECT audio_md5 FROM files WHERE audio_md5 IS NOT NULL GROUP BY audio_md5 HAVING count(*) > 1)
            ORDER BY audio_md5, path
            """
        ) { row throws(SignalPathError) in
            guard let md5 = row[0].text, let path = row[1].text else { return }
            if groups.last?.audioMD5 == md5 {
                groups[groups.count - 1].files.append((path, row[2].real))
            } else {
                groups.append((md5, [(path, row[2].real)]))
            }
        }
        return groups
    }

    /// Each row's fingerprint in path order: its path, duration and sub-fingerprints.
    public func forEachFingerprint(_ body: (String, Double?, [UInt32]) throws(SignalPathError) -> Void) throws(SignalPathError) {
        guard holdsIdentity else { return }
        try database.query("SELECT path, duration_s, fingerprint_raw FROM files WHERE fingerprint_raw IS NOT NULL ORDER BY path") { row throws(SignalPathError) in
            guard let path = row[0].text, let bytes = row[2].blob else { return }
            try body(path, row[1].real, ScanRecord.raw(ofBytes: bytes))
        }
    }

    /// The sub-fingerprints stored for `path` (empty when it has none).
    public func fingerprintRaw(at path: String) throws(SignalPathError) -> [UInt32] {
        let bytes = try database.rows("SELECT fingerprint_raw FROM files WHERE path = ?", [.text(path)]).first?.first?.blob
        return bytes.map(ScanRecord.raw(ofBytes:)) ?? []
    }
}
