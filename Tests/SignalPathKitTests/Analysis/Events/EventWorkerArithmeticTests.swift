import SignalPathTestSupport
import Testing

@testable import SignalPathKit

/// `events`' per-block sums against plain loops, on seeded random blocks of every length from
/// empty to a few vectors (the four-lane loops' tails).
@Suite("events' block arithmetic: four-lane sums against plain loops")
struct EventWorkerArithmeticTests {
    @Test("Σx² and Σx within 1e−15 of the plain Double sums")
    func againstPlainLoops() {
        var generator = SeededGenerator(seed: 30)
        for count in 0...37 {
            for _ in 0..<20 {
                let samples = (0..<count).map { _ in Float.random(in: -1...1, using: &generator) }
                let squares = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
                let sum = samples.reduce(0.0) { $0 + Double($1) }
                let scale = samples.reduce(0.0) { $0 + abs(Double($1)) }
                samples.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    #expect(abs(EventWorker.sumOfSquares(base, count: count) - squares) <= 1e-15 * max(squares, 1e-300) * Double(count))
                    #expect(abs(EventWorker.sum(base, count: count) - sum) <= 1e-15 * scale * Double(count))
                }
            }
        }
    }
}
