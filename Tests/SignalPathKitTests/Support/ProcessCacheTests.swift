import Testing

@testable import SignalPathKit

@Suite("ProcessCache")
struct ProcessCacheTests {
    @Test("a value is made once per key and then handed out; another key makes its own")
    func madeOncePerKey() {
        let cache = ProcessCache<Int, [Int]>()
        var made: [Int] = []
        for key in [3, 5, 3, 3, 5, 7] {
            let value = cache.value(for: key) {
                made.append(key)
                return Array(0..<key)
            }
            #expect(value == Array(0..<key))
        }
        #expect(made == [3, 5, 7])
    }

    @Test("threads asking at once all get the first value stored")
    func concurrentRequests() async {
        let cache = ProcessCache<String, Int>()
        let counter = Protected(0)
        let values = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    cache.value(for: "window") {
                        counter.withLock {
                            $0 += 1
                            return $0
                        }
                    }
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        // Whichever making finished first was stored; every caller got that one.
        #expect(Set(values).count == 1)
        #expect(cache.value(for: "window") { -1 } == values[0])
    }
}
