/// Which channels a result covers.
public enum ChannelSelection: Sendable, Equatable {
    /// Every channel, one result each.
    case all
    /// One channel, 0-based.
    case single(Int)
    /// The mean of all channels, as one signal.
    case mix

    /// Parses `1`…`N` (1-based, as sox numbers them), `left`, `right`, `mix` or `all`.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "all": self = .all
        case "mix", "mono": self = .mix
        case "left", "l": self = .single(0)
        case "right", "r": self = .single(1)
        default:
            guard let number = Int(text), number >= 1 else { return nil }
            self = .single(number - 1)
        }
    }

    /// The names of the resulting channels for a file with `channels` channels: `mono`, `left`
    /// and `right` for stereo, `ch1`… otherwise, `mix`.
    public func names(channels: Int) -> [String] {
        switch self {
        case .all: return (0..<channels).map { ChannelSelection.name(of: $0, channels: channels) }
        case .single(let index): return [ChannelSelection.name(of: index, channels: channels)]
        case .mix: return ["mix"]
        }
    }

    static func name(of index: Int, channels: Int) -> String {
        if channels == 1 { return "mono" }
        if channels == 2 { return index == 0 ? "left" : "right" }
        return "ch\(index + 1)"
    }

    /// Checks the selection against a file.
    public func validate(channels: Int, path: String) throws(SignalPathError) {
        if case .single(let index) = self, index >= channels {
            throw .invalidRequest(path: path, reason: "has \(channels) channel\(channels == 1 ? "" : "s"); there is no channel \(index + 1)")
        }
    }

    /// How many results the selection gives.
    func count(channels: Int) -> Int {
        if case .all = self { return channels }
        return 1
    }
}
