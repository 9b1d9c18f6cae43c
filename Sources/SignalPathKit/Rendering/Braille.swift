/// Dots at 2 × 4 per cell, drawn as Unicode braille (U+2800…U+28FF): a line trace four times finer
/// vertically and twice as fine horizontally as the cells.
public struct BrailleGrid: Sendable {
    public let columns: Int
    public let rows: Int
    /// Dot bits per cell, and which style (channel) set the cell's last dot.
    private var bits: [UInt8]
    private var styles: [Style?]

    /// Dot widths and heights: `columns × 2` by `rows × 4`.
    public var dotWidth: Int { columns * 2 }
    public var dotHeight: Int { rows * 4 }

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        bits = [UInt8](repeating: 0, count: self.columns * self.rows)
        styles = [Style?](repeating: nil, count: self.columns * self.rows)
    }

    /// The braille bit of the dot at (column 0–1, row 0–3) of a cell.
    private static let dotBits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// Sets the dot at `x`, `y` (0,0 top left); outside the grid does nothing.
    public mutating func set(x: Int, y: Int, style: Style) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        let cell = (y / 4) * columns + x / 2
        bits[cell] |= Self.dotBits[x % 2][y % 4]
        styles[cell] = style
    }

    /// Dots from (x0, y0) to (x1, y1) without gaps (Bresenham).
    public mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), style: Style) {
        var count = 0
        line(from: start, to: end, style: style, pattern: .solid, count: &count)
    }

    /// Dots from (x0, y0) to (x1, y1) along Bresenham's path, of which `pattern` keeps some;
    /// `count` numbers the dots along a polyline, so a pattern runs on across its segments (whose
    /// first dot, the previous segment's last, is skipped with `fromEnd`).
    public mutating func line(
        from start: (x: Int, y: Int), to end: (x: Int, y: Int), style: Style, pattern: DotPattern, count: inout Int, fromEnd: Bool = false
    ) {
        var x = start.x, y = start.y
        var skip = fromEnd
        let dx = abs(end.x - x), dy = -abs(end.y - y)
        let stepX = x < end.x ? 1 : -1, stepY = y < end.y ? 1 : -1
        var error = dx + dy
        while true {
            if !skip {
                if pattern.keeps(count) { set(x: x, y: y, style: style) }
                count += 1
            }
            skip = false
            if x == end.x && y == end.y { break }
            let doubled = 2 * error
            if doubled >= dy {
                error += dy
                x += stepX
            }
            if doubled <= dx {
                error += dx
                y += stepY
            }
        }
    }

    /// Draws the cells that have dots into `canvas` at `area`'s origin.
    public func draw(into canvas: inout Canvas, at area: Area) {
        for row in 0..<min(rows, area.height) {
            for column in 0..<min(columns, area.width) {
                let index = row * columns + column
                guard bits[index] != 0, let style = styles[index] else { continue }
                let character = Character(Unicode.Scalar(0x2800 + UInt32(bits[index]))!)
                canvas.put(Cell(character, style), x: area.x + column, y: area.y + row)
            }
        }
    }
}

/// Which dots of a line are drawn: solid, dotted, dashed or dash-dotted, so that traces can be
/// told apart without colour.
public enum DotPattern: Int, Sendable, CaseIterable {
    case solid, dotted, dashed, dashDotted

    /// The pattern of channel `index` when traces cannot be told apart by colour.
    public static func forChannel(_ index: Int) -> DotPattern { allCases[index % allCases.count] }

    /// Whether the `index`th dot along a line is drawn.
    public func keeps(_ index: Int) -> Bool {
        switch self {
        case .solid: return true
        case .dotted: return index % 2 == 0
        case .dashed: return index % 6 < 3
        case .dashDotted: return index % 8 < 3 || index % 8 == 5
        }
    }

    /// A horizontal run of the pattern, `cells` braille cells long: the legend's sample.
    public func sample(cells: Int) -> String {
        var grid = BrailleGrid(columns: cells, rows: 1)
        var count = 0
        grid.line(from: (0, 1), to: (cells * 2 - 1, 1), style: .plain, pattern: self, count: &count)
        var canvas = Canvas(width: cells, height: 1)
        grid.draw(into: &canvas, at: Area(x: 0, y: 0, width: cells, height: 1))
        return canvas.text
    }
}
