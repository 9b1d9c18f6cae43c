import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("waveform envelope")
struct WaveformAnalyzerTests {
    let scratch = ScratchDirectory("waveform")

    /// 300 001 frames of 16-bit stereo at 48 kHz (two chunks of 262 144 frames and a bit): seeded
    /// noise at half scale on the left, a 440 Hz sine at 0.3 on the right, with runs of full-scale
    /// codes on the left (positive and negative) and one on the right, some across a chunk boundary.
    static let frames = 300_001

    func noisyFile() -> String {
        let noise = Signals.noise(count: Self.frames, amplitude: 0.5, seed: 7)
        var samples: [Double] = []
        samples.reserveCapacity(Self.frames * 2)
        for frame in 0..<Self.frames {
            var left = noise[frame]
            var right = 0.3 * sin(2 * Double.pi * 440 * Double(frame) / 48_000)
            if (1000..<1010).contains(frame) || (262_140..<262_150).contains(frame) { left = 1.5 }
            if (150_000..<150_003).contains(frame) { left = -1.5 }
            if (200_000..<200_002).contains(frame) { right = 1 }
            samples += [left, right]
        }
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: 48_000)
        return scratch.write("noise.wav", builder.file(samples: samples))
    }

    /// numpy's envelope of frames `range` in `columns` columns: column c covers ⌊c·N/C⌋ ..< ⌊(c+1)·N/C⌋,
    /// per channel (left, right, then the mean of the two) min, max, √(mean of squares) and the
    /// clipped samples by analyze's rule: samples in runs of at least 3 of one channel at the largest
    /// code (32767/32768) or below −1, runs judged in the whole file (for the mix, frames where either is).
    func numpyEnvelope(path: String, range: Range<Int64>, columns: Int) throws -> [[String: [Double]]] {
        let script = """
            import json, sys, numpy as np, soundfile as sf
            x, fs = sf.read(sys.argv[1], dtype='float64')
            full = 32767 / 32768
            at_full = np.abs(x) >= full
            clip = np.zeros_like(at_full)
            for ch in range(x.shape[1]):
                start = None
                for i, v in enumerate(list(at_full[:, ch]) + [False]):
                    if v and start is None: start = i
                    if not v and start is not None:
                        if i - start >= 3: clip[start:i, ch] = True
                        start = None
            x = x[\(range.lowerBound):\(range.upperBound)]; clip = clip[\(range.lowerBound):\(range.upperBound)]
            N = len(x); C = \(columns)
            signals = [(x[:, 0], clip[:, 0]), (x[:, 1], clip[:, 1]), (x.mean(1), clip.any(1))]
            out = []
            for v, c in signals:
                edges = [N * k // C for k in range(C + 1)]
                parts = [(v[a:b], c[a:b]) for a, b in zip(edges, edges[1:])]
                out.append({'min': [float(p.min()) for p, _ in parts], 'max': [float(p.max()) for p, _ in parts],
                            'rms': [float(np.sqrt(np.mean(p * p))) for p, _ in parts], 'clipped': [float(k.sum()) for _, k in parts]})
            print(json.dumps(out))
            """
        let result = try run("/usr/bin/env", ["python3", "-c", script, path])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: [Double]]])
    }

    func envelope(_ file: AudioFile, _ range: Range<Int64>, _ channels: ChannelSelection, columns: Int, workers: Int) async throws -> WaveformEnvelope {
        try await WaveformAnalyzer(file: file, frames: range, channels: channels, columns: columns).run(workers: workers)
    }

    @Test("min, max, RMS and clipped samples per column match numpy's on the same frames, for each channel and the mix")
    func matchesNumpy() async throws {
        let path = noisyFile()
        let file = try AudioFile.open(path)
        let range: Range<Int64> = 777..<Int64(Self.frames)  // columns that do not start on chunk boundaries
        let columns = 997
        let reference = try numpyEnvelope(path: path, range: range, columns: columns)
        let all = try await envelope(file, range, .all, columns: columns, workers: 2)
        let mix = try await envelope(file, range, .mix, columns: columns, workers: 2)
        #expect(all.channelNames == ["left", "right"] && mix.channelNames == ["mix"])
        var problems: [String] = []
        for (index, numpy) in reference.enumerated() {
            let (waveform, channel) = index < 2 ? (all, index) : (mix, 0)
            for column in 0..<columns {
                let expectedRMS = numpy["rms"]![column]
                if Double(waveform.minimum(column, channel)) != numpy["min"]![column] || Double(waveform.maximum(column, channel)) != numpy["max"]![column]
                    || abs(waveform.rms(column, channel) - expectedRMS) > 1e-12 * expectedRMS || Double(waveform.clipped(column, channel)) != numpy["clipped"]![column]
                {
                    problems.append(
                        "channel \(index) column \(column): min \(waveform.minimum(column, channel)) max \(waveform.maximum(column, channel)) "
                            + "rms \(waveform.rms(column, channel)) clipped \(waveform.clipped(column, channel)); numpy \(numpy.mapValues { $0[column] })")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) columns differ, first: \(problems.first ?? "")")
        // The runs planted: 20 + 3 samples on the left; the 2 on the right are too short a run to count.
        #expect(all.clipped.reduce(0, +) == 23)
    }

    @Test("the result is identical for 1, 2 and 5 workers (fixed chunks, merged in order)")
    func identicalForAnyWorkers() async throws {
        let file = try AudioFile.open(noisyFile())
        let range: Range<Int64> = 0..<Int64(Self.frames)
        let one = try await envelope(file, range, .all, columns: 613, workers: 1)
        for workers in [2, 5] {
            let other = try await envelope(file, range, .all, columns: 613, workers: workers)
            #expect(other == one, "\(workers) workers")
        }
    }

    @Test("columns partition the range exactly: every frame in one column, sizes differing by at most one; no more columns than frames")
    func columnsPartition() async throws {
        let path = floatWAV(scratch, "short.wav", sine(1000, dbfs: -6, seconds: 0.01))  // 480 frames
        let file = try AudioFile.open(path)
        for (range, columns) in [(0..<Int64(480), 7), (13..<Int64(480), 100), (0..<Int64(480), 480)] as [(Range<Int64>, Int)] {
            let waveform = try await envelope(file, range, .all, columns: columns, workers: 2)
            #expect(waveform.columnStart(0) == 0 && waveform.columnStart(columns) == Int64(range.count))
            let sizes = (0..<columns).map { waveform.columnFrames($0).count }
            #expect(sizes.allSatisfy { $0 >= 1 } && sizes.max()! - sizes.min()! <= 1, "\(range) in \(columns): \(sizes)")
        }
        let clamped = try await envelope(file, 0..<480, .all, columns: 5000, workers: 2)
        #expect(clamped.columns == 480)
        #expect(throws: SignalPathError.self) { try WaveformAnalyzer(file: file, frames: 0..<480, channels: .single(1), columns: 10) }
    }

    @Test("a half-scale sine spans ±0.5 with RMS 0.354 in every column")
    func halfScaleSine() async throws {
        let file = try AudioFile.open(floatWAV(scratch, "half.wav", sine(1000, dbfs: -6.0206, seconds: 0.5)))
        let waveform = try await envelope(file, 0..<24_000, .all, columns: 50, workers: 2)
        for column in 0..<50 {
            #expect(abs(waveform.maximum(column, 0) - 0.5) < 1e-4 && abs(waveform.minimum(column, 0) + 0.5) < 1e-4)
            #expect(abs(waveform.rms(column, 0) - 0.5 / 2.squareRoot()) < 1e-4)
        }
        #expect(waveform.clipped.allSatisfy { $0 == 0 })
    }
}
