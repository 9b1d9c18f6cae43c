import SignalPathTestSupport
import Testing

@testable import SignalPathKit

/// The matcher's index finds what comparing every pair at every offset finds: seeded random
/// fingerprints with near copies planted at known offsets (cuts at the start, silence-free
/// padding) and bit-flip rates (the transcodes' range measured in docs/DUPLICATES.md), chains of
/// copies of copies, and unrelated fingerprints. The groups and each member's position must be
/// the brute force's.
@Suite("FingerprintMatcher against all pairs")
struct FingerprintMatcherTests {
    /// A copy of `source` that starts `shift` items later (a cut; negative: `-shift` new items in
    /// front) with each bit flipped with probability `flips`.
    func copy(_ source: [UInt32], shift: Int, flips: Double, using random: inout SeededGenerator) -> [UInt32] {
        let body = shift >= 0 ? Array(source.dropFirst(shift)) : (0..<(-shift)).map { _ in UInt32.random(in: .min ... .max, using: &random) } + source
        return body.map { item in
            var flipped = item
            for bit in 0..<32 where Double.random(in: 0..<1, using: &random) < flips { flipped ^= 1 << UInt32(bit) }
            return flipped
        }
    }

    /// Every pair at every offset overlapping at least `minimumOverlap`: the best similarity, a
    /// match when it reaches the threshold; groups by union of matches, members by planted ids.
    func bruteForceGroups(_ prints: [[UInt32]], _ matcher: FingerprintMatcher) -> Set<Set<Int>> {
        var parent = Array(prints.indices)
        func root(_ id: Int) -> Int { parent[id] == id ? id : root(parent[id]) }
        for a in prints.indices {
            for b in prints.indices where b > a {
                var best = 0.0
                for offset in -(prints[b].count - matcher.minimumOverlap)...(prints[a].count - matcher.minimumOverlap) {
                    if let (similarity, overlap) = FingerprintMatcher.similarity(prints[a], prints[b], offset: offset), overlap >= matcher.minimumOverlap {
                        best = max(best, similarity)
                    }
                }
                if best >= matcher.minimumSimilarity { parent[root(b)] = root(a) }
            }
        }
        let groups = Dictionary(grouping: prints.indices, by: root).values.filter { $0.count > 1 }
        return Set(groups.map { Set($0) })
    }

    @Test("seeded fingerprints with planted copies: the index's groups and positions are all pairs' groups and the planted offsets", arguments: [1 as UInt64, 2, 3])
    func plantedCopies(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var prints: [[UInt32]] = []
        // Where each planted copy starts in its original's timeline, by id (originals at 0).
        var planted: [Int: (original: Int, start: Int)] = [:]
        for _ in 0..<24 {
            let length = Int.random(in: 240...480, using: &random)
            prints.append((0..<length).map { _ in UInt32.random(in: .min ... .max, using: &random) })
        }
        for original in 0..<8 {
            var last = (id: original, start: 0)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                // Each copy is made from the previous one (a transcode of a cut of …).
                let shift = Int.random(in: -20...30, using: &random)
                // Up to the worst copy measured (a cut 7.5 s in: 7 % of bits differ).
                let flips = [0, 0.01, 0.03, 0.06].randomElement(using: &random)!
                prints.append(copy(prints[last.id], shift: shift, flips: flips, using: &random))
                last = (prints.count - 1, last.start + shift)
                planted[last.id] = (original, last.start)
            }
        }
        let matcher = FingerprintMatcher()
        var index = FingerprintMatcher.Index()
        for print in prints { print.withUnsafeBufferPointer { index.add($0) } }
        var matches: [FingerprintMatcher.Match] = []
        for pair in matcher.candidates(&index) {
            if let found = matcher.verify(prints[pair.first], prints[pair.second], near: pair.offset) {
                matches.append(.init(first: pair.first, second: pair.second, offset: found.offset, similarity: found.similarity, overlap: found.overlap))
            }
        }
        let groups = FingerprintGroups(matches).groups
        let expected = bruteForceGroups(prints, matcher)
        #expect(Set(groups.map { Set($0.map(\.id)) }) == expected)
        #expect(expected.count == 8, "every original with its copies, nothing else: \(expected)")
        for group in groups {
            // Planted starts, counted from the member that starts first.
            let starts = group.map { planted[$0.id]?.start ?? 0 }
            let origin = starts.min() ?? 0
            #expect(group.map(\.position) == starts.map { $0 - origin }, "\(group)")
        }
    }

    @Test("similarity: 1 for equal fingerprints, 1 − 2 × the bit error rate, over the overlap at the offset")
    func similarity() throws {
        let a: [UInt32] = [0, 0xFFFF_FFFF, 0x0F0F_0F0F, 0]
        let b: [UInt32] = [0xFFFF_FFFF, 0x0F0F_0F0E, 0xFF]
        let aligned = try #require(FingerprintMatcher.similarity(a, b, offset: 1))
        #expect(aligned.overlap == 3 && aligned.similarity == 1 - 2 * 9.0 / 96)
        #expect(FingerprintMatcher.similarity(a, a, offset: 0)?.similarity == 1)
        #expect(FingerprintMatcher.similarity(a, b, offset: 4) == nil)
    }
}
