#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open audio file: its format, its tags, and Float frames for any frame range.
///
/// Regular files are read through a `CachedFile` (DispatchIO reader plus byte-range cache), so
/// reading frames near the end of a 5 GB file touches only the blocks near them. Uncompressed PCM
/// in WAV, RF64, Wave64 and AIFF is converted directly (bit-identical to libsndfile, and faster);
/// everything else libsndfile reads — FLAC, Ogg Vorbis, Opus, CAF, MP3, … — is decoded by libsndfile
/// through virtual I/O. Standard input (`-`) and named pipes are streamed: read once, front to back.
///
/// One `AudioFile` serves one thread at a time; `reopened()` gives another decoder over the same
/// cached bytes for a parallel worker.
public final class AudioFile {
    /// Which decoder to use for the samples.
    public enum Decoding: Sendable {
        /// Direct PCM conversion where the file allows it, libsndfile otherwise.
        case automatic
        /// Always libsndfile.
        case libsndfile
        /// Direct PCM conversion, or an error when the file is not plain PCM in WAV/RF64/W64/AIFF.
        case directPCM
    }

    /// The path as the user named it (`-` for standard input).
    public let path: String
    public let format: AudioFormat
    public let metadata: [MetadataEntry]
    /// The cached bytes of a regular file; nil for a stream.
    public let source: CachedFile?
    /// True when samples are converted by the direct PCM decoder rather than libsndfile.
    public let usesDirectPCM: Bool
    /// The frame the next `read` starts at.
    public private(set) var position: Int64 = 0

    private let decoder: FrameDecoder
    private let layout: PCMLayout?
    /// A named pipe's descriptor, which this file opened and must close.
    private let ownedDescriptor: Int32?

    /// Opens `path`: a regular file, `-` for standard input, or a named pipe.
    public static func open(_ path: String, decoding: Decoding = .automatic,
                            cacheBytes: Int = CachedFile.defaultCacheBytes) throws(SignalPathError) -> AudioFile {
        if path == "-" {
            var status = stat()
            if fstat(STDIN_FILENO, &status) == 0 && status.st_mode & S_IFMT == S_IFREG {
                // Redirected from a file: it can be read at random like any other.
                let reader = try FileReader(path: "/dev/stdin", displayPath: path)
                return try AudioFile(file: CachedFile(reader: reader, cache: FileMemoryCache(byteLimit: cacheBytes)),
                                     decoding: decoding)
            }
            return try AudioFile(streamPath: path, descriptor: STDIN_FILENO, owned: false)
        }
        do {
            return try AudioFile(file: CachedFile(path: path, cacheBytes: cacheBytes), decoding: decoding)
        } catch .notRegularFile(_, kind: "FIFO") {
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw SignalPathError.fromErrno(errno, path: path) }
            return try AudioFile(streamPath: path, descriptor: descriptor, owned: true)
        }
    }

    /// Opens the audio in `file`.
    public init(file: CachedFile, decoding: Decoding = .automatic) throws(SignalPathError) {
        let sndFile = try SndFile(cursor: FileCursor(file: file), path: file.path)
        path = file.path
        format = sndFile.format
        metadata = sndFile.metadata
        source = file
        ownedDescriptor = nil
        let layout = decoding == .libsndfile ? nil : try AudioFile.directLayout(file: file, agreeingWith: sndFile.format)
        if decoding == .directPCM && layout == nil {
            throw SignalPathError.invalidRequest(path: path, reason: "not plain PCM in WAV, RF64, Wave64 or AIFF")
        }
        self.layout = layout
        if let layout {
            decoder = PCMDecoder(layout: layout, file: file)
            usesDirectPCM = true
        } else {
            decoder = sndFile
            usesDirectPCM = false
        }
    }

    private init(streamPath: String, descriptor: Int32, owned: Bool) throws(SignalPathError) {
        let sndFile: SndFile
        do {
            sndFile = try SndFile(streamDescriptor: descriptor, path: streamPath)
        } catch {
            if owned { close(descriptor) }
            throw error
        }
        path = streamPath
        format = sndFile.format
        metadata = sndFile.metadata
        source = nil
        layout = nil
        decoder = sndFile
        usesDirectPCM = false
        ownedDescriptor = owned ? descriptor : nil
    }

    private init(sharing other: AudioFile, file: CachedFile) throws(SignalPathError) {
        path = other.path
        format = other.format
        metadata = other.metadata
        source = file
        layout = other.layout
        usesDirectPCM = other.usesDirectPCM
        ownedDescriptor = nil
        if let layout {
            decoder = PCMDecoder(layout: layout, file: file)
        } else {
            decoder = try SndFile(cursor: FileCursor(file: file), path: file.path)
        }
    }

    deinit {
        if let ownedDescriptor { close(ownedDescriptor) }
    }

    /// True for regular files; false for streams, which can only move forwards.
    public var isSeekable: Bool { source != nil }

    /// Another decoder over the same cached bytes, positioned at frame 0, for use on another thread.
    public func reopened() throws(SignalPathError) -> AudioFile {
        guard let source else { throw SignalPathError.notSeekable(path: path) }
        return try AudioFile(sharing: self, file: source)
    }

    /// Moves to `frame` for the next read. Streams move forwards only (by decoding and discarding).
    public func seek(toFrame frame: Int64) throws(SignalPathError) {
        if let frames = format.frames, frame < 0 || frame > frames {
            throw SignalPathError.invalidRequest(path: path, reason: "frame \(frame) is outside the file's \(frames) frames")
        }
        if isSeekable {
            try decoder.seek(toFrame: frame)
            position = frame
            return
        }
        guard frame >= position else { throw SignalPathError.notSeekable(path: path) }
        var discard = [Float](repeating: 0, count: 4096 * format.channels)
        while position < frame {
            if try read(into: &discard, frames: Int(min(4096, frame - position))) == 0 { break }
        }
    }

    /// Decodes up to `frames` interleaved frames into the start of `buffer` (at least
    /// `frames × channels` samples); returns how many were decoded, 0 at the end of the file.
    public func read(into buffer: inout [Float], frames: Int) throws(SignalPathError) -> Int {
        let count = try decoder.read(into: &buffer, frames: frames)
        position += Int64(count)
        return count
    }

    /// The interleaved samples of `range` (fewer frames if the file ends first).
    public func readFrames(_ range: Range<Int64>) throws(SignalPathError) -> [Float] {
        try seek(toFrame: range.lowerBound)
        let channels = format.channels
        var samples: [Float] = []
        samples.reserveCapacity(range.count * channels)
        var block = [Float](repeating: 0, count: min(range.count, 65536) * channels)
        while samples.count < range.count * channels {
            let count = try read(into: &block, frames: min(65536, range.count - samples.count / channels))
            if count == 0 { break }
            samples.append(contentsOf: block[0..<count * channels])
        }
        return samples
    }

    /// The layout for direct PCM decoding, when the header parses and agrees with libsndfile.
    private static func directLayout(file: CachedFile, agreeingWith format: AudioFormat) throws(SignalPathError) -> PCMLayout? {
        guard [.wav, .wavex, .rf64, .w64, .aiff].contains(format.container),
              let layout = try PCMLayout.parse(file) else { return nil }
        let agrees = layout.channels == format.channels && layout.sampleRate == format.sampleRate
            && layout.frames == format.frames && layout.encoding.sampleFormat == format.sampleFormat
        return agrees ? layout : nil
    }
}
