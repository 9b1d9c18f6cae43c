/// One plot area of a chart: its y axis and what it shows. Panels of a chart are stacked top to
/// bottom and share the chart's x axis (a waveform's channels).
public struct ChartPanel: Sendable {
    public var y: ChartAxis
    public var marks: [ChartMark]
    /// A name drawn in the panel's top left corner (a channel's), or empty.
    public var name: String
    /// The panel's own x axis, labelled under it (compare's residual over time under its
    /// spectra); nil: the chart's, shared with the other panels.
    public var x: ChartAxis?

    public init(y: ChartAxis, marks: [ChartMark] = [], name: String = "", x: ChartAxis? = nil) {
        self.y = y
        self.marks = marks
        self.name = name
        self.x = x
    }
}

/// A chart described in Swift: title and subtitle, a shared x axis, one or more panels with their
/// marks, a legend and a colour bar. `drawing()` lays it out into primitives, and `ChartRenderer`
/// (the one file that talks to Cairo) draws those as PNG, SVG or PDF — the same picture in each.
///
/// Sizes are in points (1/72 in), which SVG and PDF keep; a PNG has `pixelScale` pixels per point.
public struct Chart: Sendable {
    public static let defaultSize = (width: 1200.0, height: 675.0)

    public var width: Double
    public var height: Double
    /// Device pixels per point in a PNG (`--dpi` / 96); lines are snapped to this grid.
    public var pixelScale: Double
    public var theme: ChartTheme
    public var title: String
    public var subtitle: String
    public var x: ChartAxis
    public var panels: [ChartPanel]
    public var legend: [ChartLegendEntry] = []
    public var colorBar: ChartColorBar?

    public init(
        width: Double = defaultSize.width, height: Double = defaultSize.height, pixelScale: Double = 1, theme: ChartTheme = .light,
        title: String, subtitle: String = "", x: ChartAxis, panels: [ChartPanel]
    ) {
        self.width = width
        self.height = height
        self.pixelScale = pixelScale
        self.theme = theme
        self.title = title
        self.subtitle = subtitle
        self.x = x
        self.panels = panels
    }

    /// Where everything goes. A view that fills its plot with a raster asks it for the size.
    public var layout: ChartLayout { ChartLayout(self) }
}

/// A rectangle in points, y downwards.
public struct ChartRect: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    func intersects(_ other: ChartRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }
}

/// The positions of a chart's parts, from its size and fonts. Text widths are estimated from the
/// font size (DejaVu Sans averages 0.6 em per character of labels like these), so layout needs no
/// font machinery; the backend measures text exactly only to align it.
public struct ChartLayout: Sendable {
    public let fontSize: Double
    public let titleSize: Double
    /// The plot area of each panel, top to bottom, on whole device pixels.
    public let panels: [ChartRect]
    public let colorBar: ChartRect?
    public let titleBaseline: Double
    public let subtitleBaseline: Double
    public let legendBaseline: Double
    let scale: Double

    init(_ chart: Chart) {
        // Fonts grow with the chart, from 0.6× of the default size's at small sizes to 2×.
        let size = min(2, max(0.6, min(chart.width / Chart.defaultSize.width, chart.height / Chart.defaultSize.height)))
        fontSize = 12 * size
        titleSize = 17 * size
        scale = chart.pixelScale
        let pad = 0.9 * fontSize
        titleBaseline = pad + titleSize
        subtitleBaseline = titleBaseline + (chart.subtitle.isEmpty ? 0 : 1.45 * fontSize)
        legendBaseline = subtitleBaseline + (chart.legend.isEmpty ? 0 : 1.7 * fontSize)
        let top = legendBaseline + 1.1 * fontSize
        let yLabels = chart.panels.flatMap(\.y.ticks).map(\.label.count).max() ?? 0
        let left = pad + (chart.panels.contains { !$0.y.label.isEmpty } ? 1.6 * fontSize : 0) + Double(yLabels) * 0.62 * fontSize + 0.6 * fontSize
        let bottom = pad + (chart.x.label.isEmpty ? 0 : 1.5 * fontSize) + 1.6 * fontSize
        var right = pad + 0.5 * fontSize
        var colorBar: ChartRect?
        let plotTop = top, plotBottom = chart.height - bottom
        if let bar = chart.colorBar {
            let labels = Double(bar.ticks.map(\.label.count).max() ?? 0) * 0.62 * fontSize
            let barWidth = 1.2 * fontSize
            let barX = chart.width - right - (bar.label.isEmpty ? 0 : 1.6 * fontSize) - labels - 0.5 * fontSize - barWidth
            colorBar = ChartRect(x: barX, y: plotTop, width: barWidth, height: max(1, plotBottom - plotTop))
            right = chart.width - barX + 1.2 * fontSize
        }
        // Panels on x axes of their own leave room between them for the upper one's labels.
        let ownAxes = chart.panels.contains { $0.x != nil }
        let gap = chart.panels.count > 1 ? (ownAxes ? 4.4 : 0.8) * fontSize : 0
        let count = Double(max(1, chart.panels.count))
        let panelHeight = max(1, (plotBottom - plotTop - gap * (count - 1)) / count)
        let scale = chart.pixelScale
        func snap(_ value: Double) -> Double { (value * scale).rounded() / scale }
        panels = chart.panels.indices.map { index in
            let y = snap(plotTop + Double(index) * (panelHeight + gap))
            let x = snap(left)
            return ChartRect(x: x, y: y, width: max(1 / scale, snap(chart.width - right) - x), height: max(1 / scale, snap(y + panelHeight) - y))
        }
        self.colorBar = colorBar.map { ChartRect(x: snap($0.x), y: snap($0.y), width: snap($0.width), height: snap($0.height)) }
    }

    /// The device pixels of panel `index`'s plot area: the size a raster mark should have.
    public func plotPixels(_ index: Int = 0) -> (width: Int, height: Int) {
        (max(1, Int((panels[index].width * scale).rounded())), max(1, Int((panels[index].height * scale).rounded())))
    }
}
