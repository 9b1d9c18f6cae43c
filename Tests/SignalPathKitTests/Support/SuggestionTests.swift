import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Suggestion: edit distance and did-you-mean")
struct SuggestionTests {
    /// The optimal string alignment distance by its recursive definition (exponential; short
    /// strings only): the model the table-filling version is checked against.
    func modelDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var best = min(
            modelDistance(Array(a.dropLast()), b) + 1, modelDistance(a, Array(b.dropLast())) + 1,
            modelDistance(Array(a.dropLast()), Array(b.dropLast())) + (a.last == b.last ? 0 : 1))
        if a.count > 1, b.count > 1, a[a.count - 1] == b[b.count - 2], a[a.count - 2] == b[b.count - 1] {
            best = min(best, modelDistance(Array(a.dropLast(2)), Array(b.dropLast(2))) + 1)
        }
        return best
    }

    @Test("distances of textbook pairs; a swap of neighbours is one edit; case is ignored")
    func knownPairs() {
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("flaw", "lawn") == 2)
        #expect(Suggestion.distance("anaylze", "analyze") == 1)
        // Optimal string alignment does not edit a swapped pair again (true Damerau–Levenshtein gives 2).
        #expect(Suggestion.distance("ca", "abc") == 3)
        #expect(Suggestion.distance("", "info") == 4 && Suggestion.distance("INFO", "info") == 0)
    }

    @Test("the table agrees with the recursive definition on 500 seeded pairs of short words")
    func againstModel() {
        var generator = SeededGenerator(seed: 1965)
        let letters = Array("abc")
        for _ in 0..<500 {
            let a = (0..<Int.random(in: 0...5, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...5, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
            #expect(Suggestion.distance(String(a), String(b)) == modelDistance(a, b), "\(String(a)) → \(String(b))")
        }
    }

    @Test("nearest: prefixes first, then close misspellings; nothing for words far from all")
    func nearest() {
        let commands = ["info", "analyze", "spectrum", "spectrogram", "replay", "record"]
        #expect(Suggestion.nearest(to: "analyse", among: commands) == ["analyze"])
        #expect(Suggestion.nearest(to: "spec", among: commands) == ["spectrum", "spectrogram"])
        #expect(Suggestion.nearest(to: "rec", among: commands) == ["record"])
        #expect(Suggestion.nearest(to: "spectrun", among: commands) == ["spectrum"])
        #expect(Suggestion.nearest(to: "play", among: commands) == ["replay"])
        #expect(Suggestion.nearest(to: "frobnicate", among: commands).isEmpty)
        #expect(Suggestion.nearest(to: "x", among: commands).isEmpty, "one letter is too little to go on")
    }
}
