import SignalPathTestSupport
import Testing

@testable import SignalPathKit

/// The gap edges' search tests frames only where a coarse pass of half-window sums says a test
/// can pass. Against the naive search — every frame tested — on seeded material full of gaps of
/// every kind, cut into chunks at random places: the same edges.
@Suite("gap edges: the coarse search finds what testing every frame finds")
struct GapEdgeSearchTests {
    /// Noise whose level jumps about, with gaps of zero, of dither and of noise far down, and
    /// short bursts inside some of them.
    func material(seed: UInt64, frames: Int) -> [Float] {
        var random = SeededGenerator(seed: seed)
        var samples = (0..<frames).map { _ in Float.random(in: -0.1...0.1, using: &random) }
        var frame = 0
        while frame < frames {
            let length = Int.random(in: 50...3000, using: &random)
            let gain = Float([1, 0.3, 0.05, 2][Int.random(in: 0..<4, using: &random)])
            for index in frame..<min(frames, frame + length) { samples[index] *= gain }
            frame += length
        }
        for _ in 0..<40 {
            let start = Int.random(in: 0..<frames - 600, using: &random), length = Int.random(in: 1...500, using: &random)
            let kind = Int.random(in: 0..<4, using: &random)
            for index in start..<start + length {
                switch kind {
                case 0: samples[index] = 0
                case 1: samples[index] = Float(Int.random(in: -2...2, using: &random)) / 32768
                case 2: samples[index] *= 0.001
                default: samples[index] *= Float.random(in: 0...0.02, using: &random)
                }
            }
        }
        return samples
    }

    func search(_ samples: [Float], base: Int64, present: Range<Int64>, available: Int64, _ body: (GapEdgeSearch) -> Void) {
        samples.withUnsafeBufferPointer { buffer in
            body(
                GapEdgeSearch(
                    samples: buffer.baseAddress!, base: base, available: available, present: present, flankFrames: 80, gapFrames: 8,
                    sound: pow(10, -40.0 / 10), depth: pow(10, -4.0), step: 0.01, blockStart: { Int64($0) * 8 }, block: { Int($0 / 8) }))
        }
    }

    @Test("the same edges as every frame tested, for chunks cut anywhere", arguments: [1, 2, 3, 4])
    func againstEveryFrame(seed: UInt64) {
        let frames = 40_000
        let samples = material(seed: seed, frames: frames)
        var naive: [GapEdge] = []
        search(samples, base: 0, present: 0..<Int64(frames), available: Int64(frames)) { search in
            for frame in 0..<Int64(frames) {
                if search.fallsAt(frame) && !search.fallsAt(frame - 1) { naive.append(GapEdge(kind: .fall, frame: frame, flank: 0, window: 0, boundary: 0, partial: 0)) }
                if search.risesAt(frame) && !search.risesAt(frame + 1) { naive.append(GapEdge(kind: .rise, frame: frame, flank: 0, window: 0, boundary: 0, partial: 0)) }
            }
        }
        #expect(naive.filter { $0.kind == .fall }.count >= 10 && naive.filter { $0.kind == .rise }.count >= 10, "the material holds gaps: \(naive.count) edges")
        // Chunks as the worker loads them: the chunk's frames with the reach on both sides.
        var random = SeededGenerator(seed: seed + 10)
        var found: [GapEdge] = []
        var start = 0
        let reach = GapEdgeSearch.reach(flankFrames: 80, gapFrames: 8)
        while start < frames {
            let end = min(frames, start + Int.random(in: 1...5000, using: &random))
            let lower = max(0, start - reach), upper = min(frames, end + reach)
            search(Array(samples[lower..<upper]), base: Int64(lower), present: Int64(start)..<Int64(end), available: Int64(upper)) { search in
                found += search.edges()
            }
            start = end
        }
        func described(_ edges: [GapEdge]) -> [String] { edges.map { "\($0.kind) \($0.frame)" }.sorted() }
        #expect(described(found) == described(naive))
        #expect(found.map(\.frame) == found.map(\.frame).sorted(), "in frame order")
    }
}
