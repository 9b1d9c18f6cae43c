/// Matches joined into groups, transitively: a FLAC copy matching an MP3 that matches a cut copy
/// puts all three in one group, even where two of them were never compared. Each member gets its
/// start on a common timeline (offsets summed along the matches that joined it), counted from the
/// member that starts first.
public struct FingerprintGroups: Sendable {
    public struct Member: Sendable, Equatable {
        public var id: Int
        /// Where it starts on the group's timeline, in sub-fingerprints (0 for the first member).
        public var position: Int
    }

    /// Groups of two or more, each ordered by position then id; groups ordered by their first id.
    public private(set) var groups: [[Member]] = []

    /// Groups of `matches` (`FingerprintMatcher.Match`).
    public init(_ matches: [FingerprintMatcher.Match]) {
        var neighbours: [Int: [(id: Int, offset: Int)]] = [:]
        for match in matches {
            neighbours[match.first, default: []].append((match.second, match.offset))
            neighbours[match.second, default: []].append((match.first, -match.offset))
        }
        var position = [Int: Int]()
        for start in neighbours.keys.sorted() where position[start] == nil {
            // Breadth first from the lowest id, neighbours in id order: the tree of matches that
            // places each member is the same on every run.
            var members = [Member(id: start, position: 0)]
            position[start] = 0
            var next = 0
            while next < members.count {
                let here = members[next]
                next += 1
                for (id, offset) in (neighbours[here.id] ?? []).sorted(by: { $0.id < $1.id }) where position[id] == nil {
                    position[id] = here.position + offset
                    members.append(Member(id: id, position: here.position + offset))
                }
            }
            let origin = members.map(\.position).min() ?? 0
            groups.append(members.map { Member(id: $0.id, position: $0.position - origin) }.sorted { ($0.position, $0.id) < ($1.position, $1.id) })
        }
        groups.sort { $0[0].id < $1[0].id }
    }
}
