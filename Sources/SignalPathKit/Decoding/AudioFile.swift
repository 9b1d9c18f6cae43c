#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An opened audio file: its format and tags, and the means to decode it (`makeReader()`).
///
/// Regular files are read through a `CachedFile` (DispatchIO reader plus byte-range cache), so
/// decoding frames near the end of a 5 GB file touches only the blocks near them. Uncompressed PCM
/// in WAV, RF64, Wave64 and AIFF is converted directly (bit-identical to libsndfile, and faster);
/// everything else libsndfile reads (FLAC, Ogg Vorbis, Opus, CAF, MP3, …) is decoded by libsndfile
/// through virtual I/O. Standard input (`-`) and named pipes are streamed: read once, front to back.
///
/// Sendable: share one `AudioFile` between tasks and give each its own `AudioReader`; all readers
/// of a regular file share its cache.
public final class AudioFile: Sendable {
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
    public var usesDirectPCM: Bool { layout != nil }

    let layout: PCMLayout?
    /// A stream's only decoder, handed to the first reader.
    private let streamDecoder: StreamDecoderHandOff?

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
        let probe = try SndFile(cursor: FileCursor(file: file), path: file.path)
        path = file.path
        format = probe.format
        metadata = probe.metadata
        source = file
        streamDecoder = nil
        layout = decoding == .libsndfile ? nil : try AudioFile.directLayout(file: file, agreeingWith: probe.format)
        if decoding == .directPCM && layout == nil {
            throw SignalPathError.invalidRequest(path: path, reason: "not plain PCM in WAV, RF64, Wave64 or AIFF")
        }
    }

    private init(streamPath: String, descriptor: Int32, owned: Bool) throws(SignalPathError) {
        let sndFile: SndFile
        do {
            sndFile = try SndFile(streamDescriptor: descriptor, path: streamPath, ownsDescriptor: owned)
        } catch {
            if owned { close(descriptor) }
            throw error
        }
        path = streamPath
        format = sndFile.format
        metadata = sndFile.metadata
        source = nil
        layout = nil
        streamDecoder = StreamDecoderHandOff(sndFile)
    }

    /// True for regular files; false for streams, which are read once, forwards only.
    public var isSeekable: Bool { source != nil }

    /// A new decoder positioned at frame 0. A stream has exactly one; asking again is an error.
    public func makeReader() throws(SignalPathError) -> AudioReader {
        if let streamDecoder {
            guard let decoder = streamDecoder.take() else { throw SignalPathError.notSeekable(path: path) }
            return AudioReader(file: self, decoder: decoder)
        }
        guard let source else { throw SignalPathError.notSeekable(path: path) }
        if let layout { return AudioReader(file: self, decoder: PCMDecoder(layout: layout, file: source)) }
        return AudioReader(file: self, decoder: try SndFile(cursor: FileCursor(file: source), path: path))
    }

    /// The interleaved samples of `range` (fewer frames if the file ends first), through a new reader.
    public func readFrames(_ range: Range<Int64>) throws(SignalPathError) -> [Float] {
        try makeReader().readFrames(range)
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

/// Holds a stream's decoder until one reader takes it.
private final class StreamDecoderHandOff: @unchecked Sendable {
    // @unchecked: the decoder is touched only under the lock, and leaves it exactly once.
    private let lock = Lock()
    private var decoder: SndFile?

    init(_ decoder: SndFile) {
        self.decoder = decoder
    }

    func take() -> SndFile? {
        lock.withLock {
            defer { decoder = nil }
            return decoder
        }
    }
}
