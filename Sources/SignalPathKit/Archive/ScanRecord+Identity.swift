/// A row's identity columns (`--md5`, `--fingerprint`): what `duplicates` groups by, in columns of
/// their own rather than inside `result_json`, so that 100 000 rows are read without parsing JSON.
extension ScanRecord {
    /// The columns of `analysis`'s audio MD5 and fingerprint, for the parts its settings asked for.
    mutating func setIdentity(from analysis: SignalAnalysis) {
        if analysis.settings.computesAudioMD5 {
            audioMD5 = analysis.audioMD5
            embeddedMD5 = analysis.embeddedMD5?.value
            // check --require-md5's finding, as a word: none, unset, matches, mismatch, not_compared.
            embeddedMD5Status = String(DeliveryVerdict.embeddedMD5Finding(analysis).finding.map { $0 == " " ? "_" : $0 })
        }
        if let print = analysis.fingerprint {
            fingerprint = print.compressed
            fingerprintRaw = print.raw
            fingerprintSeconds = print.seconds
        }
    }

    /// `analyze`'s JSON members as a row stores them: the fingerprint, whose raw sub-fingerprints
    /// are some 10 KB of text for 120 s, is in its columns only.
    static func storedMembers(_ members: [JSONValue.Member]) -> [JSONValue.Member] {
        members.filter { $0.key != "fingerprint" }
    }

    /// Sub-fingerprints as `fingerprint_raw` holds them: 4 bytes each, little-endian.
    static func bytes(ofRaw raw: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count * 4)
        for item in raw {
            bytes += [UInt8(truncatingIfNeeded: item), UInt8(truncatingIfNeeded: item >> 8), UInt8(truncatingIfNeeded: item >> 16), UInt8(truncatingIfNeeded: item >> 24)]
        }
        return bytes
    }

    /// `fingerprint_raw`'s bytes as sub-fingerprints (a trailing partial item is dropped).
    public static func raw(ofBytes bytes: [UInt8]) -> [UInt32] {
        (0..<bytes.count / 4).map { index in
            let at = index * 4
            return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
    }
}
