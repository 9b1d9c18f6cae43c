extension AudioFile {
    /// The decoded stream's bit rate. PCM's is exact: sample rate × channels × bits. A compressed
    /// stream's is stated by its header and measured from its coded bytes: the packet sizes of an
    /// MP4's sample table; for an MP3, AAC (ADTS), AC-3, FLAC or Ogg file, its bytes less the
    /// headers, tags and cover art ahead of the audio and the ID3v1 and APE tags behind it (Ogg's
    /// page headers and lacing values stay in: 0.5–1 % of the audio). Not measured in Matroska,
    /// WebM or ASF, whose framing only every packet would tell. Reads headers only
    /// (`CompressedLayout`), never the audio; FFmpeg's facts were gathered when the file opened.
    public func bitRate() -> BitRate {
        let seconds = format.duration ?? 0
        // libsndfile states FLAC's samples as PCM of their bit depth: coded all the same.
        let coded = CompressedLayout.containers.contains(format.container)
        switch coded ? .compressed(codec: "") : format.sampleFormat {
        case .pcm(let bits, _), .float(let bits):
            let exact = Double(format.sampleRate) * Double(format.channels) * Double(bits)
            return BitRate(stated: exact, measured: exact, isExact: true)
        case .ulaw, .alaw:
            let exact = Double(format.sampleRate) * Double(format.channels) * 8
            return BitRate(stated: exact, measured: exact, isExact: true)
        case .lossless, .compressed:
            break
        }
        func measured(_ bytes: Int64?) -> Double? {
            guard let bytes, seconds > 0 else { return nil }
            return Double(bytes) * 8 / seconds
        }
        if usesFFmpeg {
            let stated = streams.first { $0.number == streamNumber }?.bitRate
            return BitRate(stated: stated.map(Double.init), measured: measured(ffmpegCodedBytes))
        }
        guard let source, let layout = CompressedLayout.read(FileCursor(file: source, readAheadBlocks: 0, startsWithHead: true), size: source.size, container: format.container)
        else { return BitRate(stated: nil, measured: nil) }
        return BitRate(stated: layout.statedBitRate, measured: measured(Int64(layout.audio.count)))
    }
}
