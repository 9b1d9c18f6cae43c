/// Which channels a result covers.
public enum ChannelSelection: Sendable, Equatable {
    /// Every channel, one result each.
    case all
    /// One channel, 0-based.
    case single(Int)
    /// The channel that feeds a loudspeaker position (`--channel LFE`), in the file's layout.
    case position(ChannelPosition)
    /// The mean of all channels, as one signal.
    case mix

    /// Parses `1`…`N` (1-based, as sox numbers them), `left`, `right`, a position as ffmpeg
    /// abbreviates it (`FL`, `FC`, `LFE`, `SL`, …, in any case), `mix` or `all`.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "all": self = .all
        case "mix", "mono": self = .mix
        case "left", "l": self = .single(0)
        case "right", "r": self = .single(1)
        default:
            if let position = ChannelPosition(abbreviation: text) {
                self = .position(position)
                return
            }
            guard let number = Int(text), number >= 1 else { return nil }
            self = .single(number - 1)
        }
    }

    /// Per result channel, the file channel it shows, or nil for the mix of all of them.
    /// - Throws: `invalidRequest` for a channel the file lacks.
    public func sourceChannels(in layout: ChannelLayout, path: String) throws(SignalPathError) -> [Int?] {
        let channels = layout.channelCount
        switch self {
        case .all: return (0..<channels).map { $0 }
        case .mix: return [nil]
        case .single(let index):
            guard index < channels else {
                throw .invalidRequest(path: path, reason: "has \(channels) channel\(channels == 1 ? "" : "s"); there is no channel \(index + 1)")
            }
            return [index]
        case .position(let position):
            guard let index = layout.index(of: position) else {
                throw .invalidRequest(
                    path: path, reason: "has no \(position.abbreviation) channel (its channels: \(layout.names.joined(separator: " ")))")
            }
            return [index]
        }
    }

    /// The names of the result channels: the layout's names (`left`, `FL`, `LFE`, `ch9`), or `mix`.
    /// A selection the file cannot give has no names.
    public func names(in layout: ChannelLayout) -> [String] {
        guard let sources = try? sourceChannels(in: layout, path: "") else { return [] }
        let names = layout.names
        return sources.map { $0.map { names[$0] } ?? "mix" }
    }
}
