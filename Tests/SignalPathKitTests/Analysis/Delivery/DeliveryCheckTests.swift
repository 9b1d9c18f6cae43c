import SignalPathTestSupport
import Testing

@testable import SignalPathKit

@Suite("delivery check: the events pass runs when a rule or the caller needs it, and the verdict takes its silence")
struct DeliveryCheckTests {
    let scratch = ScratchDirectory("delivery-check")
    static let rate = 8000

    /// 5 s of seeded stereo noise (±0.1) with both channels at digital zero from 2 s to 3.5 s: a
    /// silence of 1.5 s by `events`' rule (every channel under -60 dBFS for 0.5 s or more).
    func fileWithSilence() throws -> AudioFile {
        let frames = 5 * Self.rate
        var left = Signals.noise(count: frames, amplitude: 0.1, seed: 11), right = Signals.noise(count: frames, amplitude: 0.1, seed: 12)
        for frame in 2 * Self.rate..<7 * Self.rate / 2 {
            left[frame] = 0
            right[frame] = 0
        }
        return try AudioFile.open(floatWAV(scratch, "silence.wav", zip(left, right).flatMap { [$0, $1] }, channels: 2, sampleRate: Self.rate))
    }

    func check(_ file: AudioFile, rules: DeliveryRules?, findingEvents: Bool = false) async throws -> DeliveryCheck {
        try await DeliveryCheck.run(
            file: file, frames: 0..<(file.format.frames ?? 0), settings: AnalysisSettings(), rules: rules, findingEvents: findingEvents, workers: 2)
    }

    @Test("a silence limit runs the events pass: 1.5 s of silence fails --max-silence 1 and passes 2")
    func silenceRule() async throws {
        let file = try fileWithSilence()
        for (limit, passes) in [(1.0, false), (2.0, true)] {
            var rules = DeliveryRules()
            rules.maximumSilence = limit
            let result = try await check(file, rules: rules)
            let silence = try #require(result.verdict?.outcomes.first { $0.rule == .longestSilence })
            #expect(abs((result.events?.longestSilence ?? 0) - 1.5) < 0.001, "events: \(String(describing: result.events))")
            #expect(abs((silence.measured ?? 0) - 1.5) < 0.001 && silence.passed == passes && result.verdict?.passed == passes)
        }
    }

    @Test("without a silence rule only the analyze pass runs; without rules, no verdict, and the events when asked")
    func passesAsNeeded() async throws {
        let file = try fileWithSilence()
        var rules = DeliveryRules()
        rules.maximumTruePeak = -1
        let withoutSilence = try await check(file, rules: rules)
        #expect(withoutSilence.events == nil && withoutSilence.verdict?.outcomes.map(\.rule) == [.truePeak])
        let eventsOnly = try await check(file, rules: nil, findingEvents: true)
        #expect(eventsOnly.verdict == nil && abs((eventsOnly.events?.longestSilence ?? 0) - 1.5) < 0.001)
        let analysisOnly = try await check(file, rules: nil)
        #expect(analysisOnly.verdict == nil && analysisOnly.events == nil)
    }
}
