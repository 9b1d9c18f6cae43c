import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Spectrum peaks, bands, weighting, ranges")
struct SpectrumPresentationTests {
    let scratch = ScratchDirectory("presentation")

    @Test(
        "an off-bin tone's peak frequency is within 0.05 bin and its level within 0.05 dB, for every window",
        arguments: [Window.rectangular, .hann, .hamming, .blackman, .blackmanHarris, .flatTop, .kaiser(beta: 8.6), .gaussian(alpha: 2.5)])
    func offBinPeak(window: Window) async throws {
        var random = SeededGenerator(seed: 31)
        for trial in 0..<4 {
            let bin = 150 + Double.random(in: 0..<1, using: &random)
            let frequency = bin * 48_000 / 4096
            let amplitude = [0.5, 0.1, 0.9, 0.25][trial]
            let path = floatWAV(
                scratch, "peak-\(window.name)-\(trial).wav",
                Signals.sines(frequencies: [frequency], amplitude: amplitude, sampleRate: 48_000, frames: 48_000))
            let result = try await spectrum(path, SpectrumParameters(window: window))
            let peak = try #require(result.peaks(count: 1, channel: 0, meanSquare: result.meanSquare()).first)
            #expect(abs(peak.frequency - frequency) / result.binWidth < 0.05, "\(window.name): \(peak.frequency) vs \(frequency)")
            #expect(abs(peak.level - 20 * log10(amplitude)) < 0.05, "\(window.name): \(peak.level) dBFS vs \(20 * log10(amplitude))")
        }
    }

    @Test("peaks of a chord come out strongest first with note names; a tone's skirt is not a peak")
    func chordPeaks() async throws {
        let tones = [(440.0, 0.4), (554.37, 0.2), (659.26, 0.1)]
        var signal = [Double](repeating: 0, count: 96_000)
        for (frequency, amplitude) in tones {
            for n in signal.indices { signal[n] += amplitude * sin(2 * Double.pi * frequency * Double(n) / 48_000) }
        }
        let path = floatWAV(scratch, "chord.wav", signal)
        let result = try await spectrum(path, SpectrumParameters(fftSize: 16384))
        let peaks = result.peaks(count: 5, channel: 0, meanSquare: result.meanSquare())
        #expect(peaks.prefix(3).map { $0.note?.name } == ["A4", "C#5", "E5"])
        for (peak, (frequency, amplitude)) in zip(peaks, tones) {
            #expect(abs(peak.frequency - frequency) < 0.05)
            #expect(abs(peak.level - 20 * log10(amplitude)) < 0.05)
        }
        #expect(peaks.count < 4 || peaks[3].level < -100, "nothing else stands out: \(peaks)")
    }

    @Test("a note is named only where the resolution (ENBW) is no wider than a semitone: 60 Hz with a 4096-point Hann at 48 kHz is not, 440 Hz is")
    func notesWhereResolved() async throws {
        // Hann: an ENBW of 1.5 bins, 17.6 Hz here; a semitone is 3.6 Hz at 60 Hz and 26.2 Hz at 440 Hz.
        let signal = (0..<48_000).map { 0.3 * sin(2 * Double.pi * 60 * Double($0) / 48_000) + 0.3 * sin(2 * Double.pi * 440 * Double($0) / 48_000) }
        let path = floatWAV(scratch, "low-and-a4.wav", signal)
        let result = try await spectrum(path, SpectrumParameters(fftSize: 4096, window: .hann))
        let peaks = result.peaks(count: 2, channel: 0, meanSquare: result.meanSquare()).sorted { $0.frequency < $1.frequency }
        #expect(peaks.count == 2 && abs(peaks[0].frequency - 60) < 0.1 && peaks[0].note == nil, "\(peaks)")
        #expect(peaks.count == 2 && peaks[1].note?.name == "A4", "\(peaks)")
    }

    @Test("tones stand out of their neighbourhood and of the floor: a float sine has one, spurs 130 and 140 dB under it are listed at their level")
    func tonesAboveTheFloor() async throws {
        let frames = 96_000
        let sine = (0..<frames).map { 0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48_000) }
        let settings = AnalysisSettings()
        func tones(_ signal: [Double], _ name: String) async throws -> [SpectralPeak] {
            let path = floatWAV(scratch, name, signal)
            let file = try AudioFile.open(path)
            return try await SignalAnalyzer(file: file, frames: 0..<Int64(frames), settings: settings).run().channels[0].spectral.tones
        }
        let lone = try await tones(sine, "lone.wav")
        #expect(lone.map { ($0.frequency * 10).rounded() / 10 } == [1000], "only the tone, not the FFT's rounding: \(lone.map { ($0.frequency, $0.level) })")
        for below in [130.0, 140.0] {
            let spur = (0..<frames).map { sine[$0] + 0.5 * pow(10, -below / 20) * sin(2 * Double.pi * 3000 * Double($0) / 48_000) }
            let found = try await tones(spur, "spur\(Int(below)).wav")
            #expect(found.count == 2 && abs(found[1].frequency - 3000) < 0.1 && abs(found[1].level - (20 * log10(0.5) - below)) < 0.3, "\(found.map { ($0.frequency, $0.level) })")
        }
    }

    @Test("the plot names each peak once, never two labels run together, when both channels hold the same crowded tones")
    func peakLabels() async throws {
        // Both channels: tones close together on a log axis (their labels would touch), and high ones.
        let frequencies = [91.0, 131, 185, 262, 370, 523, 1000, 1200, 5000, 6000]
        let mono = (0..<48_000).map { n in frequencies.reduce(0.0) { $0 + 0.05 * sin(2 * Double.pi * $1 * Double(n) / 48_000) } }
        let path = floatWAV(scratch, "crowded.wav", zip(mono, mono).flatMap { [$0, $1] }, channels: 2)
        let result = try await spectrum(path, SpectrumParameters(fftSize: 16384))
        var presentation = SpectrumPresentation()
        presentation.peakCount = 10
        let report = SpectrumReport(spectrum: result, presentation: presentation)
        #expect(report.peaks.allSatisfy { $0.count == 10 }, "each channel finds all ten: \(report.peaks.map(\.count))")
        #expect(report.peaksNamedOnce.count == 10)
        let plot = report.plot(style: .lines, logarithmic: true, floor: -120, ceiling: nil)
        let canvas = PlotOutput.canvas(width: 80, height: 24) { plot.draw(into: &$0, area: $1) }
        let labels = Set(
            report.peaksNamedOnce.map { peak in
                (peak.frequency >= 1000 ? UnitFormat.fixed(peak.frequency / 1000, 2) + "k" : UnitFormat.fixed(peak.frequency, 0)) + (peak.note.map { " " + $0.name } ?? "")
            })
        var written: [String] = []
        for y in 0..<24 {
            // Runs of cells in the peak style, markers stripped: each must be one whole label.
            var run = ""
            for x in 0...80 {
                if x < 80, let cell = canvas[x, y], cell.style == .peak, cell.character != "▼" {
                    run.append(cell.character)
                } else if !run.isEmpty {
                    #expect(labels.contains(run), "row \(y): '\(run)' is not one label of \(labels.sorted())")
                    written.append(run)
                    run = ""
                }
            }
        }
        #expect(written.count == Set(written).count, "a label written twice: \(written)")
        #expect(written.count >= 3, "labels find room: \(written)")
    }

    @Test("note names and cents, with A4 = 440 Hz or another reference")
    func notes() {
        #expect(MusicalNote.nearest(to: 440) == MusicalNote(name: "A4", cents: 0))
        #expect(MusicalNote.nearest(to: 261.6255653)?.name == "C4")
        let sharp = MusicalNote.nearest(to: 440 * pow(2, 30.0 / 1200))!
        #expect(sharp.name == "A4" && abs(sharp.cents - 30) < 1e-9)
        #expect(MusicalNote.nearest(to: 27.5)?.name == "A0" && MusicalNote.nearest(to: 4186.009)?.name == "C8")
        #expect(MusicalNote.nearest(to: 432, a4: 432) == MusicalNote(name: "A4", cents: 0))
        #expect(MusicalNote.nearest(to: 0) == nil)
    }

    @Test("A and C weighting match the IEC 61672-1 table to 0.1 dB")
    func weighting() {
        // IEC 61672-1 Table 3, at the exact base-10 frequencies 1000·10^(x/10) behind the nominal ones.
        let table: [(Int, Double, Double)] = [  // x, A, C
            (-20, -70.4, -14.3), (-15, -39.4, -3.0), (-12, -26.2, -0.8), (-10, -19.1, -0.3), (-6, -8.6, 0),
            (-3, -3.2, 0), (0, 0, 0), (3, 1.2, -0.2), (6, 1.0, -0.8), (9, -1.1, -3.0),
            (10, -2.5, -4.4), (12, -6.6, -8.5), (13, -9.3, -11.2),
        ]
        for (x, a, c) in table {
            let frequency = 1000 * pow(10, Double(x) / 10)
            #expect(abs(FrequencyWeighting.a.decibels(at: frequency) - a) < 0.1, "A at \(frequency) Hz")
            #expect(abs(FrequencyWeighting.c.decibels(at: frequency) - c) < 0.1, "C at \(frequency) Hz")
            #expect(FrequencyWeighting.z.decibels(at: frequency) == 0)
        }
    }

    @Test("octave and third-octave bands have the IEC 61260 centres, and a tone reads its level in its band")
    func bands() async throws {
        let octaves = OctaveBand.bands(fraction: 1, upTo: 24_000)
        #expect(octaves.map(\.nominal) == [16, 31.5, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000], "31.5 kHz is cut by Nyquist")
        let thirds = OctaveBand.bands(fraction: 3, upTo: 24_000).map(\.nominal)
        #expect(thirds.prefix(6) == [16, 20, 25, 31.5, 40, 50] && thirds.contains(1250) && thirds.last == 20000)
        let kilohertz = try #require(octaves.first { $0.nominal == 1000 })
        #expect(abs(kilohertz.centre - 1000) < 1e-9 && abs(kilohertz.upper / kilohertz.lower - pow(10, 0.3)) < 1e-12)

        let path = floatWAV(scratch, "band.wav", Signals.sines(frequencies: [1000], amplitude: 0.5, sampleRate: 48_000, frames: 96_000))
        var presentation = SpectrumPresentation()
        presentation.bands = 3
        for window in [Window.hann, .blackmanHarris, .rectangular] {
            let report = SpectrumReport(spectrum: try await spectrum(path, SpectrumParameters(window: window)), presentation: presentation)
            let band = try #require(report.rows.first { $0.band?.nominal == 1000 })
            #expect(abs(band.values[0] - -6.0206) < 0.1, "\(window.name): \(band.values[0])")
            if window != .rectangular {  // a rectangular window leaks an off-bin tone far and wide
                let neighbour = try #require(report.rows.first { $0.band?.nominal == 2000 })
                #expect(neighbour.values[0] < -60, "\(window.name): \(neighbour.values[0])")
            }
        }
    }

    @Test("third-octave bands of white noise rise 1 dB per band (3 dB per octave) in power")
    func noiseBands() async throws {
        let path = floatWAV(scratch, "white-bands.wav", Signals.noise(count: 48_000 * 20, amplitude: 0.5, seed: 12))
        var presentation = SpectrumPresentation()
        presentation.bands = 3
        presentation.scale = .power
        let report = SpectrumReport(spectrum: try await spectrum(path, SpectrumParameters()), presentation: presentation)
        // Expected band power: one-sided density 2σ²/fs times the bandwidth.
        for row in report.rows where row.frequency > 200 && row.frequency < 16_000 {
            let band = try #require(row.band)
            let expected = 10 * log10(2 * (0.25 / 3) / 48_000 * (band.upper - band.lower))
            #expect(abs(row.values[0] - expected) < 0.3, "\(band.nominal) Hz: \(row.values[0]) vs \(expected)")
        }
    }

    @Test("smoothing leaves a flat spectrum flat and spreads a tone over its fraction of an octave")
    func smoothing() {
        let flat = [Double](repeating: 2, count: 1000)
        #expect(OctaveSmoothing.smooth(flat, binWidth: 10, fraction: 3).allSatisfy { abs($0 - 2) < 1e-12 })
        var tone = [Double](repeating: 0, count: 1000)
        tone[500] = 1
        let smoothed = OctaveSmoothing.smooth(tone, binWidth: 10, fraction: 3)
        let width = pow(2, 1.0 / 6)  // ±1/6 octave around each bin
        let reached = smoothed.indices.filter { smoothed[$0] > 0 }
        #expect(reached.first! >= Int((500 / width).rounded(.down)) && reached.last! <= Int((500 * width).rounded(.up)))
        #expect(abs(smoothed.reduce(0, +) - 1) < 0.1, "power is roughly conserved")
    }

    @Test("the tone-step sample shows 500 Hz before 2 s and 1 kHz after")
    func toneStep() async throws {
        let path = "\(repositoryRoot)/Samples/tone-step-500-1k-48k-s16.wav"
        let file = try AudioFile.open(path)
        for (text, expected) in [("0.5..1.9", 500.0), ("..2s", 500.0), ("2.1s..3.5s", 1000.0), ("2500ms..", 1000.0)] {
            let range = try #require(TimeRange(parsing: text))
            let frames = try range.frames(in: path, sampleRate: 48_000, frames: file.format.frames)
            let result = try await SpectrumAnalyzer(file: file, frames: frames, channels: .all, parameters: SpectrumParameters()).run()
            let peak = try #require(result.peaks(count: 1, channel: 0, meanSquare: result.meanSquare()).first)
            #expect(abs(peak.frequency - expected) < 0.1, "\(text): \(peak.frequency)")
            #expect(abs(peak.level - -6.02) < 0.05)
        }
    }

    @Test("the last second of a sparse RF64 over 4 GB is analysed reading only bytes near it")
    func hugeFileRange() async throws {
        let builder = PCMFileBuilder(container: .rf64, encoding: .signed16, channels: 2, sampleRate: 48_000)
        let frames: Int64 = 48_000 * 60 * 450
        let header = builder.header(dataBytes: UInt64(frames) * 4)
        let path = scratch.write("huge.rf64", header)
        let tail = Signals.sines(frequencies: [1000, 2500], amplitude: 0.5, sampleRate: 48_000, frames: 48_000)
        let descriptor = open(path, O_WRONLY)
        #expect(ftruncate(descriptor, off_t(header.count) + off_t(frames) * 4) == 0)
        let bytes = builder.sampleBytes(tail)
        #expect(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(header.count) + off_t(frames - 48_000) * 4) } == bytes.count)
        close(descriptor)

        let file = try AudioFile.open(path)
        let range = try TimeRange(parsing: "26999s..")!.frames(in: path, sampleRate: 48_000, frames: file.format.frames)
        #expect(range == frames - 48_000..<frames)
        let result = try await SpectrumAnalyzer(file: file, frames: range, channels: .all, parameters: SpectrumParameters()).run()
        let peaks = (0..<2).map { result.peaks(count: 1, channel: $0, meanSquare: result.meanSquare())[0] }
        #expect(abs(peaks[0].frequency - 1000) < 0.1 && abs(peaks[1].frequency - 2500) < 0.1)
        let bytesRead = file.source!.reader.statistics.bytesRead
        #expect(bytesRead < 48_000 * 4 + 3 * Int64(CachedFile.defaultBlockSize), "read \(bytesRead) bytes for a 192 000-byte range")
    }

    @Test("the window's response table: each DTFT magnitude as a direct sum of w[n]·e^(−2πiδn/N) gives it, to 1e−12")
    func windowResponseTable() {
        let size = 2048, fftSize = 4096
        let window = WindowTable.shared(.kaiser(beta: 20), size: size).coefficients
        let offsets = SIMD4<Double>(0, 19.0 / 64, 0.3, 1.5)
        let magnitudes = WindowResponse.dtft(window, fftSize: fftSize, offsetBins: offsets)
        for lane in 0..<4 {
            var re = 0.0, im = 0.0
            for n in 0..<size {
                let angle = -2 * Double.pi * offsets[lane] * Double(n) / Double(fftSize)
                re += Double(window[n]) * cos(angle)
                im += Double(window[n]) * sin(angle)
            }
            let model = (re * re + im * im).squareRoot()
            #expect(abs(magnitudes[lane] - model) <= 1e-12 * model, "δ = \(offsets[lane]): \(magnitudes[lane]) vs \(model)")
        }
        // The table holds those values at multiples of 1/64 bin and interpolates between them.
        let table = WindowResponse(window, fftSize: fftSize)
        #expect(abs(table.magnitude(atOffset: 19.0 / 64) - magnitudes[1]) <= 1e-12 * magnitudes[1])
        #expect(abs(table.magnitude(atOffset: 0.3) - magnitudes[2]) <= 1e-6 * magnitudes[2])
        #expect(table.magnitude(atOffset: -1.5) == table.magnitude(atOffset: 1.5))
    }

    @Test(
        "the response table of every window kind (from its moments) is the direct DTFT at each 1/64 bin, to 1e−11 of |W(0)|",
        arguments: [
            (Window.kaiser(beta: 20), 8192, 8192), (.hann, 4096, 4096), (.rectangular, 2048, 4096), (.flatTop, 1000, 1024),
            (.blackmanHarris, 512, 512), (.gaussian(alpha: 2.5), 4096, 8192),
        ])
    func windowResponseOfEveryKind(window: Window, size: Int, fftSize: Int) {
        let coefficients = window.coefficients(size: size)
        #expect((1..<size).allSatisfy { coefficients[$0] == coefficients[size - $0] }, "symmetric about the middle")
        let table = WindowResponse(coefficients, fftSize: fftSize)
        func model(_ offset: Double) -> Double {
            var re = 0.0, im = 0.0
            for n in 0..<size {
                let angle = -2 * Double.pi * offset * Double(n) / Double(fftSize)
                re += Double(coefficients[n]) * cos(angle)
                im += Double(coefficients[n]) * sin(angle)
            }
            return (re * re + im * im).squareRoot()
        }
        let centre = model(0)
        for step in stride(from: 0, through: 96, by: 7) {
            let offset = Double(step) / 64
            #expect(abs(table.magnitude(atOffset: offset) - model(offset)) <= 1e-11 * centre, "\(window.name) δ = \(offset)")
        }
    }
}
