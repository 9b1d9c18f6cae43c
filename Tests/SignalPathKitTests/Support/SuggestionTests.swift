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

    /// Options of three commands as they stood when the typos of issue 39 were reported.
    static let spectrumOptions = [
        "stream", "range", "start", "duration", "fft-size", "resolution", "window-size", "window", "overlap", "average", "channel", "scale",
        "min-freq", "max-freq", "smooth", "bands", "weighting", "peaks", "a4", "format", "output", "force", "jobs", "width", "height", "color",
        "size", "theme", "dpi", "style", "version", "help",
    ]
    static let eventsOptions = [
        "stream", "range", "start", "duration", "silence-threshold", "min-silence", "clip-run", "max-dc", "max-jump", "format", "output", "force",
        "jobs", "version", "help",
    ]

    @Test("options: what a name begins comes first, shortest completion first; then whole words, listed with them (the issue's typos)")
    func optionPrefixesAndWords() {
        #expect(Suggestion.nearestOptions(to: "fft", among: Self.spectrumOptions) == ["fft-size"])
        #expect(Suggestion.nearestOptions(to: "out", among: Self.spectrumOptions) == ["output"])
        #expect(Suggestion.nearestOptions(to: "silence", among: Self.eventsOptions) == ["silence-threshold", "min-silence"])
        #expect(Suggestion.nearestOptions(to: "windo", among: Self.spectrumOptions) == ["window", "window-size"])
        #expect(Suggestion.nearestOptions(to: "thresh", among: Self.eventsOptions) == ["silence-threshold"])
        #expect(Suggestion.nearestOptions(to: "freq", among: Self.spectrumOptions) == ["min-freq", "max-freq"])
        #expect(Suggestion.nearestOptions(to: "max-ju", among: Self.eventsOptions) == ["max-jump"])
        // Edit distance alone (ArgumentParser's rule) put --a4, two letters from --fft and --out, first.
        #expect(!Suggestion.nearestOptions(to: "fft", among: Self.spectrumOptions).contains("a4"))
    }

    @Test("options: failing those, misspellings within a third of the name; a letter left out beats one changed")
    func optionMisspellings() {
        #expect(Suggestion.nearestOptions(to: "profle", among: ["profile", "target-lufs", "tolerance"]) == ["profile"])
        #expect(Suggestion.nearestOptions(to: "wieghting", among: Self.spectrumOptions) == ["weighting"])
        // `rae` is one edit from both; only `rate` holds its letters in order.
        #expect(Suggestion.nearestOptions(to: "rae", among: ["raw", "rate", "channels"]) == ["rate"])
        #expect(Suggestion.nearestOptions(to: "4", among: Self.spectrumOptions) == ["a4"])
        #expect(Suggestion.nearestOptions(to: "frobnicate", among: Self.spectrumOptions).isEmpty)
        #expect(Suggestion.nearestOptions(to: "", among: Self.spectrumOptions).isEmpty)
    }

    @Test("options: at most `limit`; a typed name's case does not matter")
    func optionLimit() {
        #expect(Suggestion.nearestOptions(to: "s", among: Self.spectrumOptions).count == 2)
        #expect(Suggestion.nearestOptions(to: "s", among: Self.spectrumOptions, limit: 5) == ["size", "start", "scale", "style", "stream"])
        #expect(Suggestion.nearestOptions(to: "FFT", among: Self.spectrumOptions) == ["fft-size"])
    }
}
