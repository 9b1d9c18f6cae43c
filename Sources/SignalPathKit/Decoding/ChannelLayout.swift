/// Which loudspeaker each channel of a file feeds, and so what results call the channels.
///
/// From the file where it says (a WAVE_FORMAT_EXTENSIBLE channel mask, or the channel map
/// libsndfile reads from a CAF file); otherwise the layout a file of that kind and channel count
/// is read as: the codec's own order for FLAC and Vorbis, and for everything else ffmpeg's default
/// for the count (what ffmpeg assumes for such a file: 2.1, 4.0, 5.0, 5.1, 6.1, 7.1 for 3–8
/// channels). Beyond that, and for Opus surround, channels have no position.
public struct ChannelLayout: Sendable, Equatable {
    /// Where a layout comes from.
    public enum Source: String, Sendable {
        /// The file's WAVE_FORMAT_EXTENSIBLE `dwChannelMask`.
        case channelMask = "channel mask"
        /// The channel map libsndfile reads from the file (a CAF `chan` chunk, or the mask of a
        /// WAVE file it decodes itself).
        case channelMap = "channel map"
        /// The layout FFmpeg reads from the stream (an MP4 `chan` box, a codec's own channel
        /// configuration: AAC, AC-3, Opus, …).
        case stream = "stream layout"
        /// The file does not say: the usual layout for its format and channel count.
        case assumed
    }

    /// Per channel, its position; nil for a channel without one.
    public private(set) var positions: [ChannelPosition?]
    public let source: Source

    /// A layout of `positions`; a position given twice keeps only its first channel.
    public init(positions: [ChannelPosition?], source: Source) {
        var seen = Set<ChannelPosition>()
        self.positions = positions.map { position in
            guard let position, seen.insert(position).inserted else { return nil }
            return position
        }
        self.source = source
    }

    /// The layout a WAVE_FORMAT_EXTENSIBLE channel mask states, by Microsoft's rules: each set bit,
    /// lowest first, gives the next channel its position (a reserved bit, 18–31, gives it none);
    /// channels beyond the set bits have none; set bits beyond the channels do not count. Nil for
    /// a mask of 0, which states nothing.
    public init?(channelMask mask: UInt32, channels: Int) {
        guard mask != 0 else { return nil }
        var positions: [ChannelPosition?] = []
        for bit in 0..<32 where mask & (1 << UInt32(bit)) != 0 && positions.count < channels {
            positions.append(ChannelPosition(rawValue: bit))
        }
        positions += [ChannelPosition?](repeating: nil, count: max(0, channels - positions.count))
        self.init(positions: positions, source: .channelMask)
    }

    /// The layout a file of `container` and `sampleFormat` with `channels` channels and no layout
    /// of its own is read as.
    public static func assumed(channels: Int, container: Container, sampleFormat: SampleFormat) -> ChannelLayout {
        let order: [[ChannelPosition]]
        switch (container, sampleFormat) {
        case (_, .compressed("vorbis")): order = vorbisOrders
        // libsndfile's Opus decoder does not keep the channel mapping's order for 5 and 7 channels
        // (measured with files from ffmpeg's libopus), so surround Opus channels are not named.
        case (_, .compressed("opus")): order = Array(defaultOrders.prefix(2))
        case (.flac, _): order = flacOrders
        default: order = defaultOrders
        }
        let named: [ChannelPosition?] = channels >= 1 && channels <= order.count ? order[channels - 1] : []
        return ChannelLayout(positions: named + [ChannelPosition?](repeating: nil, count: max(0, channels - named.count)), source: .assumed)
    }

    /// Positions written as ffmpeg lists them: `FL+FR+LFE`.
    private static func positions(_ text: String) -> [ChannelPosition] {
        text.split(separator: "+").map { ChannelPosition(abbreviation: String($0))! }
    }

    /// ffmpeg's `av_channel_layout_default` for 1–8 channels: mono, stereo, 2.1, 4.0, 5.0, 5.1, 6.1, 7.1.
    private static let defaultOrders = [
        "FC", "FL+FR", "FL+FR+LFE", "FL+FR+FC+BC", "FL+FR+FC+BL+BR", "FL+FR+FC+LFE+BL+BR", "FL+FR+FC+LFE+BC+SL+SR", "FL+FR+FC+LFE+BL+BR+SL+SR",
    ].map(positions)
    /// FLAC's channel assignments for 1–8 channels, as ffmpeg reads them (RFC 9639, section 9.1.3).
    private static let flacOrders = [
        "FC", "FL+FR", "FL+FR+FC", "FL+FR+BL+BR", "FL+FR+FC+SL+SR", "FL+FR+FC+LFE+SL+SR", "FL+FR+FC+LFE+BC+SL+SR", "FL+FR+FC+LFE+BL+BR+SL+SR",
    ].map(positions)
    /// The Vorbis I specification's channel order (section 4.3.9), which libsndfile's decoder keeps.
    private static let vorbisOrders = [
        "FC", "FL+FR", "FL+FC+FR", "FL+FR+BL+BR", "FL+FC+FR+BL+BR", "FL+FC+FR+BL+BR+LFE", "FL+FC+FR+SL+SR+BC+LFE", "FL+FC+FR+SL+SR+BL+BR+LFE",
    ].map(positions)

    /// How channels get their names, for the conventions of a result.
    public static let rule =
        "positions from the file's WAVE_FORMAT_EXTENSIBLE channel mask, its CAF channel layout or the stream's layout as FFmpeg reads it, named as ffmpeg abbreviates them "
        + "(FL FR FC LFE BL BR FLC FRC BC SL SR TC TFL TFC TFR TBL TBC TBR); without one, the codec's order (FLAC, Vorbis) or "
        + "ffmpeg's default layout for the count (2.1, 4.0, 5.0, 5.1, 6.1, 7.1 for 3 to 8 channels); a lone front centre is mono, "
        + "front left and right alone are left and right; chN for a channel without a position"

    public var channelCount: Int { positions.count }

    /// The channel that feeds `position`, if any.
    public func index(of position: ChannelPosition) -> Int? { positions.firstIndex(of: position) }

    /// What results call the channels: `mono` for a lone front-centre channel and `left`, `right`
    /// for front left and right alone (the names stereo files always had, and CSV columns use);
    /// otherwise ffmpeg's abbreviations (`FL`, `LFE`, `SL`, …), and `ch7` (the channel's number)
    /// for a channel without a position.
    public var names: [String] {
        switch positions {
        case [.frontCenter]: return ["mono"]
        case [.frontLeft, .frontRight]: return ["left", "right"]
        default: return positions.enumerated().map { index, position in position?.abbreviation ?? "ch\(index + 1)" }
        }
    }

    /// ffmpeg's name for the layout (`stereo`, `5.1(side)`), or the positions joined with `+` when
    /// it has none; nil when a channel has no position.
    public var name: String? {
        guard !positions.isEmpty, positions.allSatisfy({ $0 != nil }) else { return nil }
        let mask = positions.reduce(UInt32(0)) { $0 | $1!.maskBit }
        return Self.standardNames[mask] ?? positions.map { $0!.abbreviation }.joined(separator: "+")
    }

    /// `ffmpeg -layouts`: the standard layouts made of these positions, by their mask.
    private static let standardNames: [UInt32: String] = {
        let layouts = [
            ("mono", "FC"), ("stereo", "FL+FR"), ("2.1", "FL+FR+LFE"), ("3.0", "FL+FR+FC"), ("3.0(back)", "FL+FR+BC"), ("4.0", "FL+FR+FC+BC"),
            ("quad", "FL+FR+BL+BR"), ("quad(side)", "FL+FR+SL+SR"), ("3.1", "FL+FR+FC+LFE"), ("5.0", "FL+FR+FC+BL+BR"),
            ("5.0(side)", "FL+FR+FC+SL+SR"), ("4.1", "FL+FR+FC+LFE+BC"), ("5.1", "FL+FR+FC+LFE+BL+BR"), ("5.1(side)", "FL+FR+FC+LFE+SL+SR"),
            ("6.0", "FL+FR+FC+BC+SL+SR"), ("6.0(front)", "FL+FR+FLC+FRC+SL+SR"), ("hexagonal", "FL+FR+FC+BL+BR+BC"),
            ("6.1", "FL+FR+FC+LFE+BC+SL+SR"), ("6.1(back)", "FL+FR+FC+LFE+BL+BR+BC"), ("6.1(front)", "FL+FR+LFE+FLC+FRC+SL+SR"),
            ("7.0", "FL+FR+FC+BL+BR+SL+SR"), ("7.0(front)", "FL+FR+FC+FLC+FRC+SL+SR"), ("7.1", "FL+FR+FC+LFE+BL+BR+SL+SR"),
            ("7.1(wide)", "FL+FR+FC+LFE+BL+BR+FLC+FRC"), ("7.1(wide-side)", "FL+FR+FC+LFE+FLC+FRC+SL+SR"), ("octagonal", "FL+FR+FC+BL+BR+BC+SL+SR"),
        ]
        return Dictionary(uniqueKeysWithValues: layouts.map { name, text in (positions(text).reduce(0) { $0 | $1.maskBit }, name) })
    }()
}
