import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

func analyse(
    _ path: String, range: Range<Int64>? = nil, settings: AnalysisSettings = AnalysisSettings(),
    workers: Int = 2
) async throws -> SignalAnalysis {
    let file = try AudioFile.open(path)
    return try await SignalAnalyzer(file: file, frames: range ?? 0..<file.format.frames!, settings: settings).run(workers: workers)
}

/// Writes `samples` (interleaved) as a 32-bit float WAV, so the analysed values are exactly the synthesized ones.
func floatWAV(_ scratch: ScratchDirectory, _ name: String, _ samples: [Double], channels: Int = 1, sampleRate: Int = 48_000) -> String {
    let builder = PCMFileBuilder(container: .wav, encoding: .float32, channels: channels, sampleRate: sampleRate)
    return scratch.write(name, builder.file(samples: samples))
}

func spectrum(
    _ path: String, range: Range<Int64>? = nil, channels: ChannelSelection = .all,
    _ parameters: SpectrumParameters = SpectrumParameters(), workers: Int = 2
) async throws -> PowerSpectrum {
    let file = try AudioFile.open(path)
    let analyzer = try SpectrumAnalyzer(
        file: file, frames: range ?? 0..<file.format.frames!, channels: channels,
        parameters: parameters)
    return try await analyzer.run(workers: workers)
}

/// A sox-made 16-bit WAV of `seconds` of pink noise and a 997 Hz tone in `channels` channels, opened
/// twice: read where its samples lie (`PCMDecoder`), and through libsndfile's decode, the reference
/// the in-place paths are held to.
func soxInt16File(_ scratch: ScratchDirectory, channels: Int, seconds: Int) throws -> (inPlace: AudioFile, decoded: AudioFile) {
    let sox = try #require(which("sox"), "sox is missing: run `make setup`")
    let path = scratch.file("s16-\(channels)ch-\(seconds)s.wav")
    let made = try run(sox, ["-R", "-n", "-r", "48000", "-c", String(channels), "-b", "16", path, "synth", String(seconds), "pinknoise", "sine", "997", "gain", "-1"])
    #expect(made.status == 0)
    let inPlace = try AudioFile.open(path), decoded = try AudioFile.open(path, decoding: .libsndfile)
    #expect(try inPlace.makeReader().holdsHostInt16 && !(try decoded.makeReader().holdsHostInt16))
    return (inPlace, decoded)
}

/// A canvas pre-filled with a marker, so that drawing outside the view's area shows in goldens.
func markedCanvas(width: Int, height: Int) -> Canvas { Canvas(width: width, height: height, fill: Cell("·")) }

/// A spectrum with known content: a floor at −100 dB, tones at 1 kHz (−6 dB) and 5 kHz (−40 dB)
/// on the first channel, 200 Hz (−20 dB) on the second; 1024 bins of 23.4375 Hz (48 kHz / 2048).
func syntheticPlot(channels: Int = 2) -> SpectrumPlot {
    let frequencies = (0..<1025).map { Double($0) * 23.4375 }
    func tones(_ list: [(Double, Double)]) -> [Double] {
        frequencies.map { frequency in list.reduce(-100) { level, tone in abs(frequency - tone.0) < 30 ? max(level, tone.1) : level } }
    }
    var data = [("left", tones([(1000, -6), (5000, -40)]))]
    if channels > 1 { data.append(("right", tones([(200, -20)]))) }
    var plot = SpectrumPlot(title: "test.wav · 0.00–1.00 s", frequencies: frequencies, channels: data)
    plot.ceiling = 0
    plot.peaks = [SpectralPeak(channel: 0, bin: 43, frequency: 1000, level: -6, note: MusicalNote.nearest(to: 1000))]
    return plot
}
