/// What a chart element is drawn in, by meaning: a `ChartTheme` decides the colour, so a light
/// and a dark chart are the same description.
public enum ChartColor: Hashable, Sendable {
    case background
    case text
    /// Subtitles, tick labels, legend names.
    case mutedText
    case axis
    case grid
    /// The trace of series `n` (0-based): channels overlaid get distinct colours.
    case trace(Int)
    /// Series `n`'s colour faded towards the background: a series shown behind another (momentary
    /// loudness under short-term).
    case faintTrace(Int)
    case peak
    case clip
    /// A target or tolerance band behind the data.
    case band
    case custom(RGB)
}

/// Light (for documents and print) or dark (for screens) charts.
public enum ChartTheme: String, CaseIterable, Sendable {
    case light, dark

    /// Trace colours: Okabe and Ito's palette, told apart in the common colour-vision deficiencies,
    /// ordered so that the first ones stand out on this theme's background (yellow is kept off white).
    public var traces: [RGB] {
        switch self {
        case .light: return [0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xE69F00, 0x000000].map(RGB.init(hex:))
        case .dark: return [0x56B4E9, 0xE69F00, 0x009E73, 0xCC79A7, 0xF0E442, 0x0072B2, 0xD55E00].map(RGB.init(hex:))
        }
    }

    public func color(_ color: ChartColor) -> RGB {
        let light = self == .light
        switch color {
        case .background: return RGB(hex: light ? 0xFFFFFF : 0x141414)
        case .text: return RGB(hex: light ? 0x1A1A1A : 0xE8E8E8)
        case .mutedText: return RGB(hex: light ? 0x505050 : 0xB0B0B0)
        case .axis: return RGB(hex: light ? 0x333333 : 0xA0A0A0)
        case .grid: return RGB(hex: light ? 0xDDDDDD : 0x363636)
        case .trace(let index): return traces[index % traces.count]
        case .faintTrace(let index):
            let trace = traces[index % traces.count], background = self.color(ChartColor.background)
            func mix(_ front: UInt8, _ back: UInt8) -> UInt8 { UInt8((Double(back) + 0.4 * (Double(front) - Double(back))).rounded()) }
            return RGB(mix(trace.red, background.red), mix(trace.green, background.green), mix(trace.blue, background.blue))
        case .peak: return RGB(hex: light ? 0xB00020 : 0xFFD75F)
        case .clip: return RGB(hex: light ? 0xE00000 : 0xFF5F5F)
        case .band: return RGB(hex: light ? 0xDCEFD9 : 0x1F3A24)
        case .custom(let rgb): return rgb
        }
    }
}

/// A line's pattern: series differ by dash as well as colour, so a chart printed in grey still
/// tells them apart.
public enum LineDash: Sendable, CaseIterable {
    case solid, dashed, dotted, dashDotted

    /// The pattern of series `index`.
    public static func forSeries(_ index: Int) -> LineDash { allCases[index % allCases.count] }

    /// On/off lengths in multiples of the line width (empty: solid).
    public var pattern: [Double] {
        switch self {
        case .solid: return []
        case .dashed: return [6, 3]
        case .dotted: return [1.2, 2.4]
        case .dashDotted: return [6, 2.5, 1.2, 2.5]
        }
    }
}
