/// A 24-bit colour.
public struct RGB: Equatable, Hashable, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// From 0xRRGGBB.
    public init(hex: UInt32) {
        self.init(UInt8(hex >> 16 & 0xFF), UInt8(hex >> 8 & 0xFF), UInt8(hex & 0xFF))
    }

    /// `#rrggbb`, for SVG.
    public var hexString: String {
        let digits = Array("0123456789abcdef")
        return "#" + [red, green, blue].map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined()
    }
}

/// How many colours the terminal shows.
public enum ColorDepth: String, Sendable, CaseIterable {
    case none, ansi16, ansi256, truecolor

    /// What `--color` asked for.
    public enum Choice: String, Sendable, CaseIterable {
        case auto, always, never
    }

    /// The depth for output to a terminal (or not) with `environment`: none with `never`, with
    /// `auto` when NO_COLOR is set, TERM is dumb or output is not a terminal; otherwise truecolor
    /// when COLORTERM says so, 256 when TERM mentions 256color, else 16.
    public static func detect(choice: Choice, isTerminal: Bool, environment: [String: String]) -> ColorDepth {
        if choice == .never { return .none }
        if choice == .auto {
            if environment["NO_COLOR"].map({ !$0.isEmpty }) == true { return .none }
            if environment["TERM"] == "dumb" || !isTerminal { return .none }
        }
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        if environment["TERM"]?.contains("256color") == true { return .ansi256 }
        return .ansi16
    }
}

/// Perceptual colour maps for heat maps: 9 anchors of matplotlib's maps, interpolated.
public enum ColorMap: String, Sendable, CaseIterable {
    case viridis, magma, grayscale

    private var anchors: [UInt32] {
        switch self {
        case .viridis: return [0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C, 0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725]
        case .magma: return [0x000004, 0x1C1044, 0x4F127B, 0x812581, 0xB5367A, 0xE55064, 0xFB8761, 0xFEC287, 0xFCFDBF]
        case .grayscale: return [0x000000, 0xFFFFFF]
        }
    }

    /// The colour of `level` (0 coldest … 255 hottest).
    public func color(_ level: UInt8) -> RGB {
        let anchors = self.anchors.map(RGB.init(hex:))
        let position = Double(level) / 255 * Double(anchors.count - 1)
        let index = min(anchors.count - 2, Int(position))
        let t = position - Double(index)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
        let a = anchors[index], b = anchors[index + 1]
        return RGB(mix(a.red, b.red), mix(a.green, b.green), mix(a.blue, b.blue))
    }
}

/// Maps semantic styles to colours.
public struct Theme: Sendable {
    public var colorMap: ColorMap
    public var traces: [RGB]
    public var title = RGB(hex: 0xE8E8E8)
    public var axis = RGB(hex: 0x9A9A9A)
    public var grid = RGB(hex: 0x4A4A4A)
    public var label = RGB(hex: 0xB8B8B8)
    public var peak = RGB(hex: 0xFFD75F)
    public var clip = RGB(hex: 0xFF5F5F)
    public var legend = RGB(hex: 0xB8B8B8)

    public init(colorMap: ColorMap = .viridis) {
        self.colorMap = colorMap
        // Distinct on dark and light backgrounds, and for the common colour-vision deficiencies.
        traces = [0x56B4E9, 0xE69F00, 0x009E73, 0xCC79A7, 0xF0E442, 0x0072B2, 0xD55E00].map(RGB.init(hex:))
    }

    /// The colour of `style`; nil for plain text.
    public func color(_ style: Style) -> RGB? {
        switch style {
        case .plain: return nil
        case .title: return title
        case .axis: return axis
        case .grid: return grid
        case .label: return label
        case .trace(let channel): return traces[channel % traces.count]
        case .peak: return peak
        case .clip: return clip
        case .heat(let level): return colorMap.color(level)
        case .legend: return legend
        case .envelope(let channel):
            // Half way to black: dimmer than the RMS band inside it on a dark terminal.
            let trace = traces[channel % traces.count]
            return RGB(trace.red / 2, trace.green / 2, trace.blue / 2)
        }
    }
}
