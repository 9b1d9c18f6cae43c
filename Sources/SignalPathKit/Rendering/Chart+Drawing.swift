extension Chart {
    /// The chart as primitives in drawing order: background, grids, marks (clipped to their
    /// panels), frames, ticks and labels, title, legend, colour bar.
    public func drawing() -> [ChartPrimitive] {
        let layout = self.layout
        let font = layout.fontSize
        var out: [ChartPrimitive] = [.rect(ChartRect(x: 0, y: 0, width: width, height: height), fill: theme.color(.background))]
        for index in panels.indices { drawPanel(index, in: layout.panels[index], font: font, into: &out) }
        if let last = layout.panels.last, let x = panels.last.map({ $0.x ?? self.x }), !x.label.isEmpty {
            out.append(.text(x.label, x: last.x + last.width / 2, y: height - 0.9 * font, size: font, color: theme.color(.mutedText), anchor: .middle))
        }
        // Title and subtitle.
        let left = layout.panels.first?.x ?? 0.9 * font
        out.append(.text(TerminalText.sanitized(title), x: left, y: layout.titleBaseline, size: layout.titleSize, color: theme.color(.text), anchor: .start, bold: true))
        if !subtitle.isEmpty {
            out.append(.text(TerminalText.sanitized(subtitle), x: left, y: layout.subtitleBaseline, size: font * 0.95, color: theme.color(.mutedText), anchor: .start))
        }
        drawLegend(left: left, baseline: layout.legendBaseline, font: font, into: &out)
        if let bar = colorBar, let rect = layout.colorBar { drawColorBar(bar, rect: rect, font: font, into: &out) }
        return out
    }

    /// A device pixel's width: the hairline of grids, frames and ticks.
    private var hairline: Double { 1 / pixelScale }

    /// A coordinate on the centre of a device pixel, so a one-pixel line is crisp.
    private func crisp(_ value: Double) -> Double { ((value * pixelScale).rounded(.down) + 0.5) / pixelScale }

    /// Panel `index` in `rect`: its grid, its marks and their labels (clipped to it), then its
    /// frame, ticks and labels.
    private func drawPanel(_ index: Int, in rect: ChartRect, font: Double, into out: inout [ChartPrimitive]) {
        let panel = panels[index]
        let x = panel.x ?? self.x
        let xTicks = x.visibleTicks, yTicks = panel.y.visibleTicks
        func px(_ value: Double) -> Double { rect.x + x.fraction(value) * rect.width }
        func py(_ value: Double) -> Double { rect.maxY - panel.y.fraction(value) * rect.height }
        // Grid at the major ticks.
        let grid = theme.color(.grid)
        for tick in xTicks where x.grid && tick.major {
            let gx = crisp(px(tick.value))
            out.append(.path(points: [(gx, rect.y), (gx, rect.maxY)], stroke: grid, fill: nil, width: hairline, dash: []))
        }
        for tick in yTicks where panel.y.grid && tick.major {
            let gy = crisp(py(tick.value))
            out.append(.path(points: [(rect.x, gy), (rect.maxX, gy)], stroke: grid, fill: nil, width: hairline, dash: []))
        }
        out.append(.clip(rect))
        var labels: [PanelLabel] = []
        for mark in panel.marks { draw(mark, in: rect, px: px, py: py, font: font, into: &out, labels: &labels) }
        place(labels, in: rect, over: panel.marks, px: px, py: py, font: font, into: &out)
        out.append(.unclip)
        // A panel whose x axis is not the next one's shows its labels, and its axis's name.
        let last = index == panels.count - 1
        let labelled = last || panel.x != nil || panels[index + 1].x != nil
        drawFrameAndTicks(x: x, xTicks: xTicks, yTicks: yTicks, in: rect, labelled: labelled, px: px, py: py, font: font, into: &out)
        let muted = theme.color(.mutedText)
        let bottom = crisp(rect.maxY), tickLength = 0.4 * font
        if labelled && !last && !x.label.isEmpty {
            out.append(.text(x.label, x: rect.x + rect.width / 2, y: bottom + tickLength + 2.5 * font, size: font, color: muted, anchor: .middle))
        }
        if !panel.y.label.isEmpty {
            out.append(.text(panel.y.label, x: 0.9 * font + 0.8 * font, y: rect.y + rect.height / 2, size: font, color: muted, anchor: .middle, vertical: true))
        }
        if !panel.name.isEmpty {
            out.append(
                .text(TerminalText.sanitized(panel.name), x: rect.x + 0.5 * font, y: rect.y + 1.3 * font, size: font, color: theme.color(.text), anchor: .start, bold: true))
        }
    }

    /// A panel's frame, its ticks and the ticks' labels (the x axis's only where `labelled`).
    private func drawFrameAndTicks(
        x: ChartAxis, xTicks: [ChartTick], yTicks: [ChartTick], in rect: ChartRect, labelled: Bool, px: (Double) -> Double,
        py: (Double) -> Double, font: Double, into out: inout [ChartPrimitive]
    ) {
        let axis = theme.color(.axis), muted = theme.color(.mutedText)
        let frame = ChartRect(x: crisp(rect.x - hairline), y: crisp(rect.y - hairline), width: 0, height: 0)
        let right = crisp(rect.maxX), bottom = crisp(rect.maxY)
        out.append(
            .path(
                points: [(frame.x, frame.y), (right, frame.y), (right, bottom), (frame.x, bottom), (frame.x, frame.y)], stroke: axis, fill: nil,
                width: hairline, dash: []))
        let tickLength = 0.4 * font
        for tick in yTicks {
            let ty = crisp(py(tick.value))
            out.append(.path(points: [(frame.x - (tick.major ? tickLength : tickLength / 2), ty), (frame.x, ty)], stroke: axis, fill: nil, width: hairline, dash: []))
            if !tick.label.isEmpty {
                out.append(.text(tick.label, x: frame.x - tickLength - 0.3 * font, y: ty, size: font, color: muted, anchor: .end, centred: true))
            }
        }
        for tick in xTicks {
            let tx = crisp(px(tick.value))
            out.append(.path(points: [(tx, bottom), (tx, bottom + (tick.major ? tickLength : tickLength / 2))], stroke: axis, fill: nil, width: hairline, dash: []))
        }
        guard labelled else { return }
        // Labels left to right, each only where it does not touch the previous one.
        var end = -Double.infinity
        for tick in xTicks where !tick.label.isEmpty {
            let tx = px(tick.value)
            let half = Double(tick.label.count) * 0.31 * font
            let anchorX = min(max(tx, rect.x - tickLength + half), width - half - 2)
            guard anchorX - half > end + 0.6 * font else { continue }
            out.append(.text(tick.label, x: anchorX, y: bottom + tickLength + 1.05 * font, size: font, color: muted, anchor: .middle))
            end = anchorX + half
        }
    }

    private func draw(
        _ mark: ChartMark, in rect: ChartRect, px: (Double) -> Double, py: (Double) -> Double, font: Double, into out: inout [ChartPrimitive],
        labels: inout [PanelLabel]
    ) {
        // Values far outside the panel are pulled to just outside it: the clip cuts them, and
        // -inf dB (digital silence) becomes a line along the bottom edge instead of no line.
        func clampY(_ value: Double) -> Double { min(max(value, rect.y - rect.height), rect.maxY + 2) }
        switch mark {
        case .line(let points, let color, let dash, let lineWidth):
            var mapped = points.map { (x: px($0.x), y: clampY($0.y.isNaN ? rect.maxY + 2 : py($0.y))) }
            guard let only = mapped.first else { return }
            // A single point (a value between two missing ones) is a dash as wide as the line.
            if mapped.count == 1 { mapped = [(only.x - lineWidth / 2, only.y), (only.x + lineWidth / 2, only.y)] }
            out.append(.path(points: mapped, stroke: theme.color(color), fill: nil, width: lineWidth, dash: dash.pattern.map { $0 * lineWidth }))
        case .area(let xs, let lower, let upper, let color, let opacity):
            guard !xs.isEmpty else { return }
            var points = xs.indices.map { (x: px(xs[$0]), y: clampY(py(upper[$0]))) }
            points += xs.indices.reversed().map { (x: px(xs[$0]), y: clampY(py(lower[$0]))) }
            out.append(.path(points: points, stroke: nil, fill: theme.color(color), width: 0, dash: [], opacity: opacity))
        case .bars(let bars, let color, let opacity):
            for bar in bars {
                let left = px(bar.x.lowerBound), right = px(bar.x.upperBound)
                let top = clampY(py(bar.value))
                guard top < rect.maxY else { continue }
                out.append(.rect(ChartRect(x: left, y: top, width: max(right - left, 1 / pixelScale), height: rect.maxY - top), fill: theme.color(color), opacity: opacity))
            }
        case .raster(let raster):
            out.append(.image(raster, rect))
        case .horizontalBand(let range, let color, let label):
            let top = clampY(py(range.upperBound)), bottom = clampY(py(range.lowerBound))
            out.append(.rect(ChartRect(x: rect.x, y: top, width: rect.width, height: bottom - top), fill: theme.color(color)))
            if !label.isEmpty {
                // Above the band at its left end, else where fewer lines pass: rules (the
                // integrated level) prefer the right.
                let above = top - 0.35 * font, below = bottom + 1.05 * font
                labels.append(
                    PanelLabel(
                        text: label, color: theme.color(.mutedText),
                        spots: [
                            (rect.x + 0.5 * font, above, .start), (rect.maxX - 0.5 * font, above, .end), (rect.x + 0.5 * font, below, .start),
                            (rect.maxX - 0.5 * font, below, .end),
                        ]))
            }
        case .horizontalRule(let y, let color, let dash, let label):
            let ry = py(y)
            out.append(.path(points: [(rect.x, ry), (rect.maxX, ry)], stroke: theme.color(color), fill: nil, width: 1.2, dash: dash.pattern.map { $0 * 1.2 }))
            if !label.isEmpty {
                let above = ry - 0.4 * font, below = ry + 1.15 * font
                labels.append(
                    PanelLabel(
                        text: label, color: theme.color(color),
                        spots: [
                            (rect.maxX - 0.5 * font, above, .end), (rect.x + 0.5 * font, above, .start), (rect.maxX - 0.5 * font, below, .end),
                            (rect.x + 0.5 * font, below, .start),
                        ]))
            }
        case .markers(let points, let color):
            drawMarkers(points, color: theme.color(color), in: rect, px: px, py: py, clampY: clampY, font: font, into: &out)
        case .edgeTicks(let xs, let color):
            let rgb = theme.color(color)
            for value in xs {
                let tx = px(value)
                out.append(.path(points: [(tx, rect.y), (tx, rect.y + 0.6 * font)], stroke: rgb, fill: nil, width: max(1, 1 / pixelScale), dash: []))
            }
        }
    }

    /// Markers (a downward triangle at each point), then their labels beside or above them where
    /// they hide no marker and no other label.
    private func drawMarkers(
        _ points: [(x: Double, y: Double, label: String)], color rgb: RGB, in rect: ChartRect, px: (Double) -> Double, py: (Double) -> Double, clampY: (Double) -> Double,
        font: Double, into out: inout [ChartPrimitive]
    ) {
        let size = 0.45 * font
        var taken: [ChartRect] = []
        let placed = points.map { point in (x: px(point.x), y: clampY(py(point.y)) - 0.3 * font, label: point.label) }
        for point in placed {
            out.append(
                .path(
                    points: [(point.x - size, point.y - 1.6 * size), (point.x + size, point.y - 1.6 * size), (point.x, point.y), (point.x - size, point.y - 1.6 * size)],
                    stroke: nil, fill: rgb, width: 0, dash: []))
            taken.append(ChartRect(x: point.x - size, y: point.y - 1.6 * size, width: 2 * size, height: 1.6 * size))
        }
        for point in placed where !point.label.isEmpty {
            let labelWidth = Double(point.label.count) * 0.58 * font * 0.9
            let spots = [
                (x: point.x + size + 0.2 * font, y: point.y - 0.2 * font, anchor: ChartPrimitive.Anchor.start),
                (x: point.x - size - 0.2 * font, y: point.y - 0.2 * font, anchor: .end),
                (x: point.x, y: point.y - 1.6 * size - 0.3 * font, anchor: .middle),
            ]
            for spot in spots {
                let start = spot.anchor == .start ? spot.x : spot.anchor == .end ? spot.x - labelWidth : spot.x - labelWidth / 2
                let box = ChartRect(x: start, y: spot.y - 0.9 * font, width: labelWidth, height: 1.1 * font)
                guard box.x >= rect.x, box.maxX <= rect.maxX, box.y >= rect.y, !taken.contains(where: { $0.intersects(box) }) else { continue }
                out.append(.text(point.label, x: spot.x, y: spot.y, size: font * 0.9, color: rgb, anchor: spot.anchor))
                taken.append(box)
                break
            }
        }
    }

    /// A band's or a rule's label, drawn after the panel's marks at the first of `spots` (x,
    /// baseline, anchor) that the fewest lines cross.
    struct PanelLabel {
        var text: String
        var color: RGB
        var spots: [(x: Double, y: Double, anchor: ChartPrimitive.Anchor)]
    }

    /// Labels over the marks, never struck through: each at the spot inside the panel that the
    /// fewest of the marks' lines cross (the first such in its order) and that no label before it
    /// took, on a box of the background colour that hides whatever still passes under it.
    private func place(
        _ labels: [PanelLabel], in rect: ChartRect, over marks: [ChartMark], px: (Double) -> Double, py: (Double) -> Double, font: Double,
        into out: inout [ChartPrimitive]
    ) {
        guard !labels.isEmpty else { return }
        var lines: [[(x: Double, y: Double)]] = []
        for mark in marks {
            switch mark {
            case .line(let points, _, _, _): lines.append(points.map { (px($0.x), py($0.y)) })
            case .area(let xs, let lower, let upper, _, _):
                lines.append(xs.indices.map { (px(xs[$0]), py(upper[$0])) })
                lines.append(xs.indices.map { (px(xs[$0]), py(lower[$0])) })
            default: break
            }
        }
        let size = 0.9 * font, pad = 0.3 * font
        var taken: [ChartRect] = []
        for label in labels {
            let width = Double(label.text.count) * 0.6 * size
            func box(_ spot: (x: Double, y: Double, anchor: ChartPrimitive.Anchor)) -> ChartRect {
                let start = spot.anchor == .start ? spot.x : spot.anchor == .end ? spot.x - width : spot.x - width / 2
                return ChartRect(x: start - pad, y: spot.y - 0.95 * size, width: width + 2 * pad, height: 1.25 * size)
            }
            let inside = label.spots.filter { spot in
                let b = box(spot)
                return b.x >= rect.x && b.maxX <= rect.maxX && b.y >= rect.y && b.maxY <= rect.maxY && !taken.contains { $0.intersects(b) }
            }
            guard let spot = inside.min(by: { Self.crossings(lines, box($0)) < Self.crossings(lines, box($1)) }) ?? label.spots.first else { continue }
            let chosen = box(spot)
            taken.append(chosen)
            out.append(.rect(chosen, fill: theme.color(.background)))
            out.append(.text(label.text, x: spot.x, y: spot.y, size: size, color: label.color, anchor: spot.anchor))
        }
    }

    /// How many segments of `lines` pass through `box` (Liang–Barsky clipping of each segment).
    static func crossings(_ lines: [[(x: Double, y: Double)]], _ box: ChartRect) -> Int {
        var count = 0
        for line in lines {
            for (a, b) in zip(line, line.dropFirst()) {
                guard max(a.x, b.x) >= box.x, min(a.x, b.x) <= box.maxX, max(a.y, b.y) >= box.y, min(a.y, b.y) <= box.maxY else { continue }
                var low = 0.0, high = 1.0
                let dx = b.x - a.x, dy = b.y - a.y
                var crosses = true
                for (p, q) in [(-dx, a.x - box.x), (dx, box.maxX - a.x), (-dy, a.y - box.y), (dy, box.maxY - a.y)] {
                    if p == 0 {
                        if q < 0 { crosses = false }
                    } else if p < 0 {
                        low = max(low, q / p)
                    } else {
                        high = min(high, q / p)
                    }
                }
                if crosses && low <= high { count += 1 }
            }
        }
        return count
    }

    /// `━ left  ┅ right` after the subtitle: each series' colour and dash, then its name.
    private func drawLegend(left: Double, baseline: Double, font: Double, into out: inout [ChartPrimitive]) {
        var x = left
        for entry in legend {
            let color = theme.color(entry.color)
            let sample = 2.2 * font
            switch entry.kind {
            case .line:
                out.append(
                    .path(
                        points: [(x, baseline - 0.35 * font), (x + sample, baseline - 0.35 * font)], stroke: color, fill: nil, width: 2,
                        dash: entry.dash.pattern.map { $0 * 2 }))
            case .bar:
                out.append(.rect(ChartRect(x: x, y: baseline - 0.8 * font, width: sample, height: 0.8 * font), fill: color))
            }
            let name = TerminalText.sanitized(entry.name)
            out.append(.text(name, x: x + sample + 0.4 * font, y: baseline, size: font, color: theme.color(.text), anchor: .start))
            x += sample + 0.4 * font + Double(name.count) * 0.62 * font + 1.2 * font
        }
    }

    /// The colour map as a vertical bar, hottest at the top, with its ticks and label.
    private func drawColorBar(_ bar: ChartColorBar, rect: ChartRect, font: Double, into out: inout [ChartPrimitive]) {
        let rows = max(1, Int((rect.height * pixelScale).rounded()))
        var raster = ChartRaster(width: 1, height: rows)
        for row in 0..<rows {
            raster[0, row] = ChartRaster.pixel(bar.colorMap.color(UInt8((Double(rows - 1 - row) / Double(max(1, rows - 1)) * 255).rounded())))
        }
        out.append(.image(raster, rect))
        let axis = theme.color(.axis), muted = theme.color(.mutedText)
        let span = bar.range.upperBound - bar.range.lowerBound
        // The frame just outside the bar, as around a plot: every row of the bar shows the map.
        let left = crisp(rect.x - hairline), top = crisp(rect.y - hairline), right = crisp(rect.maxX), bottom = crisp(rect.maxY)
        out.append(.path(points: [(left, top), (right, top), (right, bottom), (left, bottom), (left, top)], stroke: axis, fill: nil, width: hairline, dash: []))
        for tick in bar.ticks where span > 0 {
            let ty = crisp(rect.maxY - (tick.value - bar.range.lowerBound) / span * rect.height)
            out.append(.path(points: [(rect.maxX, ty), (rect.maxX + 0.4 * font, ty)], stroke: axis, fill: nil, width: 1 / pixelScale, dash: []))
            out.append(.text(tick.label, x: rect.maxX + 0.6 * font, y: ty, size: font, color: muted, anchor: .start, centred: true))
        }
        if !bar.label.isEmpty {
            out.append(.text(bar.label, x: width - 0.9 * font - 0.5 * font, y: rect.y + rect.height / 2, size: font, color: muted, anchor: .middle, vertical: true))
        }
    }
}

extension ChartAxis {
    /// The ticks within the axis's range (with a hair's room for rounding at its ends).
    fileprivate var visibleTicks: [ChartTick] { ticks.filter { fraction($0.value) >= -1e-9 && fraction($0.value) <= 1 + 1e-9 } }
}
