/// Pixels for a heat map or any picture inside a chart: `width` × `height`, row-major from the
/// top, each `0xFFRRGGBB` (opaque). The backend embeds them as an image (a PNG inside SVG and
/// PDF), never as one shape per pixel.
public struct ChartRaster: Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt32]

    public init(width: Int, height: Int, fill: RGB = RGB(0, 0, 0)) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: Self.pixel(fill), count: width * height)
    }

    /// A raster of `pixels` given row by row (`width × height` of them).
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public static func pixel(_ color: RGB) -> UInt32 {
        0xFF00_0000 | UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
    }

    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

/// What a chart panel shows, in data coordinates (the panel's axes map them to the page).
public enum ChartMark: Sendable {
    /// A polyline through `points` (x, y): one path, however many points.
    case line(points: [(x: Double, y: Double)], color: ChartColor, dash: LineDash = .solid, width: Double = 1.5)
    /// The area between `lower` and `upper` at each x (a waveform's envelope), filled.
    case area(x: [Double], lower: [Double], upper: [Double], color: ChartColor, opacity: Double = 1)
    /// Bars from the bottom of the panel up to `value`, each from `x.lowerBound` to `x.upperBound`.
    case bars([(x: ClosedRange<Double>, value: Double)], color: ChartColor, opacity: Double = 1)
    /// A picture filling the panel's plot area: pixel (0, 0) at its top left. Sized by the
    /// caller to the plot's device pixels (`ChartLayout.plotPixels`), so nothing is resampled.
    case raster(ChartRaster)
    /// A horizontal band from `range.lowerBound` to `range.upperBound` (a loudness target),
    /// labelled at its right end.
    case horizontalBand(ClosedRange<Double>, color: ChartColor, label: String)
    /// A horizontal line across the panel at `y`, labelled at its right end.
    case horizontalRule(y: Double, color: ChartColor, dash: LineDash = .dashed, label: String)
    /// Points marked with a small downward triangle and a label beside it where there is room.
    case markers([(x: Double, y: Double, label: String)], color: ChartColor)
    /// Short vertical ticks at `x` along the top edge of the panel (clipped samples).
    case edgeTicks(x: [Double], color: ChartColor)
}

/// A series named in the legend, with the colour and dash it is drawn in.
public struct ChartLegendEntry: Sendable {
    public enum Kind: Sendable { case line, bar }
    public var name: String
    public var color: ChartColor
    public var dash: LineDash
    public var kind: Kind

    public init(_ name: String, color: ChartColor, dash: LineDash = .solid, kind: Kind = .line) {
        self.name = name
        self.color = color
        self.dash = dash
        self.kind = kind
    }
}

/// The scale of a heat map: its colour map from `range.lowerBound` (the coldest colour) to
/// `range.upperBound` (the hottest), with labelled ticks.
public struct ChartColorBar: Sendable {
    public var colorMap: ColorMap
    public var range: ClosedRange<Double>
    public var label: String
    public var ticks: [ChartTick]

    public init(colorMap: ColorMap, range: ClosedRange<Double>, label: String) {
        self.colorMap = colorMap
        self.range = range
        self.label = label
        ticks = ChartAxis.steps(range, count: 6).map { ChartTick($0, UnitFormat.shortest($0)) }
    }
}

extension ChartMark {
    /// `points` (in x order) thinned to what `pixels` device columns along `axis` can show: where
    /// several fall in one column, its first, lowest, highest and last, in x order — the line
    /// looks the same and a path of an hour at 10 points a second stays a few thousand points,
    /// however many stretches it is cut into.
    public static func thinned(_ points: [(x: Double, y: Double)], axis: ChartAxis, pixels: Int) -> [(x: Double, y: Double)] {
        guard points.count > 4 else { return points }
        var out: [(x: Double, y: Double)] = []
        out.reserveCapacity(4 * pixels + 4)
        var start = 0
        while start < points.count {
            let column = Int((axis.fraction(points[start].x) * Double(pixels)).rounded(.down))
            var end = start + 1
            while end < points.count, Int((axis.fraction(points[end].x) * Double(pixels)).rounded(.down)) == column { end += 1 }
            let slice = points[start..<end]
            if slice.count <= 4 {
                out += slice
            } else {
                let low = slice.indices.min { points[$0].y < points[$1].y }!
                let high = slice.indices.max { points[$0].y < points[$1].y }!
                for index in Set([start, low, high, end - 1]).sorted() { out.append(points[index]) }
            }
            start = end
        }
        return out
    }

    /// `points` (in x order) reduced to the highest of each of the `pixels` device columns along
    /// `axis` where several fall: a level over time as a meter's history draws it when zoomed
    /// out, one value per column, where the lowest and highest of each make a solid band.
    public static func maxima(_ points: [(x: Double, y: Double)], axis: ChartAxis, pixels: Int) -> [(x: Double, y: Double)] {
        var out: [(x: Double, y: Double)] = []
        var column = Int.min
        for point in points {
            let pointColumn = Int((axis.fraction(point.x) * Double(pixels)).rounded(.down))
            if pointColumn == column, let last = out.last {
                if point.y > last.y { out[out.count - 1] = point }
            } else {
                out.append(point)
                column = pointColumn
            }
        }
        return out
    }
}
