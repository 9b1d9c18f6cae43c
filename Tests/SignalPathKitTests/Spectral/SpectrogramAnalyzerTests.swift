import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("spectrogram columns")
struct SpectrogramAnalyzerTests {
    let scratch = ScratchDirectory("spectrogram")

    /// 1 s at 8 kHz: noise at about -66 dBFS and a 30 ms burst of 1 kHz at -6 dBFS at 0.40 s, so one
    /// plot column holds a few loud segments among quiet ones: there max, mean, min and median differ.
    func burst() -> String {
        let noise = Signals.noise(count: 8000, amplitude: 0.001, seed: 11)
        let tone = sine(1000, dbfs: -6.02, seconds: 1, sampleRate: 8000)
        let samples = noise.indices.map { noise[$0] + ((3200..<3440).contains($0) ? tone[$0] : 0) }
        return floatWAV(scratch, "burst.wav", samples, sampleRate: 8000)
    }

    /// Per averaging, per column, 10·log10 of the combined |X|² per bin, by numpy from the same
    /// file: column c covers frames [L·c/C, L·(c+1)/C); its segments start there every hop and end
    /// inside the range; |rfft(w·x)|² with scipy's periodic window; the median divided by scipy's
    /// bias for n χ²₂ values.
    func numpyColumns(path: String, columns: Int, fftSize: Int, hop: Int) throws -> [String: [[Double]]] {
        let script = """
            import json, sys, numpy as np, soundfile as sf, scipy.signal as ss
            x, fs = sf.read(sys.argv[1], dtype='float64'); L = len(x); C = \(columns); N = \(fftSize); hop = \(hop)
            w = ss.get_window('hann', N)
            def bias(n): return 1 + sum(1/(2*k+1) - 1/(2*k) for k in range(1, (n-1)//2 + 1))
            out = {'mean': [], 'max': [], 'min': [], 'median': []}
            for c in range(C):
                lo, hi = L*c//C, L*(c+1)//C
                starts = [s for s in range(lo, max(hi, lo+1), hop) if s + N <= L] or [max(0, min(lo, L-N))]
                P = np.array([np.abs(np.fft.rfft(w * x[s:s+N]))**2 for s in starts])
                for name, v in (('mean', P.mean(0)), ('max', P.max(0)), ('min', P.min(0)), ('median', np.median(P, 0) / bias(len(starts)))):
                    out[name].append((10*np.log10(v)).tolist())
            print(json.dumps(out))
            """
        let result = try run("/usr/bin/env", ["python3", "-c", script, path])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: [[Double]]])
    }

    @Test("plot columns combine their segments by mean, max, min or median, as numpy does from the same file")
    func columnsMatchNumpy() async throws {
        let path = burst()
        let file = try AudioFile.open(path)
        let reference = try numpyColumns(path: path, columns: 8, fftSize: 256, hop: 128)
        var levels: [Averaging: [[Double]]] = [:]
        for averaging in Averaging.allCases {
            let parameters = SpectrumParameters(fftSize: 256, window: .hann, overlap: 0.5, averaging: averaging)
            let analyzer = try SpectrogramAnalyzer(file: file, frames: 0..<8000, channels: .all, parameters: parameters, columns: 8)
            var columns: [[Double]] = []
            try analyzer.run { frame throws(SignalPathError) in columns.append(frame.power[0].map { 10 * log10($0) }) }
            let expected = try #require(reference[averaging.rawValue])
            #expect(columns.count == 8 && expected.count == 8)
            var worst = 0.0
            for (column, numpy) in zip(columns, expected) {
                for (ours, theirs) in zip(column, numpy) { worst = max(worst, abs(ours - theirs)) }
            }
            #expect(worst < 0.01, "\(averaging): largest difference from numpy \(worst) dB")
            levels[averaging] = columns
        }
        // The burst's column (0.375–0.5 s): its loud segments are the max, diluted in the mean, absent from the min.
        let bin = 1000 * 256 / 8000
        let max = try #require(levels[.max])[3][bin], mean = try #require(levels[.mean])[3][bin], min = try #require(levels[.min])[3][bin]
        #expect(max > mean + 3 && mean > min + 20, "max \(max), mean \(mean), min \(min) dB")
    }

    @Test("data frames (no columns) are single segments whatever the averaging")
    func dataFramesAreSegments() throws {
        let path = burst()
        let file = try AudioFile.open(path)
        func frames(_ averaging: Averaging) throws -> [[Double]] {
            let parameters = SpectrumParameters(fftSize: 256, window: .hann, overlap: 0.5, averaging: averaging)
            let analyzer = try SpectrogramAnalyzer(file: file, frames: 0..<8000, channels: .all, parameters: parameters, columns: nil)
            var power: [[Double]] = []
            try analyzer.run { frame throws(SignalPathError) in power.append(frame.power[0]) }
            return power
        }
        let mean = try frames(.mean)
        #expect(mean.count == (8000 - 256) / 128 + 1)
        #expect(try frames(.max) == mean && frames(.median) == mean)
    }
}
