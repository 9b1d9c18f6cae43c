import Foundation
import Testing
import SignalPathTestSupport

@Suite("signalpath spectrogram: scale, zoom and averaging")
struct SpectrogramCLITests {
    let scratch = ScratchDirectory("spectrogram-cli")

    @Test("--scale psd with --min-freq/--max-freq: the rows and columns of scipy.signal.spectrogram(scaling='density'), to 0.01 dB")
    func psdMatchesScipy() throws {
        let input = sample("pink-noise-seed1-48k-s16.wav")
        let result = try signalpath(
            "spectrogram", input, "--range", "0..0.2", "--fft-size", "1024", "--scale", "psd", "--min-freq", "1000", "--max-freq", "2000")
        #expect(result.status == 0, "\(result.stderr)")
        let script = """
            import csv, sys, numpy as np, soundfile as sf, scipy.signal as ss
            x, fs = sf.read(sys.argv[1], dtype='float64', frames=9600)
            f, t, S = ss.spectrogram(x, fs, window='hann', nperseg=1024, noverlap=512, detrend=False, scaling='density', mode='psd')
            rows = list(csv.reader(sys.stdin))
            keep = (f >= 1000) & (f <= 2000)
            assert [float(v) for v in rows[0][1:]] == f[keep].tolist(), 'columns'
            assert len(rows) - 1 == len(t), (len(rows), len(t))
            worst = 0
            for row, time, column in zip(rows[1:], t, S.T):
                assert abs(float(row[0]) - time) < 1e-6, 'time'
                worst = max(worst, np.max(np.abs(np.array([float(v) for v in row[1:]]) - 10 * np.log10(column[keep]))))
            print(len(rows) - 1, sum(keep), worst)
            """
        let check = try python(script, [input], input: result.stdoutData)
        #expect(check.status == 0, "\(check.stderr)")
        let fields = check.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(fields.count == 3 && fields[0] == 17 && fields[1] == 21, "\(check.stdout)")
        #expect(fields.count == 3 && fields[2] < 0.006, "largest difference \(check.stdout) dB (2 decimals written)")
    }

    @Test("--min-freq/--max-freq zoom the plot: a log chirp lights only the columns of its time in that band")
    func zoomedPlot() throws {
        // 20 Hz → 20 kHz in 2 s, logarithmic: f(t) = 20 · 1000^(t/2); 500 Hz at 0.93 s, 2 kHz at 1.33 s.
        let input = sample("chirp-log-20-20k-48k-s24.flac")
        func litTimes(_ extra: [String]) throws -> ClosedRange<Double> {
            let result = try signalpath(["spectrogram", input, "--format", "plot", "--color", "never", "--width", "86", "--height", "20"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map { Array($0) }
            let plot = lines.dropFirst().prefix { !$0.contains("└") }  // the rows of the heat map
            let columns = plot.flatMap { line in line.indices.filter { line[$0] == "█" } }
            let first = try #require(columns.min()), last = try #require(columns.max())
            let width = 86.0 - 6  // label and axis
            return (Double(first - 6) / width * 2)...(Double(last - 6 + 1) / width * 2)
        }
        let zoomed = try litTimes(["--min-freq", "500", "--max-freq", "2000"])
        #expect(zoomed.lowerBound > 0.8 && zoomed.upperBound < 1.45, "lit from \(zoomed.lowerBound) to \(zoomed.upperBound) s")
        let whole = try litTimes([])
        #expect(whole.upperBound - whole.lowerBound > 1.2, "without zoom the chirp crosses most of the plot: \(whole)")
    }

    @Test("--average max shows a burst that the mean dilutes; it states itself in the title, and data refuses it")
    func averaging() throws {
        // 20 s at 8 kHz of quiet noise, and 32 ms of 1 kHz at -6 dBFS (Hann-tapered, so no clicks) at 10 s:
        // in a 60-column plot a column holds ~23 segments, ~3 of them with the tone.
        let count = 160_000
        let noise = Signals.noise(count: count, amplitude: 0.0005, seed: 7)
        let burst = (0..<256).map { 0.5 * sin(2 * Double.pi * 1000 * Double($0) / 8000) * (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / 255)) }
        let samples = noise.indices.map { noise[$0] + ((80_000..<80_256).contains($0) ? burst[$0 - 80_000] : 0) }
        let path = scratch.write("burst.wav", PCMFileBuilder(container: .wav, encoding: .float32, channels: 1, sampleRate: 8000).file(samples: samples))
        func plot(_ average: String, width: Int = 60) throws -> String {
            let result = try signalpath(
                "spectrogram", path, "--format", "plot", "--color", "never", "--width", String(width), "--height", "10", "--fft-size", "256",
                "--linear", "--average", average, "--floor", "-60", "--ceiling", "0")
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        // The strongest shade anywhere: full (█) for the max of the burst column's segments (the tone
        // at about -6 dBFS); lower for their mean, which spreads ~3 loud segments over ~23.
        let shades = Array(" ░▒▓█")
        func brightest(_ text: String) -> Int {
            let rows = text.split(separator: "\n").dropFirst().prefix { !$0.contains("└") }
            return rows.map { row in Array(row).compactMap { shades.firstIndex(of: $0) }.max() ?? 0 }.max() ?? 0
        }
        let max = try plot("max"), mean = try plot("mean")
        #expect(brightest(max) == 4 && brightest(mean) < 4, "max \(brightest(max)), mean \(brightest(mean))")
        #expect(try plot("max", width: 240).contains("· max per column ·") && !(try plot("mean", width: 240).contains("per column")), "the title states it")
        let data = try signalpath("spectrogram", path, "--average", "max", "--format", "csv")
        #expect(data.status == 64 && data.stderr.contains("--average") && data.stdout.isEmpty)
    }
}
