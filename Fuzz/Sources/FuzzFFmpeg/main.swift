// Arbitrary bytes through the FFmpeg backend: seeded with MP4, Matroska, WebM, ASF, AC-3 and ADTS
// files that ffmpeg encodes (`make fuzz`), whose mutations libsndfile refuses and FFmpeg's
// demuxers then parse through signalpath's AVIOContext callbacks. Each input is opened, described
// (`info`'s JSON and text, every stream), read from the start and from the middle (a seek), and
// opened again with its second audio stream. Frames read are capped: a header may claim hours.
import Glibc
import SignalPathKit

nonisolated(unsafe) private var scratchPath: String?

/// Frames read at most per pass.
private let frameCap: Int64 = 1 << 13

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFFmpeg(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path =
        scratchPath
        ?? {
            let made = "/dev/shm/signalpath-fuzz-ffmpeg-\(getpid()).bin"
            scratchPath = made
            return made
        }()
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return 0 }
    _ = write(descriptor, data, size)
    close(descriptor)
    for stream in [nil, 1] {
        guard let file = try? AudioFile.open(path, stream: stream) else { continue }
        if let info = try? FileInfo(file: file) {
            _ = info.json.serialized(pretty: true)
            _ = info.text
        }
        let frames = file.format.frames.map { min($0, frameCap) } ?? frameCap
        _ = try? file.readFrames(0..<frames)
        if let total = file.format.frames, total > 8 {
            _ = try? file.readFrames(total / 2..<min(total, total / 2 + 512))
        }
    }
    return 0
}
