/// The full-screen live view: a title, the spectrum at the play head and/or a scrolling
/// spectrogram, a meter per channel and a status line that ends with the keys.
public struct LiveScreen: Sendable {
    public var title: String
    public var frame: LiveFrame?
    /// Spectrogram columns, oldest first: dB per row of the frame's spectrum (mean of channels).
    public private(set) var history: [[Double]] = []
    /// The time of each column of `history` (seconds of the file or the recording).
    public private(set) var historyTimes: [Double] = []
    public var meters: MeterState
    public var view = ReplayView.both
    /// What the last line says before the keys: `▶ 00:12.3 / 01:00.0  ×1  both`.
    public var status = ""
    public var hints: KeyHints
    public var now: Double = 0
    public var floor = -100.0
    /// Channels told apart by pattern rather than colour (no colour on the terminal).
    public var monochrome = false

    public init(title: String, channels: Int, hints: KeyHints) {
        self.title = title
        meters = MeterState(channels: channels)
        self.hints = hints
    }

    /// Adds a frame shown at wall time `now`: meters, and the spectrogram's next column when the
    /// frame is later than the last one (a paused view does not scroll), keeping at most `limit`.
    public mutating func show(_ frame: LiveFrame, now: Double, limit: Int) {
        self.frame = frame
        self.now = now
        meters.update(frame, now: now)
        if let last = historyTimes.last, frame.time <= last {
            if frame.time < last { clearHistory() } else { return }
        }
        let rows = frame.spectrum.rows
        let channels = Double(max(1, frame.channelNames.count))
        // The mean power of the channels, in dB.
        history.append(
            rows.map { row in
                10 * log10(row.values.reduce(0) { $0 + pow(10, $1 / 10) } / channels)
            })
        historyTimes.append(frame.time)
        if history.count > limit {
            history.removeFirst(history.count - limit)
            historyTimes.removeFirst(historyTimes.count - limit)
        }
    }

    /// Forgets the spectrogram's columns: after a seek or a change of speed, the columns before
    /// it would not lie on one time axis with those after it.
    public mutating func clearHistory() {
        history.removeAll()
        historyTimes.removeAll()
    }

    /// The spectrogram's time axis: from its oldest column to its newest, as they were taken.
    public var historyTimeRange: ClosedRange<Double> {
        guard let first = historyTimes.first, let last = historyTimes.last else { return 0...0 }
        return first...max(first, last)
    }

    /// How many of `channels` a screen of `rows` shows (meters and spectrum traces): all that fit
    /// in a third of its rows, so the views keep the rest. A live loop analyses only these.
    public static func shownChannels(of channels: Int, rows: Int) -> Int { min(channels, max(1, rows / 3)) }

    public func draw(into canvas: inout Canvas, area: Area) {
        guard !area.isEmpty else { return }
        canvas.fill(area, with: .blank)
        canvas.write(title, x: area.x, y: area.y, style: .title, limit: area.width)
        let channels = Array((frame?.channelNames ?? []).prefix(Self.shownChannels(of: frame?.channelCount ?? 0, rows: area.height)))
        let metersTop = area.y + area.height - 1 - channels.count
        drawMeters(into: &canvas, area: Area(x: area.x, y: metersTop, width: area.width, height: channels.count))
        canvas.write(hints.line(status: status, width: area.width), x: area.x, y: area.y + area.height - 1, style: .label, limit: area.width)
        let loudnessRow = metersTop - 1
        if let frame, loudnessRow > area.y + 4 {
            canvas.write(Self.loudnessLine(frame, shown: channels.count), x: area.x, y: loudnessRow, style: .label, limit: area.width)
        }
        let views = Area(x: area.x, y: area.y + 1, width: area.width, height: loudnessRow - area.y - 1)
        guard let frame, views.height >= 4 else { return }
        let rows = frame.spectrum.rows
        let frequencies = rows.map(\.frequency)
        var spectrum = SpectrumPlot(
            title: "spectrum at the play head · \(frame.spectrum.spectrum.parameters.fftSize)-pt Hann · dBFS",
            frequencies: frequencies,
            channels: channels.indices.map { channel in (channels[channel], rows.map { $0.values[channel] }) })
        spectrum.floor = floor
        spectrum.ceiling = 0
        spectrum.traceStyle = frame.spectrum.presentation.bands != nil ? .bars : .lines
        spectrum.monochrome = monochrome
        var spectrogram = SpectrogramPlot(title: "spectrogram (scrolling)", frequencies: frequencies, frames: history, times: historyTimeRange)
        spectrogram.floor = floor
        spectrogram.ceiling = 0
        spectrogram.shades = monochrome
        switch view {
        case .spectrum:
            spectrum.draw(into: &canvas, area: views)
        case .spectrogram:
            spectrogram.draw(into: &canvas, area: views)
        case .both:
            let upper = views.height / 2
            spectrum.draw(into: &canvas, area: Area(x: views.x, y: views.y, width: views.width, height: upper))
            spectrogram.draw(into: &canvas, area: Area(x: views.x, y: views.y + upper, width: views.width, height: views.height - upper))
        }
    }

    /// `loudness  M -20.1 LUFS  S -21.3 LUFS`: momentary and short-term at the head (of all
    /// channels), `-` before a full window and below the gate; and which channels the meters and
    /// the spectrum show when not all of them fit.
    static func loudnessLine(_ frame: LiveFrame, shown: Int) -> String {
        func lufs(_ value: Double?) -> String { value.map { UnitFormat.fixed($0, 1) + " LUFS" } ?? "-" }
        let line = "loudness  M \(lufs(frame.momentary))  S \(lufs(frame.shortTerm))"
        guard shown < frame.channelCount else { return line }
        return line + "  · meters and spectrum: channels 1–\(shown) of \(frame.channelCount)"
    }

    /// `left  ████████████──────▌─  -12.3 dBFS  CLIP`: RMS as a bar from −60 to 0 dBFS, the held
    /// peak as a mark, the RMS in numbers, and the clip indicator.
    private func drawMeters(into canvas: inout Canvas, area: Area) {
        guard let frame, area.width > 20 else { return }
        let nameWidth = min(8, frame.channelNames.map(\.count).max() ?? 0) + 1
        let barWidth = area.width - nameWidth - 22
        guard barWidth > 4 else { return }
        for (channel, name) in frame.channelNames.enumerated() where channel < area.height {
            let y = area.y + channel
            canvas.write(TerminalText.sanitized(name), x: area.x, y: y, style: .legend, limit: nameWidth - 1)
            func position(_ level: Double) -> Int { Int(((max(-60, min(0, level)) + 60) / 60 * Double(barWidth)).rounded()) }
            let filled = frame.rms[channel].isFinite ? position(frame.rms[channel]) : 0
            for x in 0..<barWidth {
                canvas.put(x < filled ? Cell("█", .trace(channel)) : Cell("─", .grid), x: area.x + nameWidth + x, y: y)
            }
            let hold = meters.peakHold[channel]
            if hold.isFinite { canvas.put(Cell("▌", .peak), x: area.x + nameWidth + min(barWidth - 1, position(hold)), y: y) }
            let level = frame.rms[channel].isFinite ? UnitFormat.fixed(frame.rms[channel], 1) : "-inf"
            canvas.write(level + " dBFS", x: area.x + nameWidth + barWidth + 2, y: y, style: .label)
            if meters.isClipping(channel, now: now) {
                canvas.write("CLIP", x: area.x + area.width - 5, y: y, style: .clip)
            }
        }
    }
}
