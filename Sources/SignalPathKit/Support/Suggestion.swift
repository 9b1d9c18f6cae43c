/// "Did you mean …?": the known words nearest to a mistyped one.
public enum Suggestion {
    /// Edits (insert, delete, replace, or swap two neighbours) that turn `a` into `b`, ignoring case:
    /// the optimal string alignment distance, so `anaylze` is one edit from `analyze`.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }

    /// The candidates `word` probably meant, best first: those it begins (at least two letters),
    /// else the nearest within a third of their length (at least one edit, at most three).
    public static func nearest(to word: String, among candidates: [String]) -> [String] {
        let lowered = word.lowercased()
        if lowered.count >= 2 {
            let prefixed = candidates.filter { $0.lowercased().hasPrefix(lowered) }
            if !prefixed.isEmpty { return prefixed }
        }
        let scored = candidates.map { (candidate: $0, distance: distance(word, $0)) }
            .filter { $0.distance <= min(3, max(1, $0.candidate.count / 3)) && $0.distance < word.count }
        guard let best = scored.map(\.distance).min() else { return [] }
        return scored.filter { $0.distance == best }.map(\.candidate)
    }
}
