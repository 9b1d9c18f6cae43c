import Foundation
import Testing
import SignalPathTestSupport

/// `--true-peak` through the command line, and ranges of streams that start from the audio before them.
@Suite("signalpath analyze --true-peak, and ranges of streams")
struct TruePeakCLITests {
    let scratch = ScratchDirectory("true-peak-cli")

    /// The true peak (dBTP) and momentary maximum (LUFS; nil under 400 ms) of the one file in an analyze JSON.
    func reading(_ result: ProcessResult) throws -> (truePeak: Double, momentary: Double?, mode: String) {
        #expect(result.status == 0, "\(result.stderr)")
        let file = try #require((try json(result)["files"] as? [[String: Any]])?.first)
        let loudness = try #require(file["loudness"] as? [String: Any])
        let conventions = try #require(file["conventions"] as? [String: Any])
        return (
            try #require(loudness["true_peak_dbtp"] as? Double), loudness["momentary_max_lufs"] as? Double,
            try #require(conventions["true_peak_mode"] as? String)
        )
    }

    @Test("a range of a stream (PCM as it arrives, FLAC spooled) reads as the whole file: the filters start from the audio before it")
    func streamRanges() throws {
        // The issue's case: a steady 14.65 kHz sine whose peak is −6.02 dBFS, tapered ends; 2 s at 48 kHz.
        let signal = BandLimitedSignal(
            "14.65 kHz", components: [.init(frequency: 14_650, amplitude: 1, phase: 0)], sampleRate: 48_000, seconds: 2, taperSeconds: 0.05)
        let builder = PCMFileBuilder(container: .wav, encoding: .signed24, channels: 1, sampleRate: 48_000)
        let wav = scratch.write("steady.wav", builder.file(samples: signal.samples()))
        let flac = scratch.file("steady.flac")
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        #expect(try run(sox, [wav, flac]).status == 0)
        for mode in ["bs1770", "accurate"] {
            let whole = try reading(try signalpath("analyze", "--format", "json", "--true-peak", mode, wav))
            #expect(whole.mode == mode)
            #expect(abs(whole.truePeak - -6.02) <= 0.01, "\(mode): whole file \(whole.truePeak)")
            for path in [wav, flac] {
                let input = try Data(contentsOf: URL(fileURLWithPath: path))
                let cut = try reading(try signalpath(["analyze", "--format", "json", "--true-peak", mode, "--range", "0.5..1.5", "-"], input: input))
                #expect(cut.truePeak == whole.truePeak, "\(mode) \(path) through a pipe: \(cut.truePeak) against \(whole.truePeak)")
                #expect(cut.momentary != nil && cut.momentary == whole.momentary, "\(mode) \(path) through a pipe: \(String(describing: cut.momentary))")
            }
        }
    }

    @Test("--true-peak accurate reads a burst near 0.45·fs at its peak where BS.1770 reads 0.43 dB low; the report says which")
    func accurateMode() throws {
        let signal = BandLimitedSignal.alignedBurst(sampleRate: 48_000, seconds: 0.1, frequencies: [0.41, 0.42, 0.43, 0.44, 0.45])
        let builder = PCMFileBuilder(container: .wav, encoding: .float32, channels: 1, sampleRate: 48_000)
        let path = scratch.write("burst.wav", builder.file(samples: signal.samples()))
        let analytic = 20 * log10(signal.analyticPeak())
        let bs1770 = try reading(try signalpath("analyze", "--format", "json", path))
        let accurate = try reading(try signalpath("analyze", "--format", "json", "--true-peak", "accurate", path))
        #expect(bs1770.mode == "bs1770" && accurate.mode == "accurate")
        #expect(abs(accurate.truePeak - analytic) <= 0.015, "accurate \(accurate.truePeak), analytic \(analytic)")
        #expect(bs1770.truePeak < analytic - 0.3, "bs1770 \(bs1770.truePeak), analytic \(analytic)")
        let text = try signalpath("analyze", "--true-peak", "accurate", path)
        #expect(text.status == 0 && text.stdout.contains("true peak: accurate"), "\(text.stdout)")
        // loudness reads the true peak in the mode given, and where it lies: the sines (0.01·fs = 480 Hz
        // apart) all peak together at the crest, 2400.5 samples in, and every 1/480 s from there.
        for (mode, expected) in [("bs1770", bs1770.truePeak), ("accurate", accurate.truePeak)] {
            let result = try signalpath("loudness", "--format", "json", "--true-peak", mode, path)
            #expect(result.status == 0, "\(result.stderr)")
            let file = try #require((try json(result)["files"] as? [[String: Any]])?.first)
            #expect(file["true_peak_dbtp"] as? Double == expected, "loudness --true-peak \(mode): \(String(describing: file["true_peak_dbtp"]))")
            let time = try #require(file["true_peak_time_s"] as? Double)
            // The accurate interpolator's outputs stand for whole sample intervals: within a sample
            // (0.01 of a beat). BS.1770's read is not held to it: at this untapered burst's first
            // samples its filter rings above the signal (an onset), and that is where it reads.
            let beats = (time - 2400.5 / 48_000) * 480
            if mode == "accurate" { #expect(abs(beats - beats.rounded()) < 0.011, "loudness --true-peak \(mode): the peak at \(time) s") }
            #expect((file["conventions"] as? [String: Any])?["true_peak_mode"] as? String == mode)
        }
        let refused = try signalpath("analyze", "--true-peak", "exact", path)
        #expect(refused.status == 64 && refused.stderr.contains("bs1770") && refused.stderr.contains("accurate"), "\(refused.stderr)")
    }
}
