/// Puts chunk results back in chunk order, whatever order they finish in: a result that arrives
/// early waits until every result before it has been merged. The one place where the chunk
/// schedulers' results (`runChunks`) become ordered again, which is what makes a result the same
/// for any number of workers; `analyze` uses it too, to write the reports of files analysed side
/// by side in the order they were given.
public struct InOrderMerger<Chunk> {
    /// The index of the next result to merge: every result before it has been merged.
    private var nextIndex = 0
    private var waiting: [Int: Chunk] = [:]

    public init() {}

    /// Takes result `index`, then hands `merge` every result that can go now, in index order.
    public mutating func add(_ chunk: Chunk, index: Int, merge: (Chunk) -> Void) {
        precondition(index >= nextIndex && waiting[index] == nil, "chunk \(index) given twice")
        waiting[index] = chunk
        while let next = waiting.removeValue(forKey: nextIndex) {
            merge(next)
            nextIndex += 1
        }
    }
}
