/// What `signalpath duplicates` finds in a scan database: exact copies (one audio MD5, whatever the
/// container or tags) and near copies (Chromaprint fingerprints that match: transcodes, cuts),
/// grouped transitively (docs/DUPLICATES.md).
public struct AudioDuplicates: Sendable {
    public struct File: Sendable, Equatable {
        public var path: String
        public var seconds: Double?
    }

    public struct ExactGroup: Sendable, Equatable {
        public var audioMD5: String
        public var files: [File]
    }

    public struct NearMember: Sendable, Equatable {
        public var file: File
        /// Where it starts in the group's first member (which starts first), seconds.
        public var offsetSeconds: Double
        /// Its similarity to the first member at that offset (1 for the first); nil when the two
        /// overlap too little to compare (it joined through others).
        public var similarity: Double?
    }

    public var exact: [ExactGroup] = []
    public var near: [[NearMember]] = []
    /// Rows with an audio MD5, and with a fingerprint.
    public var hashedFiles = 0
    public var fingerprintedFiles = 0
    /// The pairs the index proposed, and those that matched.
    public var candidatePairs = 0
    public var matches = 0
    public var matcher: FingerprintMatcher

    /// A fingerprint whose masked sub-fingerprints change fewer times than this (silence, a steady
    /// tone) is not indexed: it would match every other such file and identify nothing.
    static let minimumKeyChanges = 8

    /// Reads `store`'s identity columns and groups them. Memory: the index (8 bytes per posting,
    /// about 240 per fingerprint of 120 s: 2 KB), the paths, and the sub-fingerprints of the files in
    /// candidate pairs only (4 bytes each, about 1 000 per file).
    public static func find(in store: ScanStore, matcher: FingerprintMatcher = FingerprintMatcher()) throws(SignalPathError) -> AudioDuplicates {
        var found = AudioDuplicates(matcher: matcher)
        (found.hashedFiles, found.fingerprintedFiles) = try store.identityCounts()
        found.exact = try store.exactAudioDuplicates().map { group in
            ExactGroup(audioMD5: group.audioMD5, files: group.files.map { File(path: $0.path, seconds: $0.seconds) })
        }
        var index = FingerprintMatcher.Index()
        var files: [File] = []
        try store.forEachFingerprint { path, seconds, raw throws(SignalPathError) in
            guard files.count < FingerprintMatcher.Index.capacity else {
                throw .database(path: store.path, reason: "more than \(FingerprintMatcher.Index.capacity - 1) fingerprinted rows: split the database", kind: .unusable)
            }
            files.append(File(path: path, seconds: seconds))
            raw.withUnsafeBufferPointer { raw in
                var changes = 0
                for position in raw.indices.dropFirst() where raw[position] >> 4 != raw[position - 1] >> 4 { changes += 1 }
                index.add(changes >= minimumKeyChanges ? raw : UnsafeBufferPointer(rebasing: raw[0..<0]))
            }
        }
        let pairs = matcher.candidates(&index)
        found.candidatePairs = pairs.count
        // Only the fingerprints of candidate pairs are read again.
        var raws: [Int: [UInt32]] = [:]
        func raw(_ id: Int) throws(SignalPathError) -> [UInt32] {
            if let known = raws[id] { return known }
            let loaded = try store.fingerprintRaw(at: files[id].path)
            raws[id] = loaded
            return loaded
        }
        var matches: [FingerprintMatcher.Match] = []
        for pair in pairs {
            if let match = matcher.verify(try raw(pair.first), try raw(pair.second), near: pair.offset) {
                matches.append(FingerprintMatcher.Match(first: pair.first, second: pair.second, offset: match.offset, similarity: match.similarity, overlap: match.overlap))
            }
        }
        found.matches = matches.count
        for group in FingerprintGroups(matches).groups {
            let first = try raw(group[0].id)
            found.near.append(
                try group.map { member throws(SignalPathError) in
                    let similarity =
                        member.id == group[0].id
                        ? 1 : FingerprintMatcher(minimumSimilarity: 0, minimumOverlap: matcher.minimumOverlap).verify(first, try raw(member.id), near: member.position)?.similarity
                    return NearMember(file: files[member.id], offsetSeconds: Double(member.position) * FingerprintMatcher.itemSeconds, similarity: similarity)
                })
        }
        return found
    }
}
