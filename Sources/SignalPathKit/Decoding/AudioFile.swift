/// An opened audio file: its format and tags, and the means to decode it (`makeReader()`).
///
/// Regular files are read through a `CachedFile` (DispatchIO reader plus byte-range cache), so
/// decoding frames near the end of a 5 GB file touches only the blocks near them. Uncompressed PCM
/// in WAV, RF64, Wave64 and AIFF is converted directly (bit-identical to libsndfile, and faster);
/// everything else libsndfile reads (FLAC, Ogg Vorbis, Opus, CAF, MP3, …) is decoded by libsndfile
/// through virtual I/O; what libsndfile does not read (MP4/M4A, Matroska, WebM, AC-3, WMA, the
/// soundtrack of a video) by FFmpeg's libraries, through the same cache (`FFmpeg`). Standard input
/// (`-`) and named pipes are streamed: read once, front to back (compressed ones are spooled).
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
    /// True when samples are decoded by FFmpeg's libraries.
    public var usesFFmpeg: Bool { ffmpegFacts != nil }
    /// Every audio stream of the file (one, unless FFmpeg reads a container with several).
    public let streams: [AudioStream]
    /// The stream the samples come from, a number among `streams`.
    public let streamNumber: Int
    /// True when the caller chose the stream (`--stream`), even the only one.
    public let streamChosen: Bool

    let layout: PCMLayout?
    /// What FFmpeg learned when opening (the length, the stream), for the file's readers.
    private let ffmpegFacts: FFmpeg.Facts?
    /// The decoded stream's coded bytes, as FFmpeg found them when opening (`AudioFile.bitRate()`).
    let ffmpegCodedBytes: Int64?
    /// The opening FFmpeg decoder, going on front to back for every reader (`SharedDecode`).
    private let sharedDecode: SharedDecode?
    /// A stream's only decoder, handed to the first reader.
    private let streamDecoder: StreamDecoderHandOff?
    /// A named pipe's descriptor, opened here and closed with the file.
    private let ownedDescriptor: Int32?

    /// How long a named pipe may stay silent before opening gives up.
    public static let pipeWriterTimeout = 10.0

    /// Opens `path`: a regular file, `-` for standard input, or a named pipe.
    /// `stream` picks an audio stream of a file with several (0, the first, when nil).
    public static func open(
        _ path: String, decoding: Decoding = .automatic, stream: Int? = nil,
        cacheBytes: Int = CachedFile.defaultCacheBytes
    ) throws(SignalPathError) -> AudioFile {
        if path == "-" {
            var status = stat()
            if fstat(STDIN_FILENO, &status) == 0 && status.st_mode & S_IFMT == S_IFREG {
                // Redirected from a file: it can be read at random like any other.
                let reader = try FileReader(path: "/dev/stdin", displayPath: path)
                return try AudioFile(
                    file: CachedFile(reader: reader, cache: FileMemoryCache(byteLimit: cacheBytes)),
                    decoding: decoding, stream: stream)
            }
            return try openStream(path: path, descriptor: STDIN_FILENO, owned: false, decoding: decoding, stream: stream)
        }
        // A named pipe is opened once, as a stream: opening it as a file first (and closing it on
        // finding a FIFO) leaves a moment with no reader, in which a writer that has started gets
        // EPIPE (seen under AddressSanitizer's slowdown).
        var status = stat()
        if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO {
            return try openPipe(path, decoding: decoding, stream: stream)
        }
        do {
            return try AudioFile(file: CachedFile(path: path, cacheBytes: cacheBytes), decoding: decoding, stream: stream)
        } catch .notRegularFile(_, kind: "FIFO") {
            return try openPipe(path, decoding: decoding, stream: stream)  // a pipe swapped in after the check
        }
    }

    /// As `open`, for async callers: a regular file's first bytes — all of it when it fits in half
    /// the cache — are brought in first with `CachedFile.load`, which suspends, because opening
    /// parses headers (and libsndfile decodes FLAC, Ogg, MP3) through reads that block while they
    /// wait for DispatchIO. Blocking holds one of the cooperative pool's threads; with every thread
    /// waiting, the reads' completions wait for libdispatch to add one (`scan` of 500 links to a
    /// 0.1 s WAV: 1.4 s with `--jobs 2` opening directly, 0.54 s with `--jobs 1`, 0.33 s with
    /// `--jobs 2` loading first). Of a large file only the head is read (`CachedFile.head()`), so
    /// that a range deep into it reads little more than the range. Standard input and named pipes
    /// open as `open` does.
    public static func load(_ path: String, decoding: Decoding = .automatic, stream: Int? = nil) async throws(SignalPathError) -> AudioFile {
        var status = stat()
        guard path != "-", stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return try open(path, decoding: decoding, stream: stream)
        }
        let file: CachedFile
        do {
            file = try CachedFile(path: path)
        } catch .notRegularFile(_, kind: "FIFO") {
            return try open(path, decoding: decoding, stream: stream)  // a pipe swapped in after the check
        }
        if file.size <= Int64(CachedFile.defaultCacheBytes / 2) {
            try await file.load(0..<file.size)
        } else {
            try await file.loadHead()
        }
        return try AudioFile(file: file, decoding: decoding, stream: stream)
    }

    /// A named pipe: opened without blocking, then given `pipeWriterTimeout` for a writer to send
    /// something — a pipe nobody writes to is reported, not waited on for ever.
    private static func openPipe(_ path: String, decoding: Decoding, stream: Int?) throws(SignalPathError) -> AudioFile {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw SignalPathError.fromErrno(errno, path: path) }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, Int32(pipeWriterTimeout * 1000)) > 0 else {
            Glibc.close(descriptor)
            throw SignalPathError.unavailable(path: path, reason: "nothing was written to the named pipe within \(Int(pipeWriterTimeout)) s")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return try openStream(path: path, descriptor: descriptor, owned: true, decoding: decoding, stream: stream)
    }

    /// Opens the audio in `file`: its audio stream `stream` (0 when nil).
    public init(file: CachedFile, decoding: Decoding = .automatic, stream: Int? = nil) throws(SignalPathError) {
        // Opening reads headers only: no read-ahead, and the head (`CachedFile.head()`) rather than
        // block 0, so `info` on a huge file reads 128 KiB unless its headers reach further.
        // signalpath's own parser reads WAV, RF64, Wave64 and AIFF headers first, whatever the
        // encoding and decoder, so that a rate or channel count that is not usable is refused the
        // same way on every path (libsndfile would read an AIFF rate of 0 Hz as 1 Hz).
        let header = try PCMLayout.parseHeader(FileCursor(file: file, readAheadBlocks: 0, startsWithHead: true), size: file.size, path: file.path)
        path = file.path
        source = file
        streamDecoder = nil
        ownedDescriptor = nil
        streamChosen = stream != nil
        if decoding != .libsndfile, let layout = header?.layout, layout.writerPlaceholder || layout.holdsNothingElse {
            // Read by this parser alone. An RF64 that `record` (libsndfile) is still writing, or
            // that was killed while it was: libsndfile refuses its all-ones ds64 size ("Unspecified
            // internal error"), a pipe reads it to its end, and so does this, so that files and
            // pipes agree. Plain PCM in a WAV or RF64 of nothing but its format and samples:
            // libsndfile would read what this parser read and no tags, so it is not loaded (with
            // its codec libraries, 0.56 ms of a start; Decoding/SndFile.swift).
            try Self.refuseStream(stream, path: file.path)
            let stated = layout.format(frames: layout.frames)
            format = stated
            metadata = layout.metadata
            self.layout = layout
            streams = [Self.describe(stated, number: 0, as: nil)]
            streamNumber = 0
            ffmpegFacts = nil
            ffmpegCodedBytes = nil
            sharedDecode = nil
            return
        }
        let probe: SndFile, mpegSamples: Int64?
        switch try Self.openDecoder(file, decoding: decoding, stream: stream) {
        case .libsndfile(let opened, let counted):
            (probe, mpegSamples) = (opened, counted)
        case .ffmpeg(let decoder):
            format = decoder.format
            metadata = decoder.metadata
            streams = decoder.streams.map { $0.number == decoder.streamNumber ? Self.describe(decoder.format, number: $0.number, as: $0) : $0 }
            streamNumber = decoder.streamNumber
            ffmpegFacts = decoder.facts
            ffmpegCodedBytes = decoder.codedBytes
            sharedDecode = SharedDecode(decoder: decoder)
            layout = nil
            return
        }
        try Self.refuseStream(stream, path: file.path)
        var format = probe.format
        if let mpegSamples { format.frames = mpegSamples }
        if let header, Self.parsedContainers.contains(format.container) {
            // The header's own rate: libsndfile reads AIFF rates of 2³⁰ Hz and more as 800 000 000.
            format.sampleRate = header.sampleRate
            if let promised = header.layout?.framesPromised, let frames = format.frames, promised > frames {
                format.framesPromised = promised
            }
        }
        if format.container == .flac, let frames = format.frames, let present = Self.decodableFrames(of: file, promised: frames) {
            format.frames = present
            format.framesPromised = frames
        }
        let layout = decoding == .libsndfile ? nil : header?.layout.flatMap { Self.agreeing($0, with: format) }
        // The channel mask as the WAVE specification reads it, also where libsndfile skips reserved bits.
        if let stated = layout?.channelLayout { format.channelLayout = stated }
        self.format = format
        self.layout = layout
        metadata = probe.metadata
        streams = [Self.describe(format, number: 0, as: nil)]
        streamNumber = 0
        ffmpegFacts = nil
        ffmpegCodedBytes = nil
        sharedDecode = nil
        if decoding == .directPCM && layout == nil {
            throw SignalPathError.invalidRequest(path: path, reason: "not plain PCM in WAV, RF64, Wave64 or AIFF")
        }
    }

    /// The frames a FLAC file holds when it is cut short of the count its STREAMINFO promises
    /// (libsndfile reports that count, and decoding then fails at the cut with "lost sync"); nil
    /// when the last promised frame decodes. Found by bisection on the frames where a seek and a
    /// one-frame read still succeed: at the first frame of the FLAC frame that the cut broke. Only
    /// FLAC: libsndfile's counts for Ogg and PCM come from what the file holds, and MP3's is an
    /// estimate that a seek to its end need not meet.
    private static func decodableFrames(of file: CachedFile, promised: Int64) -> Int64? {
        func decodes(_ frame: Int64) -> Bool {
            // A fresh decoder for each probe: libFLAC keeps no usable state after a failed seek.
            guard let probe = try? SndFile(cursor: FileCursor(file: file, readAheadBlocks: 0), path: file.path),
                probe.seek(toFrame: frame)
            else { return false }
            var samples = [Float](repeating: 0, count: probe.format.channels)
            return samples.withUnsafeMutableBufferPointer { (try? probe.read(into: $0, frames: 1)) == 1 }
        }
        guard promised > 0, !decodes(promised - 1) else { return nil }
        // Frames before `present` decode; frame `missing` does not.
        var present: Int64 = 0, missing = promised - 1
        while present < missing {
            let middle = present + (missing - present) / 2
            if decodes(middle) { present = middle + 1 } else { missing = middle }
        }
        return present
    }

    /// `--stream` on a file with one audio stream: only 0 is there.
    private static func refuseStream(_ stream: Int?, path: String) throws(SignalPathError) {
        if let stream, stream != 0 {
            throw SignalPathError.invalidRequest(
                path: path, reason: "there is no audio stream \(stream) (--stream counts audio streams from 0): the file has one audio stream (0)")
        }
    }

    /// The decoder of a file that the PCM parser does not read alone.
    private enum OpenedDecoder {
        /// libsndfile, with an MP3's counted samples where its own count is an estimate past them.
        case libsndfile(SndFile, mpegSamples: Int64?)
        case ffmpeg(FFmpeg)
    }

    /// libsndfile, or FFmpeg where libsndfile refuses the file (not an empty one: nothing reads
    /// that) or would stop short of an MP3's end: without an encoder's table its count is an
    /// estimate, and it decodes no further (docs/DECISIONS.md#mpeg-frame-count).
    private static func openDecoder(_ file: CachedFile, decoding: Decoding, stream: Int?) throws(SignalPathError) -> OpenedDecoder {
        let probe: SndFile
        do {
            probe = try SndFile(cursor: FileCursor(file: file, readAheadBlocks: 0, startsWithHead: true), path: file.path)
        } catch {
            guard case .unrecognizedFormat = error, decoding == .automatic, file.size > 0 else { throw error }
            return .ffmpeg(try openFFmpeg(file, stream: stream, libsndfileError: error))
        }
        guard probe.format.container == .mpeg, decoding == .automatic, let estimate = probe.format.frames,
            let counted = CompressedLayout.untabledMPEGSamples(FileCursor(file: file, readAheadBlocks: 0, startsWithHead: true), size: file.size),
            counted != estimate
        else { return .libsndfile(probe, mpegSamples: nil) }
        // Where FFmpeg cannot take it (a damaged stretch it will not decode), libsndfile's estimate stands.
        if counted > estimate, FFmpegAPI.isAvailable, let decoder = try? FFmpeg(cursor: FileCursor(file: file), path: file.path, stream: stream) {
            return .ffmpeg(decoder)
        }
        return .libsndfile(probe, mpegSamples: min(counted, estimate))
    }

    /// FFmpeg's decoder for a file libsndfile refused with `libsndfileError`. Where FFmpeg cannot
    /// open it either, the file is not recognised as libsndfile said (which names what it looks
    /// like, as MIDI or an image), or, when it looks like a container FFmpeg reads, it is damaged:
    /// an MP4 whose `moov` is missing or cut.
    private static func openFFmpeg(_ file: CachedFile, stream: Int?, libsndfileError: SignalPathError) throws(SignalPathError) -> FFmpeg {
        guard FFmpegAPI.isAvailable else { throw libsndfileError }
        do {
            return try FFmpeg(cursor: FileCursor(file: file), path: file.path, stream: stream)
        } catch .unrecognizedFormat(_, let reason) where reason.hasPrefix(FFmpeg.cannotOpen) {
            let cursor = FileCursor(file: file, readAheadBlocks: 0)
            var leading = [UInt8](repeating: 0, count: ForeignFormat.prefixLength)
            let count = leading.withUnsafeMutableBytes { cursor.read(into: $0) }
            guard let foreign = ForeignFormat.sniff(Array(leading.prefix(count))), foreign.isSound else { throw libsndfileError }
            throw SignalPathError.malformed(path: file.path, reason: "looks like \(foreign.name), but \(reason)")
        }
    }

    /// The stream list's entry for the stream decoded as `format`: its exact length and layout.
    private static func describe(_ format: AudioFormat, number: Int, as stated: AudioStream?) -> AudioStream {
        AudioStream(
            number: number, codec: stated?.codec ?? format.sampleFormat.identifier, sampleRate: format.sampleRate, channels: format.channels,
            channelLayout: format.channelLayout, duration: format.duration, language: stated?.language, title: stated?.title,
            bitRate: stated?.bitRate)
    }

    /// The containers whose headers `PCMLayout` reads.
    private static let parsedContainers: Set<Container> = [.wav, .wavex, .rf64, .w64, .aiff]

    /// Opens a stream: uncompressed PCM is decoded as it arrives; anything else is spooled to a
    /// temporary file first, because libsndfile seeks inside it while opening.
    private static func openStream(
        path: String, descriptor: Int32, owned: Bool,
        decoding: Decoding, stream: Int?
    ) throws(SignalPathError) -> AudioFile {
        let cursor = StreamCursor(descriptor: descriptor, path: path)
        do throws(SignalPathError) {
            if decoding != .libsndfile, let layout = try PCMLayout.parse(cursor, size: nil, path: path) {
                if let stream, stream != 0 {
                    throw SignalPathError.invalidRequest(
                        path: path, reason: "there is no audio stream \(stream) (--stream counts audio streams from 0): the input has one audio stream (0)")
                }
                cursor.stopRetaining()
                return AudioFile(
                    streamPath: path, layout: layout, cursor: cursor, ownedDescriptor: owned ? descriptor : nil, streamChosen: stream != nil)
            }
            let spooled = try StreamSpool.spool(cursor)
            if owned { close(descriptor) }
            return try AudioFile(file: CachedFile(reader: spooled), decoding: decoding, stream: stream)
        } catch {
            if owned { close(descriptor) }
            throw error
        }
    }

    private init(streamPath: String, layout: PCMLayout, cursor: StreamCursor, ownedDescriptor: Int32?, streamChosen: Bool) {
        path = streamPath
        self.streamChosen = streamChosen
        // A stream's length is known only once it has been read: its header may hold a placeholder
        // or promise more than arrives.
        format = layout.format(frames: nil)
        metadata = layout.metadata
        streams = [Self.describe(format, number: 0, as: nil)]
        streamNumber = 0
        ffmpegFacts = nil
        ffmpegCodedBytes = nil
        sharedDecode = nil
        source = nil
        self.layout = layout
        self.ownedDescriptor = ownedDescriptor
        streamDecoder = StreamDecoderHandOff(PCMDecoder(layout: layout, cursor: cursor, path: streamPath))
    }

    deinit {
        if let ownedDescriptor { close(ownedDescriptor) }
    }

    /// The stream that reports name beside the path: the decoded one when the file has more than
    /// one audio stream or the caller chose it; nil otherwise, so that the reports of a file of one
    /// stream (a WAV, an MP3) name the file alone, as they always have.
    public var namedStream: AudioStream? {
        guard streams.count > 1 || streamChosen else { return nil }
        return streams.first { $0.number == streamNumber }
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
        if let layout {
            return AudioReader(file: self, decoder: PCMDecoder(layout: layout, cursor: FileCursor(file: source), path: path))
        }
        if let ffmpegFacts, let sharedDecode {
            let path = path, stream = streamNumber, format = format
            return AudioReader(
                file: self,
                decoder: SharedDecodeReader(shared: sharedDecode) { () throws(SignalPathError) -> FFmpeg in
                    try FFmpeg(cursor: FileCursor(file: source), path: path, stream: stream, known: (ffmpegFacts, format))
                })
        }
        return AudioReader(file: self, decoder: try SndFile(cursor: FileCursor(file: source), path: path))
    }

    /// The bytes that hold `frames`, for uncompressed PCM; nil where frames have no fixed place
    /// (compressed formats, streams).
    public func byteRange(ofFrames frames: Range<Int64>) -> Range<Int64>? {
        guard let layout, source != nil else { return nil }
        let perFrame = Int64(layout.bytesPerFrame)
        let end = min(frames.upperBound, layout.frames ?? frames.upperBound)
        guard end > frames.lowerBound else { return nil }
        return layout.dataOffset + frames.lowerBound * perFrame..<layout.dataOffset + end * perFrame
    }

    /// The interleaved samples of `range` (fewer frames if the file ends first), through a new reader.
    public func readFrames(_ range: Range<Int64>) throws(SignalPathError) -> [Float] {
        try makeReader().readFrames(range)
    }

    /// `layout`, for direct PCM decoding, when it agrees with what libsndfile read from the same
    /// header; nil otherwise, so a header this parser misreads falls back to libsndfile.
    private static func agreeing(_ layout: PCMLayout, with format: AudioFormat) -> PCMLayout? {
        guard parsedContainers.contains(format.container) else { return nil }
        let agrees =
            layout.channels == format.channels && layout.sampleRate == format.sampleRate
            && layout.frames == format.frames && layout.encoding.sampleFormat == format.sampleFormat
        return agrees ? layout : nil
    }
}

/// Holds a stream's decoder until one reader takes it.
private final class StreamDecoderHandOff: @unchecked Sendable {
    // @unchecked: the decoder is touched only under the lock, and leaves it exactly once.
    private let lock = Lock()
    private var decoder: FrameDecoder?

    init(_ decoder: FrameDecoder) {
        self.decoder = decoder
    }

    func take() -> FrameDecoder? {
        lock.withLock {
            defer { decoder = nil }
            return decoder
        }
    }
}
