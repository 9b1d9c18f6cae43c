import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Spectrum engine")
struct SpectrumTests {
    let scratch = ScratchDirectory("spectrum")

    @Test(
        "a full-scale sine on a bin centre reads 0.00 dBFS with every window",
        arguments: [Window.rectangular, .hann, .hamming, .blackman, .blackmanHarris, .flatTop, .kaiser(beta: 8.6), .gaussian(alpha: 2.5)])
    func fullScaleSine(window: Window) async throws {
        let bin = 100.0, frequency = bin * 48_000 / 4096  // 1171.875 Hz
        let path = floatWAV(scratch, "fs-\(window.name).wav", Signals.sines(frequencies: [frequency], amplitude: 1, sampleRate: 48_000, frames: 48_000))
        let result = try await spectrum(path, SpectrumParameters(window: window))
        let dbfs = result.values(in: .dbfs)[0]
        #expect(abs(dbfs[100] - 0) < 0.01, "\(window.name): \(dbfs[100]) dBFS")
        #expect(dbfs.enumerated().max { $0.element < $1.element }?.offset == 100)
        let linear = result.values(in: .linear)[0][100]
        #expect(abs(linear - 1) < 0.001)
        #expect(abs(result.values(in: .power)[0][100] - -3.0103) < 0.01, "power scale: a full-scale sine is −3.01 dB re FS²")
    }

    @Test("with flat-top, an off-bin −6.02 dBFS sine reads −6.02 ± 0.05 wherever it falls", arguments: [0.0, 0.25, 0.37, 0.5])
    func flatTopOffBin(offset: Double) async throws {
        let frequency = (200 + offset) * 48_000 / 4096
        let path = floatWAV(scratch, "ft-\(offset).wav", Signals.sines(frequencies: [frequency], amplitude: 0.5, sampleRate: 48_000, frames: 48_000))
        let result = try await spectrum(path, SpectrumParameters(window: .flatTop))
        let peak = result.values(in: .dbfs)[0].max()!
        #expect(abs(peak - -6.0206) < 0.05, "\(peak)")
    }

    @Test("white noise of known variance gives the expected PSD: 2σ²/fs per Hz, single-sided")
    func whiteNoisePSD() async throws {
        let amplitude = 0.5  // uniform in [−a, a): σ² = a²/3
        let noise = Signals.noise(count: 48_000 * 20, amplitude: amplitude, seed: 4)
        let path = floatWAV(scratch, "white.wav", noise)
        let result = try await spectrum(path, SpectrumParameters())
        let psd = result.values(in: .psd)[0]
        // The mean of power over the bins (not of dB, which is biased for noise).
        let meanPower = psd[1..<psd.count - 1].map { pow(10, $0 / 10) }.reduce(0, +) / Double(psd.count - 2)
        let expected = 2 * (amplitude * amplitude / 3) / 48_000
        #expect(abs(10 * log10(meanPower) - 10 * log10(expected)) < 0.05)
    }

    @Test("Parseval: the power spectrum of one rectangular segment sums to the signal's mean square")
    func parseval() async throws {
        let noise = Signals.noise(count: 4096, amplitude: 0.8, seed: 9)
        let sines = Signals.sines(frequencies: [440, 5000], amplitude: 0.1, sampleRate: 48_000, frames: 4096)
        let signal = zip(noise, stride(from: 0, to: 8192, by: 2).map { sines[$0 / 2 * 2] }).map { $0 + $1 + 0.05 }
        let path = floatWAV(scratch, "parseval.wav", signal)
        let result = try await spectrum(path, SpectrumParameters(window: .rectangular))
        #expect(result.segments == 1)
        let total = result.meanSquare()[0].reduce(0, +)
        let expected = signal.map { Double(Float($0)) * Double(Float($0)) }.reduce(0, +) / Double(signal.count)
        #expect(abs(total - expected) / expected < 1e-5, "\(total) vs \(expected)")
    }

    @Test("one worker and many give bit-identical results", arguments: [Averaging.mean, .max, .min, .median])
    func workersIdentical(averaging: Averaging) async throws {
        let noise = Signals.noise(count: 48_000 * 30 * 2, amplitude: 0.3, seed: 5)
        let path = floatWAV(scratch, "workers-\(averaging).wav", noise, channels: 2)
        let parameters = SpectrumParameters(fftSize: 2048, averaging: averaging)
        let one = try await spectrum(path, parameters, workers: 1)
        #expect(one.segments > 4 * SpectrumAnalyzer.segmentsPerChunk, "several chunks, so workers really split the work")
        for workers in [2, 3, 8] {
            let many = try await spectrum(path, parameters, workers: workers)
            #expect(many.power.map { $0.map(\.bitPattern) } == one.power.map { $0.map(\.bitPattern) }, "\(workers) workers")
        }
    }

    @Test(
        "16-bit PCM windowed where it lies in the cache gives libsndfile's decode's spectrum bit for bit: sox-made files of 1–3 channels over 1 MiB blocks, every averaging, a range, one channel"
    )
    func int16InPlaceMatchesLibsndfile() async throws {
        for channels in 1...3 {
            // 6 s of 16-bit audio: 0.6 to 1.7 MiB, so segments straddle a block boundary.
            let (inPlace, decoded) = try soxInt16File(scratch, channels: channels, seconds: 6)
            let frames = inPlace.format.frames!
            for (range, selection, averaging) in [
                (0..<frames, ChannelSelection.all, Averaging.mean), (0..<frames, .all, .median), (0..<frames, .all, .max),
                (12_345..<frames - 999, .all, .min), (0..<frames, .single(channels - 1), .mean),
            ] {
                let parameters = SpectrumParameters(fftSize: 4096, averaging: averaging)
                let ours = try await SpectrumAnalyzer(file: inPlace, frames: range, channels: selection, parameters: parameters).run(workers: 2)
                let reference = try await SpectrumAnalyzer(file: decoded, frames: range, channels: selection, parameters: parameters).run(workers: 2)
                #expect(ours.segments == reference.segments)
                #expect(
                    ours.power.map { $0.map(\.bitPattern) } == reference.power.map { $0.map(\.bitPattern) },
                    "\(channels) channels, \(range), \(selection), \(averaging)")
            }
        }
    }

    @Test("median averaging resists a transient that the mean does not")
    func medianResistsTransients() async throws {
        var signal = Signals.noise(count: 48_000 * 10, amplitude: 0.01, seed: 6)
        let burst = Signals.noise(count: 2000, amplitude: 0.9, seed: 7)
        for index in 0..<2000 { signal[100_000 + index] = burst[index] }  // a loud broadband burst in two segments
        let path = floatWAV(scratch, "click.wav", signal)
        let mean = try await spectrum(path, SpectrumParameters(averaging: .mean)).values(in: .psd)[0]
        let median = try await spectrum(path, SpectrumParameters(averaging: .median)).values(in: .psd)[0]
        let expected = 10 * log10(2 * (0.01 * 0.01 / 3) / 48_000)
        let medianLevel = 10 * log10(median[100..<1900].map { pow(10, $0 / 10) }.reduce(0, +) / 1800)
        let meanLevel = 10 * log10(mean[100..<1900].map { pow(10, $0 / 10) }.reduce(0, +) / 1800)
        #expect(abs(medianLevel - expected) < 0.3, "median \(medianLevel) vs \(expected)")
        #expect(meanLevel - expected > 3, "the burst raises the mean by \(meanLevel - expected) dB")
    }

    @Test("stereo channels, a single channel and the mix")
    func channelSelection() async throws {
        let path = floatWAV(scratch, "stereo.wav", Signals.sines(frequencies: [1500, 3000], amplitude: 0.5, sampleRate: 48_000, frames: 48_000), channels: 2)
        let all = try await spectrum(path, SpectrumParameters(fftSize: 3200))  // 15 Hz bins: 1500 = bin 100, 3000 = bin 200
        #expect(all.channelNames == ["left", "right"])
        let dbfs = all.values(in: .dbfs)
        #expect(abs(dbfs[0][100] - -6.0206) < 0.01 && abs(dbfs[1][200] - -6.0206) < 0.01)
        #expect(dbfs[0][200] < -100 && dbfs[1][100] < -100)
        let right = try await spectrum(path, channels: .single(1), SpectrumParameters(fftSize: 3200))
        #expect(right.channelNames == ["right"] && abs(right.values(in: .dbfs)[0][200] - -6.0206) < 0.01)
        let mix = try await spectrum(path, channels: .mix, SpectrumParameters(fftSize: 3200)).values(in: .dbfs)[0]
        #expect(abs(mix[100] - -12.0412) < 0.01 && abs(mix[200] - -12.0412) < 0.01, "each tone at half level in the mix")
    }

    @Test("window tables state the textbook coherent gain and ENBW")
    func windowConstants() {
        let cases: [(Window, Double, Double)] = [
            (.rectangular, 1, 1), (.hann, 0.5, 1.5), (.hamming, 0.54, 1.3628), (.blackman, 0.42, 1.7268),
            (.blackmanHarris, 0.35875, 2.0044), (.flatTop, 0.21557895, 3.7702),
        ]
        for (window, gain, enbw) in cases {
            let table = WindowTable(window, size: 4096)
            #expect(abs(table.coherentGain - gain) < 1e-4, "\(window.name) gain \(table.coherentGain)")
            #expect(abs(table.enbwBins - enbw) < 1e-3, "\(window.name) ENBW \(table.enbwBins)")
        }
        #expect(Window(name: "kaiser:6") == .kaiser(beta: 6) && Window(name: "flat-top") == .flatTop && Window(name: "hann:x") == nil)
    }
}

@Suite("Spectrum against scipy")
struct ScipyWelchTests {
    @Test(
        "PSD equals scipy.signal.welch on a seeded noise fixture to 10⁻⁵ dB",
        arguments: [
            ("hann", Window.hann, 4096, 2048), ("blackmanharris", Window.blackmanHarris, 1000, 750),
        ])
    func welch(name: String, window: Window, size: Int, overlapFrames: Int) async throws {
        let fixture = try String(contentsOfFile: "\(repositoryRoot)/Tests/Fixtures/welch-noise-psd.csv", encoding: .utf8)
        let expected = fixture.split(separator: "\n").filter { $0.hasPrefix("\(name),") }.map { line in
            let fields = line.split(separator: ",")
            return (Double(fields[3])!, Double(fields[4])!)
        }
        #expect(expected.count == size / 2 + 1)
        let parameters = SpectrumParameters(fftSize: size, window: window, overlap: Double(overlapFrames) / Double(size))
        let result = try await spectrum("\(repositoryRoot)/Tests/Fixtures/welch-noise.wav", parameters)
        let psd = result.values(in: .psd)[0]
        var worst = 0.0
        for (bin, (frequency, level)) in expected.enumerated() {
            #expect(abs(result.frequency(ofBin: bin) - frequency) < 1e-9)
            worst = max(worst, abs(psd[bin] - level))
        }
        // The largest difference measured is in docs/ARCHITECTURE.md ("Scaling is stated").
        #expect(worst < 1e-5, "largest difference \(worst) dB")
    }
}
