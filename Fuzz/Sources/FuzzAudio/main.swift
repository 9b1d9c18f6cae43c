// Arbitrary bytes opened as audio and read: the header parsers (signalpath's own for PCM, and
// libsndfile's through virtual I/O), the decoders, level statistics and a spectrum segment.
import Glibc
import SignalPathKit

nonisolated(unsafe) private var scratchPath: String?

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
    do throws(SignalPathError) {
        let file = try AudioFile.open(path)
        _ = try FileInfo(file: file).jsonMembers
        let reader = try file.makeReader()
        let channels = file.format.channels
        guard channels > 0, channels <= 4096 else { return 0 }
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
        let transform = SegmentTransform(fftSize: 256, window: WindowTable.shared(.hann, size: 256))
        var segment = [Float](repeating: 0, count: 256)
        for index in 0..<min(256, buffer.count / channels) { segment[index] = buffer[index * channels] }
        segment.withUnsafeBufferPointer { transform.transform($0, firstFrame: 0, channels: 1, channel: 0) }
    } catch {
        // Refusing bad input with a typed error is the expected outcome.
    }
    return 0
}
