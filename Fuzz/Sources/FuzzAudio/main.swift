// Arbitrary bytes opened as audio and taken through every command's pipeline: the header parsers
// (signalpath's own for PCM, and libsndfile's through virtual I/O), the decoders, `analyze`
// (SignalAnalyzer, whole and a range), `spectrum` (SpectrumAnalyzer and its report), `spectrogram`
// (SpectrogramAnalyzer, per segment and in columns) and `replay` (ReplayPlayer frames), and the
// JSON and text each writes. Inputs are small (`-max_len`), and frame counts and FFT sizes are
// capped so that an iteration stays in milliseconds whatever the header claims.
import Dispatch
import Glibc
import SignalPathKit

nonisolated(unsafe) private var scratchPath: String?

/// Frames analysed at most per pipeline: a header may claim billions.
private let frameCap: Int64 = 1 << 11

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudio(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // A file in memory-backed /dev/shm: the reader opens paths.
    let path =
        scratchPath
        ?? {
            let made = "/dev/shm/signalpath-fuzz-\(getpid()).wav"
            scratchPath = made
            return made
        }()
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return 0 }
    _ = write(descriptor, data, size)
    close(descriptor)
    // Each stage on its own: a typed error in one (a range too short for it, say) must not hide the others.
    guard let file = try? AudioFile.open(path) else { return 0 }
    let channels = file.format.channels
    guard channels > 0, channels <= 64 else { return 0 }
    try? decode(file)
    if let info = try? FileInfo(file: file) {
        _ = info.json.serialized(pretty: true)
        _ = info.text
    }
    let total = file.format.frames.map { min($0, frameCap) } ?? frameCap
    guard total > 0 else { return 0 }
    try? analyze(file, frames: 0..<total)
    if total > 3 { try? analyze(file, frames: total / 3..<2 * total / 3) }
    try? spectrum(file, frames: 0..<total)
    try? spectrogram(file, frames: 0..<total, columns: nil)
    try? spectrogram(file, frames: 0..<total, columns: 7)
    try? replay(path)
    return 0
}

/// Reads from the start and from the middle, as `info` and the readers do.
private func decode(_ file: AudioFile) throws(SignalPathError) {
    let reader = try file.makeReader()
    let channels = file.format.channels
    var buffer = [Float](repeating: 0, count: 512 * channels)
    var statistics = LevelStatistics()
    let rules = LevelStatistics.Rules(fullScale: 1, silenceThreshold: 0.001)
    for _ in 0..<8 {
        let frames = try reader.read(into: &buffer, frames: 512)
        if frames == 0 { break }
        buffer.withUnsafeBufferPointer { _ = statistics.accumulate(UnsafeBufferPointer(rebasing: $0[0..<frames * channels]), firstFrame: 0, rules: rules) }
    }
    if let frames = file.format.frames, frames > 4 {
        try reader.seek(toFrame: frames / 2)
        _ = try reader.read(into: &buffer, frames: 64)
    }
}

private func analyze(_ file: AudioFile, frames: Range<Int64>) throws(SignalPathError) {
    var settings = AnalysisSettings()
    settings.spectrum.fftSize = 256
    settings.spectrum.windowSize = 256
    let analyzer = SignalAnalyzer(file: file, frames: frames, settings: settings)
    let analysis = try blocking { () async throws(SignalPathError) in try await analyzer.run(workers: 2) }
    _ = JSONValue.object(analysis.jsonMembers).serialized(pretty: true)
    _ = analysis.text
    var table = DelimitedText(.csv)
    analysis.appendRows(to: &table)
}

private func spectrum(_ file: AudioFile, frames: Range<Int64>) throws(SignalPathError) {
    let analyzer = try SpectrumAnalyzer(
        file: file, frames: frames, channels: .all, parameters: SpectrumParameters(fftSize: 256, window: .hann, overlap: 0.5))
    let power = try blocking { () async throws(SignalPathError) in try await analyzer.run(workers: 2) }
    var presentation = SpectrumPresentation()
    presentation.peakCount = 3
    _ = SpectrumReport(spectrum: power, presentation: presentation).jsonMembers
    presentation.bands = 3
    presentation.weighting = .a
    let bands = SpectrumReport(spectrum: power, presentation: presentation)
    _ = JSONValue.object(bands.jsonMembers).serialized()
    _ = bands.text
}

private func spectrogram(_ file: AudioFile, frames: Range<Int64>, columns: Int?) throws(SignalPathError) {
    let analyzer = try SpectrogramAnalyzer(
        file: file, frames: frames, channels: .all, parameters: SpectrumParameters(fftSize: 64, window: .hann, overlap: 0.5),
        columns: columns)
    try analyzer.run { frame throws(SignalPathError) in
        _ = analyzer.jsonFrames(frame)
        _ = analyzer.spectrum(of: frame).values(in: .dbfs)
    }
}

/// A few frames of `replay`: from the start, the middle, past the end, and backwards.
private func replay(_ path: String) throws(SignalPathError) {
    let player = try ReplayPlayer(path: path, fftSize: 256, bands: nil)
    let duration = player.duration.isFinite ? player.duration : 0
    var previous = 0.0
    for time in [0, duration / 2, duration, duration * 2 + 1, duration / 3] {
        _ = try player.frame(at: time, previous: previous).jsonLine()
        previous = time
    }
    let banded = try ReplayPlayer(path: path, fftSize: 128, bands: 3)
    _ = try banded.frame(at: duration / 2, previous: 0).csvFields()
}

/// Runs async library code to completion from the fuzzer's synchronous entry point (a thread of
/// its own, not the cooperative pool, so waiting here cannot starve the tasks).
private func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws(SignalPathError) -> T) throws(SignalPathError) -> T {
    let outcome = Outcome<T>()
    Task {
        do throws(SignalPathError) {
            outcome.result = .success(try await body())
        } catch {
            outcome.result = .failure(error)
        }
        outcome.done.signal()
    }
    outcome.done.wait()
    return try outcome.result!.get()
}

/// Unchecked Sendable: written once by the task, read after the semaphore orders the two.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    var result: Result<T, SignalPathError>?
    let done = DispatchSemaphore(value: 0)
}
