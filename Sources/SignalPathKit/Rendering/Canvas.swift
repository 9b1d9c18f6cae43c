/// A grid of cells that views draw into: width × height, row-major. Views never touch the terminal;
/// a backend renders canvases.
public struct Canvas: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    /// A canvas filled with `fill`.
    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = [Cell](repeating: fill, count: self.width * self.height)
    }

    /// The cell at column `x`, row `y`; nil outside.
    public subscript(x: Int, y: Int) -> Cell? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return cells[y * width + x]
    }

    /// Sets a cell; drawing outside the canvas does nothing.
    /// - Complexity: O(1).
    public mutating func put(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        cells[y * width + x] = cell
    }

    /// Writes `text` from column `x` of row `y`, clipped to the canvas and to `limit` columns.
    public mutating func write(_ text: String, x: Int, y: Int, style: Style, limit: Int? = nil) {
        var column = x
        let end = limit.map { x + $0 } ?? width
        for character in text {
            guard column < min(end, width) else { break }
            put(Cell(character, style), x: column, y: y)
            column += 1
        }
    }

    /// Fills `area` with `cell`.
    public mutating func fill(_ area: Area, with cell: Cell) {
        for y in area.rows { for x in area.columns { put(cell, x: x, y: y) } }
    }

    /// The characters, one line per row (for golden tests and plain output).
    public var text: String {
        (0..<height).map { y in String(cells[y * width..<(y + 1) * width].map(\.character)) }.joined(separator: "\n")
    }

    /// The style codes, one line per row (styles compared as data in golden tests).
    public var styleCodes: String {
        (0..<height).map { y in String(cells[y * width..<(y + 1) * width].map { $0.style.code }) }.joined(separator: "\n")
    }
}

/// A rectangle of a canvas, in cells.
public struct Area: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var columns: Range<Int> { x..<x + width }
    public var rows: Range<Int> { y..<y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
}
