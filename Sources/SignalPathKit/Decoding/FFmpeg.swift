import CFFmpeg

/// An open FFmpeg demuxer and decoder for one audio stream: the only Swift file that talks to
/// FFmpeg's libraries. It reads what libsndfile does not: AAC and ALAC in MP4/M4A/MOV, Matroska
/// and WebM, AC-3, E-AC-3, WMA, and the soundtrack of a video.
///
/// Bytes come through an `AVIOContext` whose read and seek callbacks are served by a `FileCursor`
/// over the file's `CachedFile`, as libsndfile's virtual I/O is; so a range near the end of a long
/// M4A reads its index and the blocks near the range. It owns every FFmpeg object it makes (freed
/// in `deinit`) and the cursor the callbacks read through; no C pointer leaves this file. Not
/// thread-safe: one decoder per thread.
///
/// Samples are those of `ffmpeg -i F -map 0:a:N -f f32le -`: the same library calls, the encoder
/// delay and padding trimmed by libavcodec and libavformat as for the CLI, and integer formats
/// scaled as libswresample scales them (s16 × 2⁻¹⁵, s32 × 2⁻³¹, u8 − 128 × 2⁻⁷).
final class FFmpeg {
    /// What the first decoder of a file learns, handed to later ones so they need not count again.
    struct Facts: Sendable {
        /// The stream's index among all of the container's streams.
        let streamIndex: Int32
        /// The decoded length.
        let frames: Int64
        /// The timestamp of frame 0, in the stream's time base.
        let startTimestamp: Int64
        /// True when frames can be found by the container's index and timestamps (see `seekable`).
        let seeksByIndex: Bool
    }

    let path: String
    private(set) var format: AudioFormat
    let metadata: [MetadataEntry]
    /// Every audio stream of the file.
    let streams: [AudioStream]
    /// The decoded stream's number among `streams`.
    let streamNumber: Int
    private(set) var facts: Facts
    /// The decoded stream's coded bytes where they are known without reading the file through
    /// (`codedBytes(of:…)`); nil for a decoder opened with `known` facts.
    private(set) var codedBytes: Int64?

    private let api: FFmpegAPI
    private let cursor: FileCursor
    private var session: Session
    /// The frame FFmpeg decoded last, and how many of its samples have been handed out.
    private let frame: UnsafeMutablePointer<AVFrame>
    private var frameUsed = 0
    private var frameHeld = false
    /// The frame index of the next sample `read` hands out.
    private var position: Int64 = 0
    /// After a seek: the frame to go to, found from the timestamps of the frames decoded next.
    private var seekTarget: Int64?

    /// Frames decoded (and dropped) before a seek's target, so that codecs whose output depends on
    /// earlier packets (AAC's overlapped MDCT, Vorbis, Opus's `seek_preroll`) are settled when the
    /// target's frame is decoded: 0.5 s, ≥ 20 AAC frames (one is enough for AAC-LC's overlap).
    private static let seekPrerollSeconds = 0.5
    /// How far before the stated end the length is counted from when opening.
    private static let endMarginSeconds = 4.0

    /// Opens the file seen through `cursor` and its audio stream `stream` (0 when nil), counting its
    /// frames; `known` (from an earlier decoder of the same file) spares the counting.
    init(cursor: FileCursor, path: String, stream: Int?, known: (facts: Facts, format: AudioFormat)? = nil) throws(SignalPathError) {
        api = try FFmpegAPI.loaded(path: path)
        self.cursor = cursor
        self.path = path
        session = try Session(api: api, cursor: cursor, path: path)
        let context = session.context
        let audio = (0..<Int(context.pointee.nb_streams)).filter { index in
            context.pointee.streams[index]!.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO
        }
        guard !audio.isEmpty else {
            let hasVideo = (0..<Int(context.pointee.nb_streams)).contains {
                context.pointee.streams[$0]!.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
            }
            throw SignalPathError.unrecognizedFormat(path: path, reason: hasVideo ? "no audio stream (video only)" : "no audio stream")
        }
        let number = stream ?? 0
        guard audio.indices.contains(number) else {
            let list = audio.count == 1 ? "one audio stream (0)" : "\(audio.count) audio streams (0 to \(audio.count - 1))"
            throw SignalPathError.invalidRequest(path: path, reason: "there is no audio stream \(number) (--stream counts audio streams from 0): the file has \(list)")
        }
        streamNumber = number
        let streamIndex = Int32(audio[number])
        let avStream = context.pointee.streams[Int(streamIndex)]!
        let api = api
        streams = audio.enumerated().map { number, index in Self.describe(context.pointee.streams[index]!, number: number, api: api, context: context) }
        metadata = Self.metadata(context.pointee.metadata, api: api)
        try session.openDecoder(streamIndex: streamIndex, path: path)
        guard let frame = api.av_frame_alloc() else { throw SignalPathError.malformed(path: path, reason: "out of memory") }
        self.frame = frame
        if let known {
            facts = known.facts
            format = known.format
            return
        }

        // The stream as decoded (AAC states its channels in the bitstream): from the first frame.
        let parameters = avStream.pointee.codecpar.pointee
        let first: (sampleRate: Int, channels: Int, layout: ChannelLayout?, timestamp: Int64?)?
        let rate: Int, channels: Int
        do throws(SignalPathError) {
            first = try Self.firstFrame(session: session, frame: frame, api: api, path: path)
            rate = try AudioFormat.usableSampleRate(Double(first?.sampleRate ?? Int(parameters.sample_rate)), path: path)
            channels = try AudioFormat.usableChannelCount(first?.channels ?? Int(parameters.ch_layout.nb_channels), path: path)
        } catch {
            // Thrown before every property is set, so deinit will not run: free the frame here
            // (`make fuzz` found the leak: a stream whose first frame does not decode).
            var frame: UnsafeMutablePointer<AVFrame>? = frame
            api.av_frame_free(&frame)
            throw error
        }
        let firstPacket = session.firstPacketPosition
        let sampleFormat = Self.sampleFormat(codec: api.codecName(parameters.codec_id), bits: Int(parameters.bits_per_raw_sample))
        format = AudioFormat(
            container: Self.container(context.pointee.iformat.pointee.name, cursor: cursor), sampleFormat: sampleFormat, sampleRate: rate,
            channels: channels, frames: nil, channelLayout: first?.layout ?? Self.channelLayout(parameters.ch_layout))
        let timeBase = avStream.pointee.time_base
        let demuxer = (context.pointee.iformat.pointee.name.map { String(cString: $0) } ?? "").split(separator: ",")
        // Timestamps find a frame exactly only when a tick is at most one sample, in a whole
        // number of ticks (MP4's 1/rate; not Matroska's or ASF's milliseconds), and the container
        // has an index to seek by (not a raw AC-3 or ADTS stream).
        let finePerSample = timeBase.num > 0 && Int64(timeBase.den) % (Int64(rate) * Int64(timeBase.num)) == 0
        let indexed =
            finePerSample && first?.timestamp != nil && Self.indexedDemuxers.contains { demuxer.contains(Substring($0)) }
            && Self.timestampsAreContiguous(avStream, rate: rate, api: api)
        facts = Facts(streamIndex: streamIndex, frames: Int64.max, startTimestamp: first?.timestamp ?? 0, seeksByIndex: Self.seeksByIndex && indexed)
        let stated = Self.statedDuration(avStream, context: context)
        // Before the count, which may open the file afresh and free `context` and its streams.
        codedBytes = Self.codedBytes(
            of: avStream, context: context, demuxer: demuxer, firstPacket: firstPacket, container: format.container, cursor: cursor, seconds: stated,
            api: api)
        let frames = try countFrames(stated: stated, fromEnd: indexed)
        facts = Facts(streamIndex: streamIndex, frames: frames, startTimestamp: facts.startTimestamp, seeksByIndex: facts.seeksByIndex)
        format.frames = frames
        try restart()
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = self.frame
        api.av_frame_free(&frame)
    }

    /// How an error from FFmpeg's opening of a file begins: no demuxer claimed it, or its header
    /// (an MP4's `moov`) could not be read.
    static let cannotOpen = "FFmpeg cannot open it"

    /// Seeks by the index decode from `seekPrerollSeconds` before the target. That gives the
    /// samples of a decode from the start bit for bit for codecs whose state is their recent
    /// packets (AAC without noise substitution: exact after 1 457 frames of preroll, measured), but
    /// not for AAC with PNS (ffmpeg's encoder uses it by default): its decoder draws the noise of
    /// substituted bands from a generator that a flush resets, so those bands get another draw of
    /// the same energy. So a seek decodes forward when the target is less than this far ahead, and
    /// a whole-file pass, whose workers skip each other's chunks of ~5 s, gets the samples of a
    /// decode from the start, identical for any number of workers up to 10 minutes' worth of
    /// chunks; a range further in is found by the index in time independent of its position.
    var forwardDecodeSeconds = 600.0
    static let seeksByIndex = true

    /// Demuxers whose index and timestamps a seek can trust.
    private static let indexedDemuxers = ["mov", "matroska", "ogg", "asf", "flac", "wav", "w64", "caf", "aiff", "wv", "ape"]

    // MARK: - Reading

    /// Decodes up to `frames` interleaved frames into the start of `buffer`; returns the number
    /// decoded, 0 at the end.
    func read(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) throws(SignalPathError) -> Int {
        let channels = format.channels
        precondition(buffer.count >= frames * channels)
        let wanted = Int(min(Int64(frames), max(0, facts.frames - position)))
        var done = 0
        while done < wanted {
            if !frameHeld {
                guard try decodeFrame() else { break }
            }
            let count = min(Int(frame.pointee.nb_samples) - frameUsed, wanted - done)
            Self.convert(frame, from: frameUsed, count: count, channels: channels, into: buffer.baseAddress! + done * channels)
            frameUsed += count
            done += count
            position += Int64(count)
            if frameUsed == Int(frame.pointee.nb_samples) { releaseFrame() }
        }
        return done
    }

    /// Moves to `frame` for the next `read`: by the container's index where its timestamps are exact
    /// (then the frames from `seekPrerollSeconds` before it are decoded and dropped), otherwise by
    /// decoding from the start or from the current position.
    func seek(toFrame target: Int64) throws(SignalPathError) {
        if target == position && seekTarget == nil { return }
        releaseFrame()
        let preroll = Int64(Self.seekPrerollSeconds * Double(format.sampleRate)) + Int64(session.seekPreroll)
        let ahead = target - position
        if facts.seeksByIndex, target > preroll, ahead < 0 || Double(ahead) > forwardDecodeSeconds * Double(format.sampleRate) {
            let from = max(0, target - preroll)
            try session.seek(to: timestamp(ofFrame: from), streamIndex: facts.streamIndex, path: path)
            seekTarget = target
            // The position `read` counts from: the frames decoded next are dropped up to it.
            position = target
            return
        }
        if target < position { try restart() }
        let discard = SampleScratch(count: 4096 * format.channels)
        while position < target {
            if try read(into: discard.samples, frames: Int(min(4096, target - position))) == 0 { break }
        }
    }

    private func restart() throws(SignalPathError) {
        releaseFrame()
        session = try Session(api: api, cursor: cursor, path: path)
        try session.openDecoder(streamIndex: facts.streamIndex, path: path)
        position = 0
        seekTarget = nil
    }

    private func releaseFrame() {
        if frameHeld { api.av_frame_unref(frame) }
        frameHeld = false
        frameUsed = 0
    }

    private func timestamp(ofFrame index: Int64) -> Int64 {
        facts.startTimestamp + api.av_rescale_q(index, AVRational(num: 1, den: Int32(format.sampleRate)), session.timeBase(facts.streamIndex))
    }

    private func frameIndex(ofTimestamp timestamp: Int64) -> Int64 {
        api.av_rescale_q(timestamp - facts.startTimestamp, session.timeBase(facts.streamIndex), AVRational(num: 1, den: Int32(format.sampleRate)))
    }

    /// Decodes the next frame into `frame`; false at the end. After a seek, skips to the target.
    private func decodeFrame() throws(SignalPathError) -> Bool {
        while try session.receive(into: frame, streamIndex: facts.streamIndex, path: path, cursor: cursor) {
            let samples = Int(frame.pointee.nb_samples)
            guard samples > 0 else {
                api.av_frame_unref(frame)
                continue
            }
            guard Int(frame.pointee.ch_layout.nb_channels) == format.channels, Int(frame.pointee.sample_rate) == format.sampleRate else {
                let change = "\(format.channels) channels at \(format.sampleRate) Hz, then \(frame.pointee.ch_layout.nb_channels) at \(frame.pointee.sample_rate) Hz"
                api.av_frame_unref(frame)
                throw SignalPathError.malformed(path: path, reason: "the stream changes format midway (\(change)); signalpath reads one format per file")
            }
            frameHeld = true
            frameUsed = 0
            guard let target = seekTarget else { return true }
            let stamp = frame.pointee.pts != SP_AV_NOPTS_VALUE ? frame.pointee.pts : frame.pointee.best_effort_timestamp
            guard stamp != SP_AV_NOPTS_VALUE else {
                // No timestamp to place the frame: decode from the start instead.
                facts = Facts(streamIndex: facts.streamIndex, frames: facts.frames, startTimestamp: facts.startTimestamp, seeksByIndex: false)
                try restart()
                try seek(toFrame: target)
                if frameHeld { return true }
                return try decodeFrame()
            }
            let start = frameIndex(ofTimestamp: stamp)
            if start > target {
                // The index led past the target (an inexact index): decode from the start.
                facts = Facts(streamIndex: facts.streamIndex, frames: facts.frames, startTimestamp: facts.startTimestamp, seeksByIndex: false)
                try restart()
                try seek(toFrame: target)
                if frameHeld { return true }
                return try decodeFrame()
            }
            if start + Int64(samples) <= target {
                releaseFrame()
                continue
            }
            frameUsed = Int(target - start)
            position = target
            seekTarget = nil
            return true
        }
        return false
    }

    // MARK: - Opening

    /// The first decoded frame's facts (nil for a stream with no frames at all).
    private static func firstFrame(
        session: Session, frame: UnsafeMutablePointer<AVFrame>, api: FFmpegAPI, path: String
    ) throws(SignalPathError) -> (sampleRate: Int, channels: Int, layout: ChannelLayout?, timestamp: Int64?)? {
        let streamIndex = session.streamIndex
        while try session.receive(into: frame, streamIndex: streamIndex, path: path, cursor: nil) {
            defer { api.av_frame_unref(frame) }
            guard frame.pointee.nb_samples > 0 else { continue }
            let stamp = frame.pointee.pts != SP_AV_NOPTS_VALUE ? frame.pointee.pts : frame.pointee.best_effort_timestamp
            return (
                Int(frame.pointee.sample_rate), Int(frame.pointee.ch_layout.nb_channels), channelLayout(frame.pointee.ch_layout),
                stamp == SP_AV_NOPTS_VALUE ? nil : stamp
            )
        }
        return nil
    }

    /// The decoded length. Where seeks are exact: from a seek `endMarginSeconds` before the stated
    /// end, the last frame's timestamp plus its samples (reads the index and the last blocks);
    /// otherwise, or when that seek finds nothing, by decoding everything.
    private func countFrames(stated: Double?, fromEnd: Bool) throws(SignalPathError) -> Int64 {
        if fromEnd, let stated, stated > 2 * Self.endMarginSeconds {
            let from = Int64((stated - Self.endMarginSeconds) * Double(format.sampleRate))
            releaseFrame()
            try session.seek(to: timestamp(ofFrame: from), streamIndex: facts.streamIndex, path: path)
            var end: Int64?
            while try session.receive(into: frame, streamIndex: facts.streamIndex, path: path, cursor: cursor) {
                defer { api.av_frame_unref(frame) }
                let stamp = frame.pointee.pts != SP_AV_NOPTS_VALUE ? frame.pointee.pts : frame.pointee.best_effort_timestamp
                guard stamp != SP_AV_NOPTS_VALUE else {
                    end = nil
                    break
                }
                end = frameIndex(ofTimestamp: stamp) + Int64(frame.pointee.nb_samples)
            }
            if let end, end > from { return end }
        }
        try restart()
        var total: Int64 = 0
        while try decodeFrame() {
            total += Int64(frame.pointee.nb_samples)
            releaseFrame()
        }
        return total
    }

    /// False when the index shows timestamps that do not advance by the codec's fixed frame size
    /// from packet to packet: there, timestamps and decoded samples disagree, and frames are found
    /// by counting samples instead. A 2-hour M4A made of 720 stream-copied pieces had a one-tick
    /// gap at every joint: by timestamps it was 719 frames longer than `ffmpeg -f f32le` decodes.
    private static func timestampsAreContiguous(_ stream: UnsafeMutablePointer<AVStream>, rate: Int, api: FFmpegAPI) -> Bool {
        let frameSize = Int64(stream.pointee.codecpar.pointee.frame_size)
        let base = stream.pointee.time_base
        let count = api.avformat_index_get_entries_count(stream)
        guard frameSize > 0, count > 1, base.num == 1, Int64(base.den) == Int64(rate) else { return true }
        guard var previous = api.avformat_index_get_entry(stream, 0)?.pointee.timestamp else { return false }
        for index in 1..<count {
            guard let entry = api.avformat_index_get_entry(stream, index) else { return false }
            if entry.pointee.timestamp - previous != frameSize { return false }
            previous = entry.pointee.timestamp
        }
        return true
    }

    private static func statedDuration(_ stream: UnsafeMutablePointer<AVStream>, context: UnsafeMutablePointer<AVFormatContext>) -> Double? {
        let base = stream.pointee.time_base
        if stream.pointee.duration != SP_AV_NOPTS_VALUE, stream.pointee.duration > 0, base.den > 0 {
            return Double(stream.pointee.duration) * Double(base.num) / Double(base.den)
        }
        let whole = context.pointee.duration
        return whole != SP_AV_NOPTS_VALUE && whole > 0 ? Double(whole) / Double(AV_TIME_BASE) : nil
    }

    private static func describe(
        _ stream: UnsafeMutablePointer<AVStream>, number: Int, api: FFmpegAPI, context: UnsafeMutablePointer<AVFormatContext>
    ) -> AudioStream {
        let parameters = stream.pointee.codecpar.pointee
        let channels = Int(parameters.ch_layout.nb_channels)
        let codec = api.codecName(parameters.codec_id)
        let layout = AudioFormat(
            container: .other, sampleFormat: sampleFormat(codec: codec, bits: 0), sampleRate: 1, channels: channels, frames: nil,
            channelLayout: channelLayout(parameters.ch_layout)
        ).channelLayout
        return AudioStream(
            number: number, codec: codec, sampleRate: Int(parameters.sample_rate), channels: channels, channelLayout: layout,
            duration: statedDuration(stream, context: context), language: tag(stream.pointee.metadata, "language", api: api),
            title: tag(stream.pointee.metadata, "title", api: api), bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil)
    }

    /// Containers whose audio is the coded frames one after another (Ogg: in pages of a few KiB),
    /// so that a file of one stream holds nothing else between its headers and its closing tags.
    /// Matroska's blocks (2–5 % of AAC or Opus) and ASF's padded packets (8 % of a WMA file made
    /// by ffmpeg) are not: their streams' bytes are not known without reading every packet.
    private static let unframedContainers: Set<Container> = [.mpeg, .adts, .ac3, .eac3, .dts, .flac, .ogg]

    /// The stream's coded bytes, found without reading the file through: the sum of the packet
    /// sizes in an MP4's sample table (FFmpeg's index of every packet; only when it reaches the
    /// stream's stated end `seconds`, which a fragmented MP4's does not at opening), or, for a
    /// file of one stream (cover art aside) in an `unframedContainers` container, its bytes from
    /// the first packet on, less an ID3v1 or APE tag at its end. Nil otherwise.
    private static func codedBytes(
        of stream: UnsafeMutablePointer<AVStream>, context: UnsafeMutablePointer<AVFormatContext>, demuxer: [Substring], firstPacket: Int64?,
        container: Container, cursor: FileCursor, seconds: Double?, api: FFmpegAPI
    ) -> Int64? {
        if demuxer.contains("mov") {
            let count = api.avformat_index_get_entries_count(stream)
            let base = stream.pointee.time_base
            var bytes: Int64 = 0
            var first: Int64?, last: Int64 = 0
            for index in 0..<count {
                guard let entry = api.avformat_index_get_entry(stream, index) else { return nil }
                bytes += Int64(entry.pointee.size)
                first = first ?? entry.pointee.timestamp
                last = entry.pointee.timestamp
            }
            let reach = Double(last - (first ?? 0)) * Double(base.num) / Double(max(1, base.den))
            if count > 0, base.den > 0, reach >= (seconds ?? .infinity) - 1 { return bytes }
        }
        let others = (0..<Int(context.pointee.nb_streams)).filter { index in
            let other = context.pointee.streams[index]!
            let kind = other.pointee.codecpar.pointee.codec_type
            return other != stream && kind != AVMEDIA_TYPE_ATTACHMENT && other.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
        guard others.isEmpty, unframedContainers.contains(container), let firstPacket, firstPacket < cursor.file.size else { return nil }
        let tags = container == .ogg ? 0 : CompressedLayout.trailingTagBytes(cursor, size: cursor.file.size)
        return max(0, cursor.file.size - tags - firstPacket)
    }

    /// The layout FFmpeg states: its native order is the WAVE channel-mask order for the 18
    /// positions both name (bit n is position n); FFmpeg's own positions beyond them (stereo
    /// downmix, wide, surround direct, low frequency 2, …) have no `ChannelPosition`.
    private static func channelLayout(_ layout: AVChannelLayout) -> ChannelLayout? {
        let count = Int(layout.nb_channels)
        guard count > 0 else { return nil }
        let known = ChannelPosition.allCases.count
        switch layout.order {
        case AV_CHANNEL_ORDER_NATIVE:
            var positions: [ChannelPosition?] = []
            for bit in 0..<64 where layout.u.mask & (1 << UInt64(bit)) != 0 && positions.count < count {
                positions.append(bit < known ? ChannelPosition(rawValue: bit) : nil)
            }
            guard positions.count == count else { return nil }
            return ChannelLayout(positions: positions, source: .stream)
        case AV_CHANNEL_ORDER_CUSTOM:
            guard let map = layout.u.map else { return nil }
            return ChannelLayout(
                positions: (0..<count).map { index in
                    let id = Int(map[index].id.rawValue)
                    return id >= 0 && id < known ? ChannelPosition(rawValue: id) : nil
                }, source: .stream)
        default:
            return nil
        }
    }

    private static func container(_ demuxer: UnsafePointer<CChar>?, cursor: FileCursor) -> Container {
        let names = (demuxer.map { String(cString: $0) } ?? "").split(separator: ",").map(String.init)
        let table: [String: Container] = [
            "mov": .mp4, "matroska": .matroska, "asf": .asf, "ac3": .ac3, "eac3": .eac3, "aac": .adts, "ogg": .ogg, "wav": .wav,
            "w64": .w64, "flac": .flac, "mp3": .mpeg, "caf": .caf, "aiff": .aiff, "dts": .dts,
        ]
        guard let container = names.lazy.compactMap({ table[$0] }).first else { return .other }
        if container == .matroska {
            // One demuxer reads both; the EBML header's document type tells them apart.
            cursor.seek(to: 0)
            var head = [UInt8](repeating: 0, count: 64)
            let count = head.withUnsafeMutableBytes { cursor.read(into: $0) }
            if ForeignFormat.sniff(Array(head.prefix(count))) == .webm { return .webm }
        }
        return container
    }

    private static func sampleFormat(codec: String, bits: Int) -> SampleFormat {
        switch codec {
        case "pcm_mulaw": return .ulaw
        case "pcm_alaw": return .alaw
        case "alac", "flac", "wavpack", "tta", "ape", "truehd", "mlp", "tak":
            return bits > 0 ? .lossless(codec: codec, bits: bits) : .compressed(codec: codec)
        default:
            // pcm_s16le, pcm_u8, pcm_f32be, …
            guard codec.hasPrefix("pcm_"), codec.count >= 6 else { return .compressed(codec: codec) }
            let kind = codec[codec.index(codec.startIndex, offsetBy: 4)]
            let digits = Int(codec.dropFirst(5).prefix { $0.isNumber }) ?? 0
            guard digits > 0 else { return .compressed(codec: codec) }
            switch kind {
            case "s": return .pcm(bits: digits, signed: true)
            case "u": return .pcm(bits: digits, signed: false)
            case "f": return .float(bits: digits)
            default: return .compressed(codec: codec)
            }
        }
    }

    private static func tag(_ dictionary: OpaquePointer?, _ key: String, api: FFmpegAPI) -> String? {
        guard let dictionary, let entry = api.av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value)  // invalid UTF-8 is repaired with U+FFFD
        return text.isEmpty ? nil : text
    }

    /// The container's tags under signalpath's keys (FFmpeg's lookups ignore case: Matroska's
    /// `TITLE` and MP4's `title` alike).
    private static func metadata(_ dictionary: OpaquePointer?, api: FFmpegAPI) -> [MetadataEntry] {
        let keys = [
            ("title", "title"), ("artist", "artist"), ("album", "album"), ("track", "track_number"), ("date", "date"), ("genre", "genre"),
            ("comment", "comment"), ("copyright", "copyright"), ("license", "license"), ("encoder", "software"),
        ]
        return keys.compactMap { key, name in tag(dictionary, key, api: api).map { MetadataEntry(key: name, value: $0) } }
    }

    // MARK: - Samples to Float

    /// Converts `count` frames of `frame` from frame `first` on into interleaved Float, as
    /// libswresample converts to `flt` (so that samples equal `ffmpeg -f f32le`'s).
    private static func convert(_ frame: UnsafeMutablePointer<AVFrame>, from first: Int, count: Int, channels: Int, into output: UnsafeMutablePointer<Float>) {
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let data = frame.pointee.extended_data!
        func planar<T>(_ type: T.Type, _ convert: (T) -> Float) {
            for channel in 0..<channels {
                let plane = UnsafeRawPointer(data[channel]!).assumingMemoryBound(to: T.self) + first
                for index in 0..<count { output[index * channels + channel] = convert(plane[index]) }
            }
        }
        func packed<T>(_ type: T.Type, _ convert: (T) -> Float) {
            let samples = UnsafeRawPointer(data[0]!).assumingMemoryBound(to: T.self) + first * channels
            for index in 0..<count * channels { output[index] = convert(samples[index]) }
        }
        let s16: (Int16) -> Float = { Float($0) * (1.0 / 32768.0) }
        let s32: (Int32) -> Float = { Float($0) * (1.0 / 2_147_483_648.0) }
        let u8: (UInt8) -> Float = { Float(Int32($0) - 0x80) * (1.0 / 128.0) }
        let s64: (Int64) -> Float = { Float(Double($0) * (1.0 / 9_223_372_036_854_775_808.0)) }
        switch format {
        case AV_SAMPLE_FMT_FLTP where channels == 2:
            // AAC, Opus and Vorbis decode to planar Float; stereo interleaved in one pass over the
            // output rather than one per channel (docs/DECISIONS.md#ffmpeg-interleave).
            let left = UnsafeRawPointer(data[0]!).assumingMemoryBound(to: Float.self) + first
            let right = UnsafeRawPointer(data[1]!).assumingMemoryBound(to: Float.self) + first
            for index in 0..<count {
                output[2 * index] = left[index]
                output[2 * index + 1] = right[index]
            }
        case AV_SAMPLE_FMT_FLTP: planar(Float.self) { $0 }
        case AV_SAMPLE_FMT_FLT: packed(Float.self) { $0 }
        case AV_SAMPLE_FMT_S16P: planar(Int16.self, s16)
        case AV_SAMPLE_FMT_S16: packed(Int16.self, s16)
        case AV_SAMPLE_FMT_S32P: planar(Int32.self, s32)
        case AV_SAMPLE_FMT_S32: packed(Int32.self, s32)
        case AV_SAMPLE_FMT_DBLP: planar(Double.self) { Float($0) }
        case AV_SAMPLE_FMT_DBL: packed(Double.self) { Float($0) }
        case AV_SAMPLE_FMT_U8P: planar(UInt8.self, u8)
        case AV_SAMPLE_FMT_U8: packed(UInt8.self, u8)
        case AV_SAMPLE_FMT_S64P: planar(Int64.self, s64)
        case AV_SAMPLE_FMT_S64: packed(Int64.self, s64)
        default: output.update(repeating: 0, count: count * channels)
        }
    }
}

// MARK: - One demuxer and decoder

/// A demuxer over the cursor and, once `openDecoder` is called, the decoder of one stream.
private final class Session {
    let api: FFmpegAPI
    let context: UnsafeMutablePointer<AVFormatContext>
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    private(set) var streamIndex: Int32 = -1
    private var draining = false
    /// Where the first packet of the decoded stream read from this demuxer lies in the file.
    private(set) var firstPacketPosition: Int64?

    /// The demuxers tried, by content only (no file name is passed): those of audio containers and
    /// of the video containers whose soundtracks users measure. Data that none of them claims is
    /// not audio, whatever a looser demuxer (raw video, text) might make of it.
    static let demuxers = "mov,matroska,asf,ac3,eac3,aac,ogg,wav,w64,flac,mp3,caf,aiff,dts,truehd,wv,ape,tta,tak,amr,au,mpc,mpc8"
    /// AVIOContext buffer: FFmpeg reads through it in pieces of this size (the cursor copies them
    /// from its current 1 MiB block).
    private static let ioBufferSize = 65536

    init(api: FFmpegAPI, cursor: FileCursor, path: String) throws(SignalPathError) {
        self.api = api
        cursor.seek(to: 0)
        guard let packet = api.av_packet_alloc(), let buffer = api.av_malloc(Self.ioBufferSize),
            let io = api.avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.ioBufferSize), 0, Unmanaged.passUnretained(cursor).toOpaque(), ffmpegRead, nil,
                ffmpegSeek)
        else { throw SignalPathError.malformed(path: path, reason: "out of memory") }
        self.packet = packet
        self.io = io
        var context = api.avformat_alloc_context()
        context?.pointee.pb = io
        var options: OpaquePointer?
        _ = api.av_dict_set(&options, "format_whitelist", Self.demuxers, 0)
        let opened = api.avformat_open_input(&context, nil, nil, &options)
        api.av_dict_free(&options)
        guard opened >= 0, let context else {
            Self.free(io: &self.io, api: api)
            var packet: UnsafeMutablePointer<AVPacket>? = packet
            api.av_packet_free(&packet)
            throw cursor.error ?? SignalPathError.unrecognizedFormat(path: path, reason: "\(FFmpeg.cannotOpen): \(FFmpegAPI.message(opened, api: api))")
        }
        self.context = context
        let found = api.avformat_find_stream_info(context, nil)
        if found < 0, let error = cursor.error { throw error }
    }

    deinit {
        if decoder != nil { api.avcodec_free_context(&decoder) }
        var context: UnsafeMutablePointer<AVFormatContext>? = self.context
        api.avformat_close_input(&context)
        Self.free(io: &io, api: api)
        var packet: UnsafeMutablePointer<AVPacket>? = self.packet
        api.av_packet_free(&packet)
    }

    private static func free(io: inout UnsafeMutablePointer<AVIOContext>?, api: FFmpegAPI) {
        guard let context = io else { return }
        api.av_free(context.pointee.buffer)
        api.avio_context_free(&io)
    }

    var seekPreroll: Int32 { streamIndex >= 0 ? context.pointee.streams[Int(streamIndex)]!.pointee.codecpar.pointee.seek_preroll : 0 }

    func timeBase(_ index: Int32) -> AVRational { context.pointee.streams[Int(index)]!.pointee.time_base }

    func openDecoder(streamIndex: Int32, path: String) throws(SignalPathError) {
        self.streamIndex = streamIndex
        // The other streams' packets are dropped by the demuxer, not read and thrown away here.
        for index in 0..<Int(context.pointee.nb_streams) where index != Int(streamIndex) {
            context.pointee.streams[index]!.pointee.discard = AVDISCARD_ALL
        }
        let parameters = context.pointee.streams[Int(streamIndex)]!.pointee.codecpar!
        let codecName = api.codecName(parameters.pointee.codec_id)
        guard let codec = api.avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw SignalPathError.unrecognizedFormat(path: path, reason: "no decoder for the \(codecName) codec in this FFmpeg")
        }
        decoder = api.avcodec_alloc_context3(codec)
        guard let decoder else { throw SignalPathError.malformed(path: path, reason: "out of memory") }
        guard api.avcodec_parameters_to_context(decoder, parameters) >= 0 else {
            throw SignalPathError.malformed(path: path, reason: "the \(codecName) stream's parameters are not usable")
        }
        decoder.pointee.pkt_timebase = timeBase(streamIndex)
        // One thread per decoder: signalpath decodes chunks in parallel itself.
        decoder.pointee.thread_count = 1
        let opened = api.avcodec_open2(decoder, codec, nil)
        guard opened >= 0 else {
            throw SignalPathError.malformed(path: path, reason: "cannot open the \(codecName) decoder: \(FFmpegAPI.message(opened, api: api))")
        }
    }

    /// Seeks the demuxer to the packet at or before `timestamp` and empties the decoder.
    func seek(to timestamp: Int64, streamIndex: Int32, path: String) throws(SignalPathError) {
        let result = api.avformat_seek_file(context, streamIndex, Int64.min, timestamp, timestamp, 0)
        guard result >= 0 else { throw SignalPathError.malformed(path: path, reason: "cannot seek: \(FFmpegAPI.message(result, api: api))") }
        api.avcodec_flush_buffers(decoder)
        draining = false
    }

    /// The next decoded frame of the stream into `frame`; false at the end of the stream. A read
    /// error of the cursor is thrown as it is; data the decoder refuses is `malformed`.
    func receive(into frame: UnsafeMutablePointer<AVFrame>, streamIndex: Int32, path: String, cursor: FileCursor?) throws(SignalPathError) -> Bool {
        while true {
            let received = api.avcodec_receive_frame(decoder, frame)
            if received >= 0 { return true }
            if received == SP_AVERROR_EOF { return false }
            guard received == SP_AVERROR_EAGAIN else {
                throw SignalPathError.malformed(path: path, reason: "cannot decode: \(FFmpegAPI.message(received, api: api))")
            }
            let read = api.av_read_frame(context, packet)
            if read < 0 {
                if let error = cursor?.error { throw error }
                // The end, or data cut short: what was decoded so far is the stream.
                guard !draining else { return false }
                draining = true
                _ = api.avcodec_send_packet(decoder, nil)
                continue
            }
            defer { api.av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            if firstPacketPosition == nil && packet.pointee.pos >= 0 { firstPacketPosition = packet.pointee.pos }
            let sent = api.avcodec_send_packet(decoder, packet)
            if sent < 0 && sent != SP_AVERROR_EAGAIN {
                let seconds = Double(packet.pointee.pts) * Double(timeBase(streamIndex).num) / Double(max(1, timeBase(streamIndex).den))
                let place = packet.pointee.pts == SP_AV_NOPTS_VALUE ? "at byte \(packet.pointee.pos)" : "at \(UnitFormat.time(seconds))"
                throw SignalPathError.malformed(path: path, reason: "corrupt \(api.codecName(decoder!.pointee.codec_id)) data \(place): \(FFmpegAPI.message(sent, api: api))")
            }
        }
    }
}

// MARK: - AVIOContext callbacks
// FFmpeg calls these with the FileCursor passed (unretained) as `opaque`; FFmpeg keeps it alive.

private func ffmpegCursor(_ opaque: UnsafeMutableRawPointer?) -> FileCursor {
    Unmanaged<FileCursor>.fromOpaque(opaque!).takeUnretainedValue()
}

private func ffmpegRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard size > 0 else { return 0 }
    let cursor = ffmpegCursor(opaque)
    let count = cursor.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
    if count == 0 { return cursor.error != nil ? -EIO : SP_AVERROR_EOF }
    return Int32(count)
}

private func ffmpegSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    let cursor = ffmpegCursor(opaque)
    if whence & AVSEEK_SIZE != 0 { return cursor.file.size }
    let base: Int64
    switch whence & ~AVSEEK_FORCE {
    case SEEK_SET: base = 0
    case SEEK_CUR: base = cursor.position
    case SEEK_END: base = cursor.file.size
    default: return -1
    }
    // A declared size of 2⁶³ − 1 (a Matroska element) must not overflow the sum.
    let (target, overflow) = base.addingReportingOverflow(offset)
    guard !overflow, target >= 0 else { return Int64(-EINVAL) }
    cursor.seek(to: target)
    return cursor.position
}

// MARK: - Loading the libraries

/// FFmpeg's functions, from libraries loaded on first use.
///
/// Linked, libavformat and libavcodec would bring 133 shared libraries (codecs, X11, VA-API, …)
/// into every start of signalpath, FFmpeg needed or not. Loaded with dlopen, only a file that
/// libsndfile cannot read pays for them (docs/DECISIONS.md#libraries-on-first-use).
struct FFmpegAPI: @unchecked Sendable {
    // @unchecked: C function pointers, set once and never changed.
    let avformat_alloc_context: sp_fn_avformat_alloc_context
    let avformat_open_input: sp_fn_avformat_open_input
    let avformat_find_stream_info: sp_fn_avformat_find_stream_info
    let avformat_close_input: sp_fn_avformat_close_input
    let avformat_seek_file: sp_fn_avformat_seek_file
    let av_read_frame: sp_fn_av_read_frame
    let avio_alloc_context: sp_fn_avio_alloc_context
    let avio_context_free: sp_fn_avio_context_free
    let avcodec_find_decoder: sp_fn_avcodec_find_decoder
    let avcodec_alloc_context3: sp_fn_avcodec_alloc_context3
    let avcodec_free_context: sp_fn_avcodec_free_context
    let avcodec_parameters_to_context: sp_fn_avcodec_parameters_to_context
    let avcodec_open2: sp_fn_avcodec_open2
    let avcodec_send_packet: sp_fn_avcodec_send_packet
    let avcodec_receive_frame: sp_fn_avcodec_receive_frame
    let avcodec_flush_buffers: sp_fn_avcodec_flush_buffers
    let avcodec_get_name: sp_fn_avcodec_get_name
    let av_packet_alloc: sp_fn_av_packet_alloc
    let av_packet_free: sp_fn_av_packet_free
    let av_packet_unref: sp_fn_av_packet_unref
    let av_frame_alloc: sp_fn_av_frame_alloc
    let av_frame_free: sp_fn_av_frame_free
    let av_frame_unref: sp_fn_av_frame_unref
    let av_malloc: sp_fn_av_malloc
    let av_free: sp_fn_av_free
    let av_dict_get: sp_fn_av_dict_get
    let av_dict_set: sp_fn_av_dict_set
    let av_dict_free: sp_fn_av_dict_free
    let av_log_set_level: sp_fn_av_log_set_level
    let av_strerror: sp_fn_av_strerror
    let av_rescale_q: sp_fn_av_rescale_q
    let avformat_index_get_entries_count: sp_fn_avformat_index_get_entries_count
    let avformat_index_get_entry: sp_fn_avformat_index_get_entry

    /// The libraries' file names, by the major versions of the headers built against.
    static let libraries = [
        "libavutil.so.\(LIBAVUTIL_VERSION_MAJOR)", "libavcodec.so.\(LIBAVCODEC_VERSION_MAJOR)", "libavformat.so.\(LIBAVFORMAT_VERSION_MAJOR)",
    ]

    /// Loaded once per process (a static is initialised once, under a lock); the reason when not.
    private static let shared: Result<FFmpegAPI, LoadFailure> = load()

    struct LoadFailure: Error { let reason: String }

    /// True when FFmpeg's libraries are installed and loaded.
    static var isAvailable: Bool { (try? shared.get()) != nil }

    static func loaded(path: String) throws(SignalPathError) -> FFmpegAPI {
        switch shared {
        case .success(let api): return api
        case .failure(let failure): throw SignalPathError.unrecognizedFormat(path: path, reason: failure.reason)
        }
    }

    private static func load() -> Result<FFmpegAPI, LoadFailure> {
        var handles: [UnsafeMutableRawPointer] = []
        for name in libraries {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                return .failure(LoadFailure(reason: "FFmpeg's library \(name) is not installed (Debian: libavformat59, libavcodec59)"))
            }
            handles.append(handle)
        }
        var missing: String?
        func symbol<T>(_ name: String) -> T {
            for handle in handles {
                if let address = dlsym(handle, name) { return unsafeBitCast(address, to: T.self) }
            }
            missing = missing ?? name
            return unsafeBitCast(dlsym(handles[0], "av_free")!, to: T.self)  // never called: loading fails below
        }
        let api = FFmpegAPI(
            avformat_alloc_context: symbol("avformat_alloc_context"), avformat_open_input: symbol("avformat_open_input"),
            avformat_find_stream_info: symbol("avformat_find_stream_info"), avformat_close_input: symbol("avformat_close_input"),
            avformat_seek_file: symbol("avformat_seek_file"), av_read_frame: symbol("av_read_frame"),
            avio_alloc_context: symbol("avio_alloc_context"), avio_context_free: symbol("avio_context_free"),
            avcodec_find_decoder: symbol("avcodec_find_decoder"), avcodec_alloc_context3: symbol("avcodec_alloc_context3"),
            avcodec_free_context: symbol("avcodec_free_context"), avcodec_parameters_to_context: symbol("avcodec_parameters_to_context"),
            avcodec_open2: symbol("avcodec_open2"), avcodec_send_packet: symbol("avcodec_send_packet"),
            avcodec_receive_frame: symbol("avcodec_receive_frame"), avcodec_flush_buffers: symbol("avcodec_flush_buffers"),
            avcodec_get_name: symbol("avcodec_get_name"), av_packet_alloc: symbol("av_packet_alloc"), av_packet_free: symbol("av_packet_free"),
            av_packet_unref: symbol("av_packet_unref"), av_frame_alloc: symbol("av_frame_alloc"), av_frame_free: symbol("av_frame_free"),
            av_frame_unref: symbol("av_frame_unref"), av_malloc: symbol("av_malloc"), av_free: symbol("av_free"),
            av_dict_get: symbol("av_dict_get"), av_dict_set: symbol("av_dict_set"), av_dict_free: symbol("av_dict_free"),
            av_log_set_level: symbol("av_log_set_level"), av_strerror: symbol("av_strerror"), av_rescale_q: symbol("av_rescale_q"),
            avformat_index_get_entries_count: symbol("avformat_index_get_entries_count"), avformat_index_get_entry: symbol("avformat_index_get_entry"))
        if let missing { return .failure(LoadFailure(reason: "FFmpeg's libraries lack \(missing)")) }
        // FFmpeg's own messages would be extra lines on standard error: errors here are one line.
        api.av_log_set_level(AV_LOG_QUIET)
        return .success(api)
    }

    /// ffmpeg's short name for a codec (`aac`, `alac`).
    func codecName(_ id: AVCodecID) -> String {
        avcodec_get_name(id).map { String(cString: $0) } ?? "unknown"
    }

    /// FFmpeg's text for an error code, without its capital and full stop.
    static func message(_ code: Int32, api: FFmpegAPI) -> String {
        if code == SP_AVERROR_INVALIDDATA { return "invalid data" }
        var text = [CChar](repeating: 0, count: 128)
        _ = api.av_strerror(code, &text, text.count)
        let message = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return message.isEmpty ? "error \(code)" : message.prefix(1).lowercased() + message.dropFirst()
    }
}
