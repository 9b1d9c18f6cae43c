/// A canvas as a standalone SVG document (no external resources): each cell a monospace glyph in
/// its style's colour; half-block heat cells as two rectangles, so heat maps need no font.
public struct SVGWriter: Sendable {
    public var theme: Theme
    public static let cellWidth = 8.0, cellHeight = 16.0

    public init(theme: Theme = Theme()) {
        self.theme = theme
    }

    public func document(_ canvas: Canvas) -> String {
        let width = Double(canvas.width) * Self.cellWidth, height = Double(canvas.height) * Self.cellHeight
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))">
            <rect width="100%" height="100%" fill="#101010"/>
            <g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="13">

            """
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let cell = canvas[x, y]!
                let left = Double(x) * Self.cellWidth, top = Double(y) * Self.cellHeight
                if cell.character == "▀" || cell.character == "█", let color = theme.color(cell.style) {
                    let half = cell.character == "▀" ? Self.cellHeight / 2 : Self.cellHeight
                    svg += rect(left, top, half, color)
                    if cell.character == "▀", let background = cell.background.flatMap(theme.color) {
                        svg += rect(left, top + half, Self.cellHeight / 2, background)
                    }
                    continue
                }
                guard cell.character != " " else { continue }
                let color = theme.color(cell.style) ?? RGB(hex: 0xDDDDDD)
                svg += "<text x=\"\(left)\" y=\"\(top + 12)\" fill=\"\(color.hexString)\">\(Self.escaped(cell.character))</text>\n"
            }
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    private func rect(_ x: Double, _ y: Double, _ height: Double, _ color: RGB) -> String {
        "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(Self.cellWidth)\" height=\"\(height)\" fill=\"\(color.hexString)\"/>\n"
    }

    static func escaped(_ character: Character) -> String {
        switch character {
        case "&": return "&amp;"
        case "<": return "&lt;"
        case ">": return "&gt;"
        case "\"": return "&quot;"
        default: return String(character)
        }
    }
}
