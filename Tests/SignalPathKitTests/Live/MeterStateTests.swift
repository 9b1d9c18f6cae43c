import Testing
@testable import SignalPathKit

@Suite("MeterState: peak hold and clip hold")
struct MeterStateTests {
    /// A frame with these peaks (dBFS) and clip flags; levels and spectrum do not matter here.
    func frame(peaks: [Double], clipped: [Bool]? = nil) -> LiveFrame {
        let analyzer = LiveAnalyzer(
            sampleRate: 8000, layout: .assumed(channels: peaks.count, container: .wav, sampleFormat: .float(bits: 32)), sampleFormat: .float(bits: 32), fftSize: 64, bands: nil)
        let silence = [Float](repeating: 0, count: 64 * peaks.count)
        var frame = silence.withUnsafeBufferPointer { analyzer.frame(time: 0, recent: $0, window: $0) }
        frame.peak = peaks
        frame.clipped = clipped ?? peaks.map { _ in false }
        return frame
    }

    @Test("a peak is held for 1.5 s, then falls at 20 dB/s until it meets the current peak")
    func peakHold() {
        var meters = MeterState(channels: 1)
        meters.update(frame(peaks: [-6]), now: 10)
        meters.update(frame(peaks: [-30]), now: 11.4)
        #expect(meters.peakHold == [-6], "held")
        meters.update(frame(peaks: [-30]), now: 12.0)
        #expect(abs(meters.peakHold[0] - (-6 - 20 * 0.5)) < 1e-9, "0.5 s into the fall: 10 dB down")
        meters.update(frame(peaks: [-30]), now: 14)
        #expect(meters.peakHold == [-30], "fallen to the current peak, not below")
        meters.update(frame(peaks: [-3]), now: 14.1)
        #expect(meters.peakHold == [-3], "a higher peak is taken at once")
    }

    @Test("a clip is shown for 3 s after the frame that clipped, per channel")
    func clipHold() {
        var meters = MeterState(channels: 2)
        meters.update(frame(peaks: [0, -10], clipped: [true, false]), now: 5)
        meters.update(frame(peaks: [-10, -10]), now: 6)
        #expect(meters.isClipping(0, now: 7.9) && !meters.isClipping(0, now: 8.1))
        #expect(!meters.isClipping(1, now: 5))
    }

    @Test("channels are held apart; a frame with fewer channels leaves the others alone")
    func channels() {
        var meters = MeterState(channels: 2)
        meters.update(frame(peaks: [-1, -20]), now: 0)
        meters.update(frame(peaks: [-40]), now: 0.5)
        #expect(meters.peakHold == [-1, -20])
    }
}
