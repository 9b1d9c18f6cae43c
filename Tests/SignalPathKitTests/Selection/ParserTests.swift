import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Time ranges")
struct TimeRangeTests {
    @Test("every documented way of writing a range")
    func parsing() {
        let cases: [(String, Double?, Double?)] = [
            ("1.5..3", 1.5, 3), ("1.5s..3s", 1.5, 3), ("250ms..750ms", 0.25, 0.75), ("00:01:02.5..00:01:05", 62.5, 65),
            ("90s..", 90, nil), ("..10s", nil, 10), ("1:30..2:00", 90, 120), ("2min..3min", 120, 180), (" 0 .. 1h ", 0, 3600),
            // The shapes reports print (UnitFormat.time) read back.
            ("..5 s", nil, 5), ("12.345 s..1:02.500", 12.345, 62.5), ("0:00:00.000..1:02:03.456", 0, 3723.456),
        ]
        for (text, start, end) in cases {
            #expect(TimeRange(parsing: text) == TimeRange(start: start, end: end), "\(text)")
        }
        for bad in ["", "..", "3", "1..2..3", "-1..2", "a..b", "1e3..2", "00:61:00..", "1.2.3..4", "1:2:3:4..", "..5 x", "10x..", "1:60.000..", "..5 s s"] {
            #expect(TimeRange(parsing: bad) == nil, "'\(bad)' should not parse")
        }
    }

    @Test("frames round to the nearest frame; an end past the file is its end; bad ranges name the duration")
    func frames() throws {
        let range = TimeRange(start: 0.5, end: 1.25)
        #expect(try range.frames(in: "f", sampleRate: 48_000, frames: 96_000) == 24_000..<60_000)
        #expect(try TimeRange(start: 1.5, end: 9).frames(in: "f", sampleRate: 48_000, frames: 96_000) == 72_000..<96_000)
        #expect(try TimeRange(start: 1, end: nil).frames(in: "-", sampleRate: 48_000, frames: nil) == 48_000..<Int64.max)
        #expect(throws: SignalPathError.invalidRequest(path: "f", reason: "range 3.000 s .. 4.000 s starts after the end of the file (it lasts 2.000 s)")) {
            try TimeRange(start: 3, end: 4).frames(in: "f", sampleRate: 48_000, frames: 96_000)
        }
        #expect(throws: SignalPathError.self) { try TimeRange(start: 1.5, end: 1).frames(in: "f", sampleRate: 48_000, frames: 96_000) }
    }
}

@Suite("Parsers: regressions from fuzzing")
struct ParserRegressionTests {
    @Test(
        "empty and degenerate texts are refused, not crashed on",
        arguments: ["", ":", "::", "kaiser:", ":8", "\u{0}", "..", "...", "-", "1e400s..2", "..99999999999999999993s", "9999999999999999999999h.."])
    func degenerate(text: String) {
        #expect(Window(name: text) == nil || !text.isEmpty)
        _ = TimeRange.seconds(text)
        _ = ChannelSelection(parsing: text)
        if let range = TimeRange(parsing: text) {
            for frames in [nil, Int64(48_000)] as [Int64?] { _ = try? range.frames(in: "x", sampleRate: 192_000, frames: frames) }
        }
    }
}
