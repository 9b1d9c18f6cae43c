/// The keys a live view lists on its last line, fitted to the width: long words, then short ones,
/// then the least important hints dropped one by one — never the way out, which stays visible
/// down to a few columns (the status before it is cut instead).
public struct KeyHints: Sendable, Equatable {
    public struct Hint: Sendable, Equatable {
        public var long: String
        public var short: String
        /// Higher stays longer when the line is short; the way out is kept whatever happens.
        public var importance: Int
        public var isWayOut: Bool

        public init(_ long: String, _ short: String, importance: Int, isWayOut: Bool = false) {
            self.long = long
            self.short = short
            self.importance = importance
            self.isWayOut = isWayOut
        }
    }

    /// In the order they are shown.
    public var hints: [Hint]

    public init(_ hints: [Hint]) {
        self.hints = hints
    }

    public static let replay = KeyHints([
        Hint("space pause", "spc pause", importance: 6),
        Hint("←/→ 5 s", "←→ 5s", importance: 5),
        Hint("PgUp/PgDn 1 min", "PgUp/Dn 1m", importance: 2),
        Hint("Home/End", "Home/End", importance: 1),
        Hint("+/- speed", "+- speed", importance: 4),
        Hint("v view", "v view", importance: 3),
        Hint("q quit", "q quit", importance: .max, isWayOut: true),
    ])

    public static let record = KeyHints([
        Hint("v view", "v view", importance: 1),
        Hint("q or Ctrl-C stops and finishes the file", "q stop", importance: .max, isWayOut: true),
    ])

    static let gap = "   ", separator = " · ", shortSeparator = "  "

    /// `status` followed by as many hints as fit in `width` columns.
    public func line(status: String, width: Int) -> String {
        var shown = hints
        while true {
            for (words, separator) in [(shown.map(\.long), Self.separator), (shown.map(\.short), Self.separator), (shown.map(\.short), Self.shortSeparator)] {
                let candidate = status + Self.gap + words.joined(separator: separator)
                if candidate.count <= width { return candidate }
            }
            guard let least = shown.indices.filter({ !shown[$0].isWayOut }).min(by: { shown[$0].importance < shown[$1].importance }) else { break }
            shown.remove(at: least)
        }
        // Only the way out is left and still does not fit: cut the status, keep the way out.
        let wayOut = shown.map(\.short).joined(separator: Self.shortSeparator)
        let room = width - wayOut.count - 1
        guard room > 0 else { return String(wayOut.prefix(max(0, width))) }
        return String(status.prefix(room)) + " " + wayOut
    }
}
