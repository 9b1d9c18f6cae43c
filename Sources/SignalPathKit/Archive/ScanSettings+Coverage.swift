/// How a stored row's settings stand to a scan's: whether the row already holds what the scan asks
/// for, so that a scan asking for less (no `--profile`, no `--events`) keeps the verdicts and
/// events it would otherwise throw away.
extension ScanSettings {
    public enum KeyRelation: Sendable, Equatable {
        /// The same key.
        case same
        /// The same analysis, and this scan's verdict, events, audio MD5 and fingerprint if it asks
        /// for them: the row holds all this scan would store, and more.
        case covers
        /// Another analysis, another profile's verdict, or not the events or identity this scan asks for.
        case differs
    }

    /// How the row made with `stored` stands to a scan made with `current` (both `key`s).
    public static func relation(ofStored stored: String, to current: String) -> KeyRelation {
        if stored == current { return .same }
        let row = KeyParts(stored), scan = KeyParts(current)
        guard row.analysis == scan.analysis else { return .differs }
        if !scan.check.isEmpty && row.check != scan.check { return .differs }
        if scan.events != nil && row.events != scan.events { return .differs }
        if !Set(scan.identity).isSubset(of: row.identity) { return .differs }
        return .covers
    }

    /// The parts of each key the other lacks (`fft=8192` against `fft=4096`), in key order.
    public static func differences(stored: String, current: String) -> (storedOnly: [String], currentOnly: [String]) {
        let row = stored.split(separator: ";").map(String.init), scan = current.split(separator: ";").map(String.init)
        return (row.filter { !scan.contains($0) }, scan.filter { !row.contains($0) })
    }

    /// A key cut into what the analysis pass does, the check's rules, the events part (with the
    /// rules' version: events of other rules do not stand for this scan's) and the identity parts
    /// (`md5`, `fingerprint=SECONDS`: a fingerprint of other seconds does not stand for this scan's).
    private struct KeyParts {
        var analysis: [String] = []
        var check: [String] = []
        var events: String?
        var identity: [String] = []

        init(_ key: String) {
            for part in key.split(separator: ";").map(String.init) {
                if part == "events" || part.hasPrefix("events/") {
                    events = part
                } else if part == "md5" || part.hasPrefix("fingerprint=") {
                    identity.append(part)
                } else if ["check=", "target=", "mono-target=", "max-true-peak="].contains(where: { part.hasPrefix($0) }) {
                    check.append(part)
                } else {
                    analysis.append(part)
                }
            }
        }
    }
}
