/// The terminal backend: turns canvases into text with ANSI escape codes for a colour depth. The
/// only place where styles become escape codes.
public struct ANSIRenderer: Sendable {
    public var depth: ColorDepth
    public var theme: Theme

    public init(depth: ColorDepth, theme: Theme = Theme()) {
        self.depth = depth
        self.theme = theme
    }

    /// The whole canvas, line by line, for printing (no cursor movement); attributes are reset at
    /// the end of every line so that a cut pipe or a scroll leaves no colour behind.
    public func lines(_ canvas: Canvas) -> String {
        var output = ""
        for y in 0..<canvas.height {
            var current: (Style, Style?)? = nil
            for x in 0..<canvas.width {
                let cell = canvas[x, y]!
                output += attributes(for: cell, after: &current)
                output.append(cell.character)
            }
            if current != nil && depth != .none { output += "\u{1B}[0m" }
            // Trailing blanks are dropped: they carry nothing, and they wrap on a narrower terminal.
            while output.hasSuffix(" ") { output.removeLast() }
            output += "\n"
        }
        return output
    }

    /// What moves the screen from `previous` to `canvas` (full-screen use): only changed cells are
    /// written, with cursor positioning, inside synchronized-output mode (DEC 2026) so the terminal
    /// shows the frame at once. A nil or differently sized `previous` redraws everything.
    public func frame(_ canvas: Canvas, previous: Canvas?) -> String {
        var output = "\u{1B}[?2026h"
        let redraw = previous.map { $0.width != canvas.width || $0.height != canvas.height } ?? true
        if redraw { output += "\u{1B}[0m\u{1B}[2J" }
        var current: (Style, Style?)? = nil
        for y in 0..<canvas.height {
            var cursorAt: Int? = nil
            for x in 0..<canvas.width {
                let cell = canvas[x, y]!
                if !redraw, previous?[x, y] == cell { continue }
                if cursorAt != x { output += "\u{1B}[\(y + 1);\(x + 1)H" }
                output += attributes(for: cell, after: &current)
                output.append(cell.character)
                cursorAt = x + 1
            }
        }
        if depth != .none { output += "\u{1B}[0m" }
        output += "\u{1B}[?2026l"
        return output
    }

    /// The SGR sequence that switches to `cell`'s colours, or nothing when they are current.
    private func attributes(for cell: Cell, after current: inout (Style, Style?)?) -> String {
        guard depth != .none else { return "" }
        if let (style, background) = current, style == cell.style, background == cell.background { return "" }
        current = (cell.style, cell.background)
        var codes = ["0"]
        if cell.style == .title { codes.append("1") }
        if let color = theme.color(cell.style) { codes.append(sgr(color, foreground: true)) }
        if let background = cell.background, let color = theme.color(background) { codes.append(sgr(color, foreground: false)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// The colour part of an SGR sequence at this depth.
    func sgr(_ color: RGB, foreground: Bool) -> String {
        switch depth {
        case .truecolor: return "\(foreground ? 38 : 48);2;\(color.red);\(color.green);\(color.blue)"
        case .ansi256: return "\(foreground ? 38 : 48);5;\(Self.index256(color))"
        case .ansi16:
            let index = Self.index16(color)
            return String((foreground ? 30 : 40) + index % 8 + (index >= 8 ? 60 : 0))
        case .none: return ""
        }
    }

    /// The nearest of xterm's 256 colours: the 6×6×6 cube or the 24 greys.
    static func index256(_ color: RGB) -> Int {
        func level(_ value: UInt8) -> Int { value < 48 ? 0 : value < 115 ? 1 : (Int(value) - 35) / 40 }
        let steps = [0, 95, 135, 175, 215, 255]
        let r = level(color.red), g = level(color.green), b = level(color.blue)
        let cube = RGB(UInt8(steps[r]), UInt8(steps[g]), UInt8(steps[b]))
        let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let greyIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grey = UInt8(8 + greyIndex * 10)
        let greyColor = RGB(grey, grey, grey)
        return distance(color, greyColor) < distance(color, cube) ? 232 + greyIndex : 16 + 36 * r + 6 * g + b
    }

    /// The nearest of the 16 standard colours (xterm's defaults).
    static func index16(_ color: RGB) -> Int {
        let palette: [UInt32] = [
            0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
            0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
        ]
        return palette.indices.min { distance(color, RGB(hex: palette[$0])) < distance(color, RGB(hex: palette[$1])) }!
    }

    private static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.red) - Int(b.red), dg = Int(a.green) - Int(b.green), db = Int(a.blue) - Int(b.blue)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}
