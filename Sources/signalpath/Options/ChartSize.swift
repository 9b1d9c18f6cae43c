/// A chart's `--size`: pixels of a PNG at 96 dpi, points of SVG and PDF.
struct ChartSize: Equatable {
    var width: Int
    var height: Int
}
