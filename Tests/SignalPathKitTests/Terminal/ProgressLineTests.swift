import Testing
@testable import SignalPathKit

@Suite("ProgressLine: estimates rounded as people read time")
struct ProgressLineTests {
    @Test(
        "whole seconds under a minute (at least 1 s), minutes and seconds under an hour, hours and minutes beyond",
        arguments: [
            (0.2, "1 s"), (1.0, "1 s"), (3.4, "3 s"), (3.6, "4 s"), (59.4, "59 s"), (59.6, "1 min"), (80.2, "1 min 20 s"),
            (125, "2 min 5 s"), (3599.4, "59 min 59 s"), (3600, "1 h"), (3629, "1 h"), (3931, "1 h 6 min"), (7170, "2 h"),
            (36_000, "10 h"), (Double.infinity, "unknown"), (Double.nan, "unknown"),
        ])
    func estimate(seconds: Double, text: String) {
        #expect(ProgressLine.estimate(seconds) == text)
    }
}
