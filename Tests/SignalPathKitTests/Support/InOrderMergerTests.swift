import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("InOrderMerger")
struct InOrderMergerTests {
    /// Completion orders as a pool of `workers` produces them: each worker takes the next chunk
    /// when it finishes one, and which running chunk finishes next is random.
    static func poolOrder(chunks: Int, workers: Int, using generator: inout SeededGenerator) -> [Int] {
        var running: [Int] = Array(0..<min(workers, chunks))
        var next = running.count
        var order: [Int] = []
        while !running.isEmpty {
            let finished = running.remove(at: Int.random(in: 0..<running.count, using: &generator))
            order.append(finished)
            if next < chunks {
                running.append(next)
                next += 1
            }
        }
        return order
    }

    @Test("results come out in index order, each as soon as every earlier one is in, for seeded random completion orders")
    func againstModel() {
        var generator = SeededGenerator(seed: 13)
        for trial in 0..<400 {
            let chunks = Int.random(in: 1...60, using: &generator)
            let order =
                trial % 2 == 0
                ? Array(0..<chunks).shuffled(using: &generator)
                : Self.poolOrder(chunks: chunks, workers: Int.random(in: 1...8, using: &generator), using: &generator)
            var merger = InOrderMerger<String>()
            var merged: [String] = []
            // The model: the set of arrived indices; after each arrival, everything below the
            // smallest missing index has been merged, in order, and nothing else.
            var arrived = Set<Int>()
            for index in order {
                merger.add("chunk \(index)", index: index) { merged.append($0) }
                arrived.insert(index)
                var firstMissing = 0
                while arrived.contains(firstMissing) { firstMissing += 1 }
                #expect(merged == (0..<firstMissing).map { "chunk \($0)" }, "trial \(trial), order \(order)")
            }
            #expect(merged.count == chunks)
        }
    }
}
