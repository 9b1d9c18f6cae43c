/// What a cell shows, by meaning rather than by colour: a `Theme` decides the colours, and only
/// the terminal backend (or the SVG writer) turns them into output.
public enum Style: Hashable, Sendable {
    case plain
    case title
    case axis
    case grid
    case label
    /// The trace of a channel (0-based): channels overlaid get distinct colours.
    case trace(Int)
    case peak
    case clip
    /// A level of a heat map, 0 (coldest) … 255 (hottest).
    case heat(UInt8)
    case legend
    /// A channel's waveform envelope beyond its RMS band: the trace's colour, dimmed.
    case envelope(Int)

    /// A short code for golden tests: styles compared as data.
    public var code: Character {
        switch self {
        case .plain: return " "
        case .title: return "T"
        case .axis: return "A"
        case .grid: return "g"
        case .label: return "L"
        case .trace(let channel): return Character(String(channel % 10))
        case .peak: return "P"
        case .clip: return "C"
        case .heat(let level): return Array("abcdefghijklmnop")[Int(level) / 16]
        case .legend: return "l"
        case .envelope(let channel): return Array("qrstuvwxyz")[channel % 10]
        }
    }
}

/// One cell of a canvas: a character drawn in a style over an optional background style (the
/// lower pixel of a half-block heat map).
public struct Cell: Equatable, Sendable {
    public var character: Character
    public var style: Style
    public var background: Style?

    public init(_ character: Character, _ style: Style = .plain, background: Style? = nil) {
        self.character = character
        self.style = style
        self.background = background
    }

    public static let blank = Cell(" ")
}
