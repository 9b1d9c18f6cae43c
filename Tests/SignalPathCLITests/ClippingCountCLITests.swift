import Foundation
import Testing
import SignalPathTestSupport

/// One clipping rule and one count (docs/ARCHITECTURE.md, "Times for people"): record's summary,
/// record's and replay's live frames, and analyze all count samples in runs of at least 3
/// full-scale samples of one channel; a lone full-scale sample, or two, is not clipping.
@Suite("one clipping rule and one count in record, replay and analyze")
struct ClippingCountCLITests {
    let scratch = ScratchDirectory("clipping-count-cli")

    static let rate = 8000, frames = 24_000
    /// Live frames at record's and replay's 20 per second: 400 frames each.
    static let block = 400

    /// 3 s of 16-bit stereo, a quiet sine in both channels. Left: runs of 3 (5000), of 5 across a
    /// frame edge (7998, reaching 3 at 8000), of 3 across an edge (11999, reaching 3 at 12001) and
    /// a clipped stretch of 1 500 (16000); lone full-scale samples (2000, 2003) and a pair (3000).
    /// Right: only lone samples at both codes and pairs, none of them clipping.
    static func planted() -> (samples: [[Int16]], runs: [[Range<Int>]]) {
        var left = (0..<frames).map { Int16(3000 * sin(Double($0) * 0.07)) }
        var right = (0..<frames).map { Int16(2000 * sin(Double($0) * 0.05)) }
        let runs = [5000..<5003, 7998..<8003, 11999..<12002, 16000..<17500]
        for run in runs { for index in run { left[index] = .max } }
        for index in [2000, 3000, 3001] { left[index] = .max }
        left[2003] = .min
        for index in stride(from: 100, to: frames - 2, by: 997) {
            right[index] = .min
            right[index + 500 < frames - 2 ? index + 500 : index] = .max
        }
        for index in [6000, 6001, 9000, 9001] { right[index] = index < 9000 ? .min : .max }
        return ([left, right], [runs, []])
    }

    /// The naive model of a live frame's flag: a frame clips when one of its samples is at least
    /// the third of a run of full-scale samples.
    static func flaggedFrames(_ channel: [Int16]) -> Set<Int> {
        var flagged: Set<Int> = [], run = 0
        for (index, sample) in channel.enumerated() {
            run = sample == .max || sample == .min ? run + 1 : 0
            if run >= 3 { flagged.insert(index / block) }
        }
        return flagged
    }

    static func clippedSamples(_ channel: [Int16]) -> Int {
        var total = 0, run = 0
        for sample in channel + [0] {
            if sample == .max || sample == .min {
                run += 1
            } else {
                if run >= 3 { total += run }
                run = 0
            }
        }
        return total
    }

    func flags(_ ndjson: String) throws -> [[Bool]] {
        try ndjson.split(separator: "\n").map { line in
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["channels"] as? [[String: Any]]).map { $0["clipped"] as? Bool ?? false }
        }
    }

    @Test(
        "record's summary counts what analyze and events count in the file it wrote, grouped; record's and replay's frames say clipped exactly where a run reaches 3, never for lone samples or pairs"
    )
    func recordReplayAndAnalyzeAgree() throws {
        let (channels, _) = Self.planted()
        let expected = channels.map(Self.clippedSamples)
        #expect(expected == [1511, 0], "the model's own count")
        var bytes: [UInt8] = []
        for index in 0..<Self.frames {
            for channel in channels { bytes += withUnsafeBytes(of: channel[index].littleEndian) { Array($0) } }
        }
        let path = scratch.file("take.wav")
        let recorded = try signalpath(["record", path, "--input", "-", "--raw", "s16le", "--rate", "8000", "--channels", "2"], input: Data(bytes))
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stderr.contains(", 1 511 clipped samples; stopped by end of input"), "\(recorded.stderr)")

        let analyze = try signalpath("analyze", path, "--format", "json")
        let analysed = try #require(
            ((try JSONSerialization.jsonObject(with: analyze.stdoutData) as? [String: Any]).flatMap { ($0["files"] as? [[String: Any]])?.first ?? $0 })?["channels"]
                as? [[String: Any]])
        #expect(analysed.map { $0["clipped_samples"] as? Int } == expected.map { $0 }, "\(analysed.map { $0["clipped_samples"] ?? "-" })")

        // events: the same count, and the clipped stretch's detail grouped as analyze's text groups it.
        let events = try signalpath("events", path)
        #expect(events.stdout.contains("1 500 full-scale samples in 1 run"), "\(events.stdout)")
        let eventsJSON = try JSONSerialization.jsonObject(with: try signalpath("events", path, "--format", "json").stdoutData) as? [String: Any]
        let summary = ((eventsJSON?["files"] as? [[String: Any]])?.first)?["summary"] as? [String: Any]
        #expect(summary?["clipped_samples"] as? Int == expected.reduce(0, +), "\(summary ?? [:])")

        let expectedFlags = channels.map(Self.flaggedFrames)
        #expect(expectedFlags[0] == [12, 20, 30, 40, 41, 42, 43] && expectedFlags[1].isEmpty)
        let recordFlags = try flags(recorded.stdout)
        try #require(recordFlags.count == Self.frames / Self.block, "\(recordFlags.count) frames")
        for channel in 0..<2 {
            let flagged = Set(recordFlags.indices.filter { recordFlags[$0][channel] })
            #expect(flagged == expectedFlags[channel], "record, channel \(channel + 1): \(flagged.sorted())")
        }

        let replay = try signalpath("replay", path, "--no-realtime", "--format", "ndjson")
        #expect(replay.status == 0, "\(replay.stderr)")
        let replayFlags = try flags(replay.stdout)
        let times = try replay.stdout.split(separator: "\n").map { line in
            try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["time_s"] as? Double)
        }
        for channel in 0..<2 {
            // A replay frame at time t covers the frames since the previous one.
            var flagged: Set<Int> = []
            for (index, time) in times.enumerated() where replayFlags[index][channel] {
                let end = Int((time * Double(Self.rate)).rounded())
                flagged.insert((end - 1) / Self.block)
            }
            #expect(flagged == expectedFlags[channel], "replay, channel \(channel + 1): \(flagged.sorted())")
        }
    }
}
