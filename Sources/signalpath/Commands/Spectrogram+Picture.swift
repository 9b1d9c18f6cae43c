import SignalPathKit

extension Spectrogram {
    /// The heat map of one file, made by a pass of its own for where it goes: an analyser frame
    /// per column of the terminal plot or of the chart (the segments in a column's slice combined).
    func picture(
        of file: AudioFile, frames: Range<Int64>, parameters: SpectrumParameters, done: @escaping (SpectrogramAnalyzer.Frame) -> Void
    ) -> PictureOutput {
        PictureOutput(
            plotting: plotting, plotHeight: 32, theme: Theme(colorMap: colormap ?? .viridis),
            plot: { width, height throws(SignalPathError) in
                try plot(file, frames: frames, parameters: parameters, width: width, height: height, done: done)
            },
            chart: { style throws(SignalPathError) in
                try chart(file, frames: frames, parameters: parameters, style: style, done: done)
            })
    }

    /// The frequencies a picture shows: `--min-freq`/`--max-freq` within 0 (1 on a log axis) and
    /// Nyquist, or from 20 Hz (log) or 0 (linear) to Nyquist.
    private func frequencyRange(rate: Double, logarithmic: Bool) -> ClosedRange<Double> {
        let nyquist = rate / 2
        let lowest = minFreq.map { max($0, logarithmic ? 1 : 0) } ?? (logarithmic ? min(20, nyquist / 2) : 0)
        return lowest...max(min(maxFreq ?? nyquist, nyquist), lowest + 1e-9)
    }

    /// The chart: one analyser frame per pixel column of the plot, each turned into a column of
    /// pixels as it comes.
    private func chart(
        _ file: AudioFile, frames: Range<Int64>, parameters: SpectrumParameters, style: ChartStyle, done: (SpectrogramAnalyzer.Frame) -> Void
    ) throws(SignalPathError) -> Chart {
        let presentation = self.presentation
        let rate = Double(file.format.sampleRate)
        // The title needs the analyser's fitted parameters, the analyser the plot's width: a
        // first analyser (cheap: it reads nothing until run) gives the title.
        let probe = try SpectrogramAnalyzer(file: file, frames: frames, channels: channel ?? .mix, parameters: parameters, columns: 1)
        try Self.requireBins(presentation, probe)
        let unit = presentation.scale == .dbfs ? "dBFS" : presentation.scale == .psd ? "dB re 1 FS²/Hz" : "dB re 1 FS²"
        var view = SpectrogramChart(
            style, title: probe.title(scale: presentation.scale), unit: unit, frequencies: probe.frequencies,
            frequencyRange: frequencyRange(rate: rate, logarithmic: !linear), logarithmic: !linear,
            times: Double(frames.lowerBound) / rate...Double(frames.upperBound) / rate, floor: levelAxis.floorLevel, colorMap: colormap ?? .viridis)
        let count = view.analysisColumns(frameCount: Int64(frames.count), windowSize: probe.parameters.windowSize)
        let analyzer = try SpectrogramAnalyzer(file: file, frames: frames, channels: channel ?? .mix, parameters: parameters, columns: count)
        try analyzer.run { frame throws(SignalPathError) in
            view.set(frame: frame.index, of: count, powers: analyzer.spectrum(of: frame).powers(in: presentation.scale)[0])
            done(frame)
        }
        let ceiling = levelAxis.ceiling ?? max(Self.defaultCeiling(highest: view.highest, scale: presentation.scale), levelAxis.floorLevel + 10)
        return view.finished(ceiling: ceiling)
    }

    /// The terminal view: a frame per column of the plot area, kept until the levels' ceiling is known.
    private func plot(
        _ file: AudioFile, frames: Range<Int64>, parameters: SpectrumParameters, width: Int, height: Int, done: (SpectrogramAnalyzer.Frame) -> Void
    ) throws(SignalPathError) -> SpectrogramPlot {
        let plotArea = SpectrogramPlot.plotArea(in: Area(x: 0, y: 0, width: width, height: height))
        let analyzer = try SpectrogramAnalyzer(file: file, frames: frames, channels: channel ?? .mix, parameters: parameters, columns: max(1, plotArea.width))
        let presentation = self.presentation
        try Self.requireBins(presentation, analyzer)
        var levels: [[Double]] = []
        try analyzer.run { frame throws(SignalPathError) in
            levels.append(analyzer.spectrum(of: frame).values(in: presentation.scale)[0])
            done(frame)
        }
        let rate = Double(file.format.sampleRate)
        var view = SpectrogramPlot(
            title: analyzer.title(scale: presentation.scale), frequencies: analyzer.frequencies, frames: levels,
            times: Double(frames.lowerBound) / rate...Double(frames.upperBound) / rate)
        view.logarithmic = !linear
        if minFreq != nil || maxFreq != nil { view.frequencyRange = frequencyRange(rate: rate, logarithmic: view.logarithmic) }
        view.floor = levelAxis.floorLevel
        view.ceiling = levelAxis.ceiling ?? max(Self.defaultCeiling(levels, scale: presentation.scale), view.floor + 10)
        view.shades = plotting.isMonochrome(.plot)
        return view
    }
}
