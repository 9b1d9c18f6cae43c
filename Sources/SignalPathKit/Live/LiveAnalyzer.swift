/// One moment of a live view: levels since the previous frame and the spectrum of the last window.
public struct LiveFrame: Sendable {
    /// Seconds from the start of the file (replay) or the recording.
    public var time: Double
    /// The channels analysed (the first ones of the source: all, or those a screen shows).
    public var channelNames: [String]
    /// All the source's channels, analysed or not.
    public var channelCount: Int
    /// Per channel, over the frames since the previous live frame: RMS and sample peak in dBFS
    /// (full-scale square = 0 dB RMS), and whether any of them is clipped by analyze's rule (in a
    /// run of at least `LiveAnalyzer.minimumClipRun` full-scale samples, the run's start maybe in
    /// an earlier frame): a lone full-scale sample is not.
    public var rms: [Double]
    public var peak: [Double]
    public var clipped: [Bool]
    /// The spectrum of the window before `time`: bins or bands per channel, dBFS.
    public var spectrum: SpectrumReport
    /// Momentary (400 ms) and short-term (3 s) loudness, LUFS, of the windows ending at the last
    /// 10 ms boundary before `time` (`LoudnessMeter`); nil before a full window and at or below
    /// the absolute gate.
    public var momentary: Double? = nil
    public var shortTerm: Double? = nil
}

/// Makes `LiveFrame`s: levels over the samples since the last frame, and a Hann-windowed FFT of
/// the last window, shown as bins or fractional-octave bands. Plans and buffers are made once.
/// Only the channels asked for are analysed, so a screen that shows a few channels of a thousand
/// costs what those few cost.
public final class LiveAnalyzer {
    public let sampleRate: Int
    public let channelNames: [String]
    public let parameters: SpectrumParameters
    public let presentation: SpectrumPresentation
    /// A sample is at full scale from this magnitude on (analyze's, for the source's format), and
    /// clipped in a run of at least `minimumClipRun` of them: the rule of analyze and waveform.
    public let fullScale: Float
    public let minimumClipRun: Int
    private let transform: SegmentTransform
    private let window: WindowTable
    /// One channel's window, deinterleaved, zeros before the frames present.
    private var channelWindow: [Float]
    /// Transforms made so far: one per channel analysed per frame.
    private(set) var transformCount = 0

    public init(
        sampleRate: Int, layout: ChannelLayout, sampleFormat: SampleFormat, fftSize: Int, bands: Int?,
        minimumClipRun: Int = AnalysisSettings().minimumClipRun
    ) {
        self.sampleRate = sampleRate
        fullScale = sampleFormat.fullScale
        self.minimumClipRun = max(1, minimumClipRun)
        channelNames = layout.names
        parameters = SpectrumParameters(fftSize: fftSize, window: .hann, overlap: 0, averaging: .mean)
        var presentation = SpectrumPresentation()
        presentation.bands = bands
        self.presentation = presentation
        window = WindowTable.shared(.hann, size: fftSize)
        transform = SegmentTransform(fftSize: fftSize, window: window)
        channelWindow = [Float](repeating: 0, count: window.coefficients.count)
    }

    /// Frames of audio the spectrum looks at.
    public var windowSize: Int { parameters.windowSize }

    /// A frame at `time` from `recent` (interleaved, every channel; the levels' samples) and
    /// `window` (interleaved, every channel: up to `windowSize` frames ending at `time`, zeros
    /// before them), for the first `shown` channels (nil: all). `recent` ends where `window` does:
    /// the frames of `window` before it are where a clipping run that reaches into it starts.
    public func frame(time: Double, recent: UnsafeBufferPointer<Float>, window samples: UnsafeBufferPointer<Float>, shown: Int? = nil) -> LiveFrame {
        let channels = channelNames.count
        let analysed = min(channels, max(0, shown ?? channels))
        var rms: [Double] = [], peak: [Double] = [], clipped: [Bool] = []
        let count = recent.count / max(1, channels)
        for channel in 0..<analysed {
            var squares = 0.0, largest: Float = 0
            for index in 0..<count {
                let value = recent[index * channels + channel]
                guard value.isFinite else { continue }
                squares += Double(value) * Double(value)
                largest = max(largest, abs(value))
            }
            rms.append(count > 0 ? 10 * log10(squares / Double(count)) : -.infinity)
            peak.append(20 * log10(Double(largest)))
            clipped.append(clips(channel: channel, recent: recent, window: samples))
        }
        let windowSize = self.windowSize
        let present = min(windowSize, samples.count / max(1, channels))
        let first = samples.count / max(1, channels) - present
        var power: [[Double]] = []
        for channel in 0..<analysed {
            channelWindow.withUnsafeMutableBufferPointer { column in
                for index in 0..<windowSize - present { column[index] = 0 }
                for index in 0..<present { column[windowSize - present + index] = samples[(first + index) * channels + channel] }
                transform.transform(UnsafeBufferPointer(column), firstFrame: 0, channels: 1, channel: 0)
            }
            transformCount += 1
            power.append(transform.power.map(Double.init))
        }
        let names = Array(channelNames.prefix(analysed))
        let spectrum = PowerSpectrum(
            path: "", sampleRate: sampleRate, frames: 0..<Int64(windowSize), parameters: parameters,
            windowSum: window.sum, windowSumOfSquares: window.sumOfSquares, segments: 1,
            channelNames: names, power: power)
        return LiveFrame(
            time: time, channelNames: names, channelCount: channels, rms: rms, peak: peak, clipped: clipped,
            spectrum: SpectrumReport(spectrum: spectrum, presentation: presentation))
    }

    /// True when a sample of `recent` lies in a run of `minimumClipRun` full-scale samples of
    /// `channel`, counting the run's samples just before it, in `window`, that `recent` ends.
    private func clips(channel: Int, recent: UnsafeBufferPointer<Float>, window: UnsafeBufferPointer<Float>) -> Bool {
        let channels = channelNames.count
        let count = recent.count / max(1, channels), windowFrames = window.count / max(1, channels)
        func full(_ value: Float) -> Bool { value.isFinite && abs(value) >= fullScale }
        var run = 0
        if count < windowFrames {
            var index = windowFrames - count - 1
            while index >= 0 && run < minimumClipRun - 1 && full(window[index * channels + channel]) {
                run += 1
                index -= 1
            }
        }
        for index in 0..<count {
            guard full(recent[index * channels + channel]) else {
                run = 0
                continue
            }
            run += 1
            if run >= minimumClipRun { return true }
        }
        return false
    }
}

extension LiveFrame {
    /// One NDJSON line: time_s, momentary_lufs, short_term_lufs; per channel rms_dbfs, peak_dbfs, clipped; the spectrum's levels per
    /// channel with its bin width (bins) or band centres (bands). −∞ is null.
    public func jsonLine(extra: [JSONValue.Member] = []) -> String {
        func rounded(_ value: Double) -> JSONValue { .number(value.isFinite ? (value * 100).rounded() / 100 : nil) }
        let rows = spectrum.rows
        var spectrumMembers: [JSONValue.Member] = []
        if spectrum.presentation.bands != nil {
            spectrumMembers.append(.init("bands_hz", .array(rows.map { .number($0.band?.nominal ?? $0.frequency) })))
        } else {
            spectrumMembers.append(.init("bin_width_hz", .number(spectrum.spectrum.binWidth)))
        }
        spectrumMembers.append(.init("levels_dbfs", .array(channelNames.indices.map { channel in .array(rows.map { rounded($0.values[channel]) }) })))
        return JSONValue.object(
            extra + [
                .init("time_s", .number((time * 1e6).rounded() / 1e6)),
                .init("momentary_lufs", rounded(momentary ?? .nan)), .init("short_term_lufs", rounded(shortTerm ?? .nan)),
                .init(
                    "channels",
                    .array(
                        channelNames.indices.map { channel in
                            .object([
                                "name": .string(channelNames[channel]), "rms_dbfs": rounded(rms[channel]),
                                "peak_dbfs": rounded(peak[channel]), "clipped": .bool(clipped[channel]),
                            ])
                        })),
                .init("spectrum", .object(spectrumMembers)),
            ]
        ).serialized()
    }

    /// CSV header: time_s, momentary and short-term loudness, per channel rms and peak, then per
    /// channel one column per bin or band.
    public func csvHeader() -> [String] {
        let rows = spectrum.rows
        return ["time_s", "momentary_lufs", "short_term_lufs"] + channelNames.flatMap { ["\($0)_rms_dbfs", "\($0)_peak_dbfs"] }
            + channelNames.flatMap { name in rows.map { "\(name)_\(UnitFormat.shortest($0.band?.nominal ?? $0.frequency))hz" } }
    }

    public func csvFields() -> [String] {
        func field(_ value: Double) -> String { value.isFinite ? UnitFormat.fixed(value, 2) : "" }
        let rows = spectrum.rows
        return [UnitFormat.fixed(time, 6), field(momentary ?? .nan), field(shortTerm ?? .nan)] + channelNames.indices.flatMap { [field(rms[$0]), field(peak[$0])] }
            + channelNames.indices.flatMap { channel in rows.map { field($0.values[channel]) } }
    }
}
