extension SignalComparison {
    /// The difference picture: on top, the third-octave spectra of A, of B aligned and divided by
    /// its gain (dashed) and of the residual, over frequency; below, the residual's RMS per second
    /// over A's time line. The subtitle states the alignment and the residual's figures.
    public func chart(_ style: ChartStyle) -> Chart {
        let bands = residual?.bands ?? []
        let seconds = residual?.secondRMSDBFS ?? []
        let levels = Self.levelRange(bands.flatMap { [$0.levelADBFS, $0.levelBDBFS, $0.residualDBFS] } + seconds)
        let ticks = ChartAxis.steps(levels, count: max(2, style.tickCounts.vertical / 2)).map { ChartTick($0, UnitFormat.shortest($0)) }
        let y = ChartAxis(range: levels, label: "Level (dBFS)", ticks: ticks)
        let third = pow(2, 1.0 / 6)
        let frequencies = bands.isEmpty ? 20...20000 : bands[0].centreHz / third...bands[bands.count - 1].centreHz * third
        let x = ChartAxis.frequency(range: frequencies, logarithmic: true, count: style.tickCounts.horizontal)
        func finite(_ value: Double) -> Double { value.isFinite ? value : .nan }
        let spectra = ChartPanel(
            y: y,
            marks: [
                .line(points: bands.map { ($0.centreHz, finite($0.levelADBFS)) }, color: .trace(0)),
                .line(points: bands.map { ($0.centreHz, finite($0.levelBDBFS)) }, color: .trace(1), dash: .dashed),
                .line(points: bands.map { ($0.centreHz, finite($0.residualDBFS)) }, color: .trace(2), width: 2),
            ], name: "third-octave bands")
        let start = residual?.overlapStartSeconds ?? startSeconds
        let span = max(1, residual?.overlapSeconds ?? durationSeconds)
        let time = ChartAxis.time(range: start...start + span, count: style.tickCounts.horizontal)
        let overTime = ChartPanel(
            y: y, marks: [.line(points: seconds.enumerated().map { (start + Double($0.offset) + 0.5, finite($0.element)) }, color: .trace(2), width: 2)],
            name: "residual RMS per second", x: time)
        var chart = style.chart(title: "\(pathA) − \(pathB)", subtitle: subtitle, x: x, panels: [spectra, overTime])
        chart.legend = [
            ChartLegendEntry("A", color: .trace(0)), ChartLegendEntry("B aligned", color: .trace(1), dash: .dashed), ChartLegendEntry("residual", color: .trace(2)),
        ]
        return chart
    }

    /// What the picture's subtitle says: identical, or the alignment and the residual.
    private var subtitle: String {
        guard !identical else { return "identical: the decoded samples are the same, bit for bit" }
        guard let delay = delaySamples, let gain = gainDB, let drift = driftPPM, let residual else { return "" }
        return "delay \(UnitFormat.fixed(delay, 2)) samples · gain \(UnitFormat.fixed(gain, 2)) dB\(polarityInverted == true ? " · inverted" : "")"
            + " · drift \(UnitFormat.fixed(drift, 2)) ppm · residual RMS \(UnitFormat.fixed(residual.rmsDBFS, 1)) dBFS,"
            + " peak \(UnitFormat.fixed(residual.peakDBFS, 1)) dBFS · null depth \(UnitFormat.fixed(residual.nullDepthDB, 1)) dB"
    }

    /// From the lowest level shown (in 10 dB steps, not below −200) to 10 dB above the highest.
    private static func levelRange(_ values: [Double]) -> ClosedRange<Double> {
        let finite = values.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max() else { return -120...0 }
        let top = (high / 10).rounded(.up) * 10 + 10
        return max(-200, min(top - 20, (low / 10).rounded(.down) * 10))...top
    }
}
