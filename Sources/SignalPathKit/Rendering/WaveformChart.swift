extension WaveformPlot {
    /// The chart of a waveform: a panel per channel (named in its corner), the min–max envelope
    /// filled in the channel's colour at part opacity with the RMS band solid inside it, clipped
    /// columns ticked in red along the panel's top edge; a linear axis of ±1 full scale or a dBFS
    /// axis (|x| from the floor at the centre to 0 at the edges, as the terminal view); a time axis
    /// in s or m:ss. Each column covers its frames exactly: the envelope steps from the column's
    /// first frame to its last, so one analysed column is one device pixel when the waveform has
    /// `chartColumns(…)` of them.
    public func chart(_ style: ChartStyle) -> Chart {
        var chart = Self.skeleton(style, title: title, channels: waveform.channelNames, scale: scale, floor: floor, times: waveform.seconds)
        let rate = Double(waveform.sampleRate)
        var xs: [Double] = []
        xs.reserveCapacity(2 * waveform.columns)
        for column in 0..<waveform.columns {
            let frames = waveform.fileFrames(column)
            xs += [Double(frames.lowerBound) / rate, Double(frames.upperBound) / rate]
        }
        for channel in 0..<waveform.channelCount {
            var low: [Double] = [], high: [Double] = [], rmsLow: [Double] = [], rmsHigh: [Double] = []
            var clipped: [Double] = []
            for column in 0..<waveform.columns {
                let minimum = position(Double(waveform.minimum(column, channel))), maximum = position(Double(waveform.maximum(column, channel)))
                let rms = waveform.rms(column, channel)
                let top = min(maximum, position(rms)), bottom = max(minimum, position(-rms))
                low += [minimum, minimum]
                high += [maximum, maximum]
                rmsLow += [min(bottom, top), min(bottom, top)]
                rmsHigh += [max(bottom, top), max(bottom, top)]
                if waveform.clipped(column, channel) > 0 { clipped.append((xs[2 * column] + xs[2 * column + 1]) / 2) }
            }
            chart.panels[channel].marks = [
                .area(x: xs, lower: low, upper: high, color: .trace(channel), opacity: 0.45),
                .area(x: xs, lower: rmsLow, upper: rmsHigh, color: .trace(channel)),
            ]
            if !clipped.isEmpty { chart.panels[channel].marks.append(.edgeTicks(x: clipped, color: .clip)) }
        }
        return chart
    }

    /// The columns a waveform needs for one per device pixel of the chart's plot area.
    public static func chartColumns(_ style: ChartStyle, channels: [String], scale: Scale, floor: Double, times: ClosedRange<Double>) -> Int {
        skeleton(style, title: "", channels: channels, scale: scale, floor: floor, times: times).layout.plotPixels().width
    }

    /// The chart without marks: what decides the plot's size.
    private static func skeleton(_ style: ChartStyle, title: String, channels: [String], scale: Scale, floor: Double, times: ClosedRange<Double>) -> Chart {
        let y: ChartAxis
        switch scale {
        case .linear:
            y = ChartAxis(range: -1...1, label: "Amplitude (FS)", ticks: [-1, -0.5, 0, 0.5, 1].map { ChartTick($0, UnitFormat.shortest($0)) })
        case .dbfs:
            // Positions ±1 are 0 dBFS, ±0.5 half way to the floor, 0 the floor.
            let half = UnitFormat.shortest((floor / 2).rounded())
            let ticks = [(-1.0, "0"), (-0.5, half), (0, UnitFormat.shortest(floor.rounded())), (0.5, half), (1, "0")].map { ChartTick($0.0, $0.1) }
            y = ChartAxis(range: -1...1, label: "Level (dBFS)", ticks: ticks)
        }
        let titles = ChartStyle.split(title)
        let named = channels.count > 1
        let panels = channels.map { ChartPanel(y: y, name: named ? $0 : "") }
        return style.chart(title: titles.title, subtitle: titles.subtitle, x: ChartAxis.time(range: times), panels: panels)
    }
}
