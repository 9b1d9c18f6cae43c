/// Shard K of N (`--shard K/N`): the paths whose stable hash falls in it. The hash is FNV-1a
/// (64-bit) of the absolute path's UTF-8 bytes: the same split on every machine, every run and
/// every listing order (Swift's own `hashValue` is seeded per process, so it cannot be used).
public struct ShardSelector: Sendable, Equatable {
    /// 1…count.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    public func contains(_ path: String) -> Bool {
        Int(Self.stableHash(path) % UInt64(count)) + 1 == index
    }

    /// FNV-1a, 64-bit.
    public static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
