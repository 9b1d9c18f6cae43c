import ArgumentParser
import SignalPathKit

/// Which part of each file to analyse.
struct RangeOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Time range START..END: 1.5..3, 1.5s..3s, 250ms..750ms, 00:01:02.5..00:01:05, 90s.. (to the end), ..10s.",
            valueName: "range"))
    var range: String?

    @Option(name: .long, help: ArgumentHelp("Start time (instead of --range): 90, 1.5s, 250ms, 01:30.", valueName: "time"))
    var start: String?

    @Option(name: .long, help: ArgumentHelp("Duration from --start (instead of --range).", valueName: "time"))
    var duration: String?

    func validate() throws {
        _ = try timeRange()
    }

    /// The range asked for; the whole file when nothing is given.
    func timeRange() throws -> TimeRange {
        if let range {
            guard start == nil, duration == nil else {
                throw ValidationError("Give either --range or --start/--duration, not both.")
            }
            guard let parsed = TimeRange(parsing: range) else {
                throw ValidationError("Cannot read the range '\(range)'. Examples: 1.5..3, 250ms..750ms, 00:01:02.5..00:01:05, 90s.., ..10s.")
            }
            return parsed
        }
        let from = try start.map { text in
            guard let seconds = TimeRange.seconds(text) else { throw ValidationError("Cannot read the start time '\(text)'.") }
            return seconds
        }
        let length = try duration.map { text in
            guard let seconds = TimeRange.seconds(text), seconds > 0 else {
                throw ValidationError("Cannot read the duration '\(text)' (a positive time such as 2.5s or 500ms).")
            }
            return seconds
        }
        return TimeRange(start: from, end: length.map { (from ?? 0) + $0 })
    }
}
