/// What the chart backend draws: shapes, text and images in points, colours resolved. A chart
/// becomes a list of these (`Chart.drawing()`), and `ChartRenderer` turns the list into PNG, SVG
/// or PDF, so every format shows the same picture and the layout is tested without Cairo.
public enum ChartPrimitive: Sendable {
    public enum Anchor: Sendable { case start, middle, end }

    /// A filled rectangle.
    case rect(ChartRect, fill: RGB, opacity: Double = 1)
    /// A path through `points`: stroked when `stroke` is set (width in points, dash in multiples of
    /// it), filled when `fill` is (closed first).
    case path(points: [(x: Double, y: Double)], stroke: RGB?, fill: RGB?, width: Double, dash: [Double], opacity: Double = 1)
    /// Text with its baseline at `y` (or centred on `y` when `centred`), anchored at `x`;
    /// `vertical` turns it 90° anticlockwise about (x, y).
    case text(String, x: Double, y: Double, size: Double, color: RGB, anchor: Anchor, bold: Bool = false, centred: Bool = false, vertical: Bool = false)
    /// Pixels stretched over `rect` without smoothing.
    case image(ChartRaster, ChartRect)
    /// Limits what follows, until `.unclip`, to `rect`.
    case clip(ChartRect)
    case unclip
}
