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

    /// The options `typed` (an option's name without its dashes) probably meant, best first, at
    /// most `limit`. Options it begins come first, the shortest completions first (`fft` →
    /// `fft-size`, `windo` → `window` before `window-size`); then those whose hyphen-separated
    /// words it begins, word for word in order (`silence` → `min-silence`, `thresh` →
    /// `silence-threshold`); both kinds are equally good guesses and are listed together. Failing
    /// those, the options within a third of their length in edits (at least one), those with every
    /// letter of `typed` in order first (a letter left out: `rae` → `rate`, not `raw`); several
    /// only when as near as each other.
    public static func nearestOptions(to typed: String, among options: [String], limit: Int = 2) -> [String] {
        let word = typed.lowercased()
        guard !word.isEmpty else { return [] }
        // Shortest first, and in the given order among names of one length.
        let shortestFirst = { (matches: [String]) in matches.enumerated().sorted { ($0.element.count, $0.offset) < ($1.element.count, $1.offset) }.map(\.element) }
        let prefixed = shortestFirst(options.filter { $0.lowercased().hasPrefix(word) })
        let worded = shortestFirst(options.filter { !prefixed.contains($0) && beginsWords(word, of: $0.lowercased()) })
        if !(prefixed + worded).isEmpty { return Array((prefixed + worded).prefix(limit)) }
        let scored = options.map { option in
            (option: option, distance: distance(word, option), dropped: isSubsequence(word, of: option.lowercased()) ? 0 : 1)
        }
        .filter { $0.distance <= max(1, min(3, $0.option.count / 3)) && $0.distance < $0.option.count }
        guard let best = scored.map({ ($0.distance, $0.dropped) }).min(by: <) else { return [] }
        let nearest = scored.filter { ($0.distance, $0.dropped) == best }.map(\.option)
        return Array(nearest.prefix(limit))
    }

    /// True when each hyphen-separated word of `typed` (two letters or more) begins a word of
    /// `option`, in order: `true-pe` and `peak` both begin words of `max-true-peak`.
    static func beginsWords(_ typed: String, of option: String) -> Bool {
        let typedWords = typed.split(separator: "-"), optionWords = option.split(separator: "-")
        guard !typedWords.isEmpty, typedWords.allSatisfy({ $0.count >= 2 }) else { return false }
        var next = optionWords.startIndex
        for typedWord in typedWords {
            guard let found = optionWords[next...].firstIndex(where: { $0.hasPrefix(typedWord) }) else { return false }
            next = found + 1
        }
        return true
    }

    /// True when every character of `word` is in `text`, in order.
    static func isSubsequence(_ word: String, of text: String) -> Bool {
        var remaining = Substring(text)
        for character in word {
            guard let found = remaining.firstIndex(of: character) else { return false }
            remaining = remaining[remaining.index(after: found)...]
        }
        return true
    }
}
