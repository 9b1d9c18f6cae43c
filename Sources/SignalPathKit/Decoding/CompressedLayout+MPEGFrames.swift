extension CompressedLayout {
    /// The samples per channel of an MPEG audio file whose first frame holds no encoder's table
    /// (`frameTable`), counted by walking its frame headers from the first to the tags at the end;
    /// nil where a table states the count, or no frame is found. Without a table libsndfile's count
    /// is an estimate from the first frame's bit rate: short of a VBR file's audio, where it then
    /// stops decoding, or past a CBR file's end (docs/DECISIONS.md#mpeg-frame-count). Only such
    /// files pay the walk, which reads all of them.
    static func untabledMPEGSamples(_ cursor: FileCursor, size: Int64) -> Int64? {
        guard let (tagEnd, window, offset, first) = firstMPEGFrame(cursor, size: size), frameTable(ByteView(window), at: offset, first) == nil
        else { return nil }
        let end = size - trailingTagBytes(cursor, size: size)
        var position = tagEnd + Int64(offset)
        var bytes: [UInt8] = [], bytesStart: Int64 = 0
        /// The four header bytes at `at` (nil past the audio), reading a window at a time.
        func header(at: Int64) -> MPEGFrame? {
            guard at + 4 <= end else { return nil }
            if at < bytesStart || at + 4 > bytesStart + Int64(bytes.count) {
                guard let read = try? cursor.bytes(in: at..<min(end, at + Int64(walkWindow))), read.count >= 4 else { return nil }
                (bytes, bytesStart) = (read, at)
            }
            return MPEGFrame(bytes[Int(at - bytesStart)...]).flatMap { $0.layer == first.layer && $0.sampleRate == first.sampleRate ? $0 : nil }
        }
        var samples: Int64 = 0
        var synced = true
        while position + 4 <= end {
            // Out of sync (junk between frames), a header counts only when the next frame's follows it, as decoders resync.
            if let frame = header(at: position), position + Int64(frame.length) <= end,
                synced || position + Int64(frame.length) + 4 > end || header(at: position + Int64(frame.length)) != nil
            {
                samples += Int64(frame.samples)
                position += Int64(frame.length)
                synced = true
            } else {
                position += 1
                synced = false
            }
        }
        return samples > 0 ? samples : nil
    }

    /// Bytes read at a time by the walk.
    private static let walkWindow = 1 << 20
}
