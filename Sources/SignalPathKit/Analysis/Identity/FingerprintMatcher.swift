/// Near copies among many Chromaprint fingerprints, found as AcoustID finds them: an inverted index
/// of sub-fingerprints (low bits masked, a content-chosen quarter of them) gives the pairs that share
/// enough of them at one offset; only those pairs are compared, by the bit error rate of their
/// sub-fingerprints at the best offset near the voted one. All pairs are never compared: 100 000
/// fingerprints of 120 s would be 5·10⁹ pairs of about 2 000 offsets each.
public struct FingerprintMatcher: Sendable {
    /// Two fingerprints that match: `second`'s sub-fingerprint j is `first`'s j + `offset` (so
    /// `second` starts `offset` items into `first`), over `overlap` items.
    public struct Match: Sendable, Equatable {
        public var first: Int
        public var second: Int
        public var offset: Int
        public var similarity: Double
        public var overlap: Int
    }

    /// The least similarity (1 − 2 × bit error rate over the overlap) of a match.
    public var minimumSimilarity: Double
    /// The least overlap, in sub-fingerprints, of a match: shorter ones say too little.
    public var minimumOverlap: Int

    /// The defaults of `duplicates` (docs/DUPLICATES.md has the measurements behind them).
    public static let defaultMinimumSimilarity = 0.65
    public static let defaultMinimumOverlap = 80

    public init(minimumSimilarity: Double = defaultMinimumSimilarity, minimumOverlap: Int = defaultMinimumOverlap) {
        self.minimumSimilarity = minimumSimilarity
        self.minimumOverlap = minimumOverlap
    }

    /// Seconds between sub-fingerprints: Chromaprint's hop of 1365 samples at 11 025 Hz.
    public static let itemSeconds = 1365.0 / 11025.0

    /// The index: postings of (masked sub-fingerprint, fingerprint, position), 8 bytes each.
    public struct Index: Sendable {
        /// Low bits of a sub-fingerprint left out of its key: they flip most between encodings.
        static let maskedBits: UInt32 = 4
        /// Positions past this are not indexed (a fingerprint's first 8.4 minutes); compared, they are.
        static let indexedItems = 4096
        /// The most fingerprints one id can name.
        public static let capacity = 1 << 24

        var postings: [UInt64] = []
        public private(set) var count = 0

        public init() {}

        /// A posting for a content-chosen quarter of the keys: the same keys in every copy whatever
        /// its offset, and a quarter of the memory. A key repeated at the next position is one posting.
        public mutating func add(_ raw: UnsafeBufferPointer<UInt32>) {
            let id = UInt64(count)
            precondition(count < Self.capacity, "more fingerprints than an index holds")
            count += 1
            var previous: UInt32 = .max
            for position in 0..<min(raw.count, Self.indexedItems) {
                let key = raw[position] >> Self.maskedBits
                guard key != previous else { continue }
                previous = key
                guard Index.chosen(key) else { continue }
                postings.append(UInt64(key) << 36 | id << 12 | UInt64(position))
            }
        }

        /// A mixing hash's top 2 bits: one key in four, scattered over the key space (one in eight
        /// missed short copies: docs/DECISIONS.md#duplicates-index).
        @inline(__always) static func chosen(_ key: UInt32) -> Bool { (key &* 0x9E37_79B1) >> 30 == 0 }

        /// The bytes the postings hold.
        public var bytes: Int { postings.capacity * 8 }
    }

    /// A key in more fingerprints than this is a stop word (a sub-fingerprint of silence or hum):
    /// its pairs would grow with the square of its postings and say little.
    static let maximumPostingsPerKey = 256
    /// The least votes (shared keys at one offset, ± 1) that make a pair worth comparing.
    static let minimumVotes = 2

    /// Pairs of fingerprints worth comparing, each with its best-voted offset (`Match.offset`'s
    /// sense), in (first, second) order. Consumes the index's postings (sorted in place).
    public func candidates(_ index: inout Index) -> [(first: Int, second: Int, offset: Int)] {
        index.postings.sort()
        var votes: [UInt64] = []
        index.postings.withUnsafeBufferPointer { postings in
            var start = 0
            while start < postings.count {
                let key = postings[start] >> 36
                var end = start + 1
                while end < postings.count && postings[end] >> 36 == key { end += 1 }
                if end - start <= Self.maximumPostingsPerKey {
                    for i in start..<end {
                        let a = postings[i] >> 12 & 0xFF_FFFF, positionA = Int(postings[i] & 0xFFF)
                        for j in (i + 1)..<end {
                            let b = postings[j] >> 12 & 0xFF_FFFF
                            guard b != a else { continue }
                            let offset = positionA - Int(postings[j] & 0xFFF)
                            votes.append(a << 40 | b << 16 | UInt64(offset + 32768))
                        }
                    }
                }
                start = end
            }
        }
        index.postings = []
        votes.sort()
        var pairs: [(first: Int, second: Int, offset: Int)] = []
        var start = 0
        while start < votes.count {
            let pair = votes[start] >> 16
            var end = start + 1
            while end < votes.count && votes[end] >> 16 == pair { end += 1 }
            // The offset with the most votes, counting its neighbours (a hop's jitter).
            var best = (votes: 0, offset: 0)
            for i in start..<end {
                let offset = Int(votes[i] & 0xFFFF)
                var near = 0
                var j = i
                while j > start && Int(votes[j - 1] & 0xFFFF) >= offset - 1 { j -= 1 }
                while j < end && Int(votes[j] & 0xFFFF) <= offset + 1 {
                    near += 1
                    j += 1
                }
                if near > best.votes { best = (near, offset) }
            }
            if best.votes >= Self.minimumVotes {
                pairs.append((Int(pair >> 24), Int(pair & 0xFF_FFFF), best.offset - 32768))
            }
            start = end
        }
        return pairs
    }

    /// `first` and `second` compared at the offset within `radius` of `offset` with the fewest bit
    /// errors; nil unless that is a match.
    public func verify(_ first: [UInt32], _ second: [UInt32], near offset: Int, radius: Int = 2) -> (offset: Int, similarity: Double, overlap: Int)? {
        var best: (offset: Int, similarity: Double, overlap: Int)?
        for candidate in (offset - radius)...(offset + radius) {
            guard let (similarity, overlap) = Self.similarity(first, second, offset: candidate), overlap >= minimumOverlap else { continue }
            if similarity > best?.similarity ?? -1 { best = (candidate, similarity, overlap) }
        }
        guard let best, best.similarity >= minimumSimilarity else { return nil }
        return best
    }

    /// 1 − 2 × the bit error rate of `second`'s sub-fingerprint j against `first`'s j + `offset`,
    /// over their overlap (0 for what unrelated random bits give, 1 for equal ones; clamped at 0),
    /// and the overlap; nil when they do not overlap.
    public static func similarity(_ first: [UInt32], _ second: [UInt32], offset: Int) -> (similarity: Double, overlap: Int)? {
        let startSecond = max(0, -offset), startFirst = startSecond + offset
        let overlap = min(first.count - startFirst, second.count - startSecond)
        guard overlap > 0 else { return nil }
        var errors = 0
        first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                for j in 0..<overlap { errors += (a[startFirst + j] ^ b[startSecond + j]).nonzeroBitCount }
            }
        }
        return (max(0, 1 - 2 * Double(errors) / Double(32 * overlap)), overlap)
    }
}
