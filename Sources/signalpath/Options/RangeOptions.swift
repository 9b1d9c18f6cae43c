import ArgumentParser
import SignalPathKit

/// Which part of each file to analyse.
struct RangeOptions: ParsableArguments {
    @Option(
        name: [.customShort("r"), .long],
        help: ArgumentHelp(
            "Time range START..END: 1.5..3, 1.5s..3s, 250ms..750ms, 1:02.5..1:05, 1:02:03.500.. (times as reports print them), 90s.. (to the end), ..10s (default: the whole file). An end past the file is clamped to it (with a note on standard error); a start past it is an error.",
            valueName: "range"), transform: OptionValue.timeRange)
    var range: TimeRange?

    @Option(name: .long, help: ArgumentHelp("Start time (instead of --range): 90, 1.5s, 250ms, 1:30, 1:02:03.500.", valueName: "time"), transform: OptionValue.time)
    var start: Double?

    @Option(name: .long, help: ArgumentHelp("Duration from --start (instead of --range).", valueName: "time"), transform: OptionValue.duration)
    var duration: Double?

    func validate() throws {
        if range != nil && (start != nil || duration != nil) { throw ValidationError("Give either --range or --start/--duration, not both.") }
    }

    /// The range asked for; the whole file when nothing is given.
    var timeRange: TimeRange {
        range ?? TimeRange(start: start, end: duration.map { (start ?? 0) + $0 })
    }

    /// The frames of the range in `file`. An end past the end of the file is clamped to it, and
    /// one line on standard error says so (as sox and ffmpeg clamp, but say what was used).
    func frames(in file: AudioFile) throws(SignalPathError) -> Range<Int64> {
        let format = file.format
        let frames = try timeRange.frames(in: file.path, sampleRate: format.sampleRate, frames: format.frames)
        // A truncated file has had its line already ("… 250 are present; analysing those"): a
        // range that ends within what the header promised needs no second one.
        let endsPastPromise = timeRange.endsPastFile(sampleRate: format.sampleRate, frames: format.framesPromised ?? format.frames)
        if endsPastPromise, let end = timeRange.end {
            let rate = Double(format.sampleRate)
            StandardError.writeLine(
                "signalpath: \(TerminalText.sanitized(file.path)): the range ends at \(UnitFormat.time(end)), past the end of the file "
                    + "(\(UnitFormat.time(Double(format.frames ?? 0) / rate))); using \(UnitFormat.times(Double(frames.lowerBound) / rate, Double(frames.upperBound) / rate))")
        }
        return frames
    }
}
