import ArgumentParser
import SignalPathKit

/// Where the text of an option becomes a typed value: the parsers that `@Option(transform:)`
/// names. Each parses once, at the command line; what it returns is what `run()` uses. A value
/// that does not parse is a usage error (64) whose one line says what the option takes:
/// `The value 'kaiser:x' is invalid for '--window <name>': …`.
///
/// Enumerations (`--scale`, `--average`, `--weighting`, …) are `ExpressibleByArgument` instead
/// (at the end of this file): their values are a short list that the parser itself names.
enum OptionValue {
    /// `hann`, `kaiser:8.6`, `gaussian:2.5`, …
    static func window(_ text: String) throws -> Window {
        guard let window = Window(name: text) else {
            throw ValidationError(
                "use rectangular, hann, hamming, blackman, blackman-harris, flat-top, kaiser[:BETA] (BETA 0 to 100) or gaussian[:ALPHA] (ALPHA above 0, up to 100)")
        }
        return window
    }

    /// An audio stream's number: 0, 1, … (up to 9999).
    static func streamNumber(_ text: String) throws -> Int {
        guard let number = Int(text), (0...9999).contains(number) else { throw ValidationError("a stream number from 0 (the first audio stream) to 9999") }
        return number
    }

    /// An even FFT size from 16 to 4194304.
    static func fftSize(_ text: String) throws -> Int {
        guard let size = Int(text), SpectrumParameters.fftSizeRange.contains(size), size % 2 == 0 else {
            throw ValidationError("an even number from \(SpectrumParameters.fftSizeRange.lowerBound) to \(SpectrumParameters.fftSizeRange.upperBound)")
        }
        return size
    }

    /// Samples per segment: 2 to the largest FFT size.
    static func windowSize(_ text: String) throws -> Int {
        guard let size = Int(text), (2...SpectrumParameters.fftSizeRange.upperBound).contains(size) else {
            throw ValidationError("a number of samples from 2 to \(SpectrumParameters.fftSizeRange.upperBound)")
        }
        return size
    }

    /// A percentage from 0 to 95 (`50` or `50%`), as a fraction (0.5).
    static func overlap(_ text: String) throws -> Double {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let percent = Double(number), percent >= 0, percent <= 95 else { throw ValidationError("a percentage from 0 to 95") }
        return percent / 100
    }

    /// A frequency in Hz above 0.
    static func positiveHertz(_ text: String) throws -> Double {
        guard let hertz = Double(text), hertz > 0, hertz.isFinite else { throw ValidationError("a frequency in Hz above 0") }
        return hertz
    }

    /// A frequency in Hz, 0 or above.
    static func hertz(_ text: String) throws -> Double {
        guard let hertz = Double(text), hertz >= 0, hertz.isFinite else { throw ValidationError("a frequency in Hz, 0 or above") }
        return hertz
    }

    /// A scale in dB (`dbfs`, `psd`, `power`): what a spectrogram's levels can be.
    static func decibelScale(_ text: String) throws -> SpectrumScale {
        guard let scale = SpectrumScale(rawValue: text.lowercased()), scale.isDecibels else { throw ValidationError("use dbfs, psd or power: levels in dB") }
        return scale
    }

    /// `1`…`N`, `left`, `right`, a position (`FL`, `LFE`, …) or `mix`.
    static func channel(_ text: String) throws -> ChannelSelection {
        guard let selection = ChannelSelection(parsing: text), selection != .all else {
            throw ValidationError("use a channel number from 1, left, right, a position such as FL or LFE, or mix")
        }
        return selection
    }

    /// `1`…`N`, `left`, `right`, `mix` or `all`.
    static func channelOrAll(_ text: String) throws -> ChannelSelection {
        guard let selection = ChannelSelection(parsing: text) else { throw ValidationError("use a channel number from 1, left, right, a position such as FL or LFE, mix or all") }
        return selection
    }

    /// Band levels: one of the IEC 61260 fractions.
    static func bandFraction(_ text: String) throws -> OctaveFraction {
        guard let fraction = OctaveFraction(parsing: text), fraction.isBandFraction else { throw ValidationError("use \(OctaveFraction.bandList)") }
        return fraction
    }

    /// Smoothing: 1/1 to 1/48 octave.
    static func smoothingFraction(_ text: String) throws -> OctaveFraction {
        let range = OctaveFraction.smoothingDenominators
        guard let fraction = OctaveFraction(parsing: text), range.contains(fraction.denominator) else {
            throw ValidationError("use 1/\(range.lowerBound) to 1/\(range.upperBound), such as 1/3")
        }
        return fraction
    }

    /// A time from the start: `90`, `1:30`, `2.5s`, `250ms`.
    static func time(_ text: String) throws -> Double {
        guard let seconds = TimeRange.seconds(text) else { throw ValidationError("a time such as 90, 1:30, 2.5s or 250ms") }
        return seconds
    }

    /// A duration above 0: `30`, `2:00`, `1.5s`.
    static func duration(_ text: String) throws -> Double {
        guard let seconds = TimeRange.seconds(text), seconds > 0 else { throw ValidationError("a time above 0, such as 30, 2:00, 1.5s or 500ms") }
        return seconds
    }

    /// A time that is a whole number of 100 ms steps, from 100 ms to an hour (`100ms`, `0.5`,
    /// `1s`, `1:00`), as the number of steps: loudness comes in 100 ms sub-blocks.
    static func loudnessInterval(_ text: String) throws -> Int {
        let message = "a multiple of 100 ms from 100ms to 1:00:00, such as 100ms, 0.5, 1s or 1:00"
        guard let seconds = TimeRange.seconds(text), seconds > 0 else { throw ValidationError(message) }
        let steps = (seconds * 10).rounded()
        guard abs(seconds * 10 - steps) < 1e-6, (1...36000).contains(steps) else { throw ValidationError(message) }
        return Int(steps)
    }

    /// A loudness level in LUFS from -70 (the absolute gate) to 0: `-23`, `-16`, `-14.5`.
    static func loudnessLevel(_ text: String) throws -> Double {
        guard let level = Double(text.hasSuffix("LUFS") ? String(text.dropLast(4)) : text), level.isFinite, (-70...0).contains(level) else {
            throw ValidationError("a level in LUFS from -70 to 0, such as -23 or -16")
        }
        return level
    }

    /// A tolerance in LU above 0, up to 20: `0.5`, `1`, `2`.
    static func loudnessTolerance(_ text: String) throws -> Double {
        guard let tolerance = Double(text.hasSuffix("LU") ? String(text.dropLast(2)) : text), tolerance.isFinite, tolerance > 0, tolerance <= 20 else {
            throw ValidationError("a tolerance in LU above 0, up to 20, such as 0.5, 1 or 2")
        }
        return tolerance

    }

    /// A shard: `K/N`, 1 ≤ K ≤ N ≤ 100000 (`$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`).
    static func shard(_ text: String) throws -> ShardSelector {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count <= 100_000,
            let shard = ShardSelector(index: index, count: count)
        else { throw ValidationError("K/N with 1 <= K <= N, such as 3/8") }
        return shard
    }

    /// A delivery profile by name (`DeliveryProfile.all`: `ebu-r128`, `ebu-r128-v3`, `podcast`, …).
    static func profile(_ text: String) throws -> DeliveryProfile {
        guard let profile = DeliveryProfile.named(text) else { throw ValidationError("use \(OutputFormat.list(DeliveryProfile.all.map(\.name)))") }
        return profile
    }

    /// A loudness tolerance or range: above 0, up to 100 LU.
    static func loudnessUnits(_ text: String) throws -> Double {
        let number = text.lowercased().hasSuffix("lu") ? String(text.dropLast(2)) : text
        guard let value = Double(number), value > 0, value <= 100 else { throw ValidationError("loudness units above 0, up to 100, such as 1 or 0.5") }
        return value
    }

    /// A true-peak limit: -60 to +20 dBTP.
    static func truePeakLimit(_ text: String) throws -> Double {
        guard let value = Double(text), (-60...20).contains(value) else { throw ValidationError("a level from -60 to 20 dBTP, such as -1") }
        return value
    }

    /// A residual level: -200 to 0 dBFS (`-50`, `-60dBFS`).
    static func residualLevel(_ text: String) throws -> Double {
        let number = text.lowercased().hasSuffix("dbfs") ? String(text.dropLast(4)) : text
        guard let value = Double(number), (-200...0).contains(value) else { throw ValidationError("a level from -200 to 0 dBFS, such as -50") }
        return value
    }

    /// A count of samples, 0 or more.
    static func sampleCount(_ text: String) throws -> Int64 {
        guard let value = Int64(text), value >= 0 else { throw ValidationError("a number of samples, 0 or more") }
        return value
    }

    /// A percentage from 0 to 100 (`1` or `1%`).
    static func percent(_ text: String) throws -> Double {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Double(number), (0...100).contains(value) else { throw ValidationError("a percentage from 0 to 100, such as 1 or 0.5%") }
        return value
    }

    /// A percentage above 0 and up to 100 (`1` or `0.5%`), as a fraction (0.01).
    static func percentAsFraction(_ text: String) throws -> Double {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let percent = Double(number), percent > 0, percent <= 100 else { throw ValidationError("a percentage above 0, up to 100") }
        return percent / 100
    }

    /// `START..END`, either side optional.
    /// Columns of a waveform's data: 1 to 1 000 000 (a column per pixel of the widest picture, and
    /// then some; more rows than that are the samples themselves).
    static func columns(_ text: String) throws -> Int {
        guard let count = Int(text), (1...1_000_000).contains(count) else { throw ValidationError("a number of columns from 1 to 1000000") }
        return count
    }

    /// `1600x900` (or `1600×900`): from 160×90, so that a chart has room for its axes, to
    /// 16 000 each way.
    static func chartSize(_ text: String) throws -> ChartSize {
        let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" }).map(String.init)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw ValidationError("--size takes WIDTHxHEIGHT, such as 1600x900; '\(text)' is not one.")
        }
        guard (160...16000).contains(width), (90...16000).contains(height) else {
            throw ValidationError("--size takes 160 to 16000 wide and 90 to 16000 high.")
        }
        return ChartSize(width: width, height: height)
    }

    /// Pixels per inch of a PNG: 24 to 1200.
    static func dpi(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite, (24...1200).contains(value) else {
            throw ValidationError("--dpi takes 24 to 1200 pixels per inch.")
        }
        return value
    }

    static func timeRange(_ text: String) throws -> TimeRange {
        guard let range = TimeRange(parsing: text) else {
            throw ValidationError("use START..END, such as 1.5..3, 250ms..750ms, 1:02.5..1:05, 1:02:03.500.., 90s.. or ..10s")
        }
        return range
    }
}

extension FrequencyWeighting: ExpressibleByArgument {
    /// `A`, `C` or `Z`, in either case.
    public init?(argument: String) {
        self.init(rawValue: argument.uppercased())
    }
}

extension Averaging: ExpressibleByArgument {}
extension SpectrumScale: ExpressibleByArgument {}
extension RMSReference: ExpressibleByArgument {}
extension TruePeakMode: ExpressibleByArgument {}
extension ColorDepth.Choice: ExpressibleByArgument {}
extension ColorMap: ExpressibleByArgument {}
extension ChartTheme: ExpressibleByArgument {}
extension SpectrumPlot.TraceStyle: ExpressibleByArgument {}
extension ReplayView: ExpressibleByArgument {}
extension Recorder.RawFormat: ExpressibleByArgument {}
extension WaveformPlot.Scale: ExpressibleByArgument {}
