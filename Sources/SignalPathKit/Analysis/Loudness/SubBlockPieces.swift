/// The pieces of a run of frames that lie in one 100 ms sub-block each, with the slot of each
/// piece's sub-block counted from the first: what a chunk adds to each sub-block's energy.
struct SubBlockPieces: Sequence, IteratorProtocol {
    private var frame: Int64
    private let end: Int64
    private var subBlock: Int
    private let firstSubBlock: Int
    private let sampleRate: Int

    init(frames: Range<Int64>, firstSubBlock: Int, sampleRate: Int) {
        frame = frames.lowerBound
        end = frames.upperBound
        subBlock = firstSubBlock
        self.firstSubBlock = firstSubBlock
        self.sampleRate = sampleRate
    }

    /// The rate sub-blocks are counted in: the sample rate, but at least 10 Hz, so that below
    /// 10 Hz a "100 ms" block is one frame rather than none.
    static func blockRate(sampleRate: Int) -> Int64 { Int64(Swift.max(10, sampleRate)) }

    /// Where sub-block `index` starts: frame ⌊index · rate / 10⌋ (`blockRate`).
    static func start(of index: Int, sampleRate: Int) -> Int64 { Int64(index) * blockRate(sampleRate: sampleRate) / 10 }

    mutating func next() -> (frames: Range<Int64>, slot: Int)? {
        guard frame < end else { return nil }
        let pieceEnd = Swift.min(end, Self.start(of: subBlock + 1, sampleRate: sampleRate))
        defer {
            frame = pieceEnd
            subBlock += 1
        }
        return (frame..<pieceEnd, subBlock - firstSubBlock)
    }
}
