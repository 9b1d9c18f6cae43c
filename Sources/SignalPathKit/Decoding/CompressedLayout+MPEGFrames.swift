extension CompressedLayout {
    /// The samples per channel of an MPEG audio file whose first frame holds no encoder's table
    /// stating them (`frameTableStatesFrames`), counted by walking its frame headers from the
    /// first to the tags at the end; nil where a table states them, no frame is found, or a read
    /// fails or comes back short (a file cut or failing while it is walked: the decoders then say
    /// so). Without a table libsndfile's count is an estimate from the first frame's bit rate:
    /// short of a VBR file's audio, where it then stops decoding, or past a CBR file's end
    /// (docs/DECISIONS.md#mpeg-frame-count). Only such files pay the walk, which reads all of them.
    static func untabledMPEGSamples(_ cursor: FileCursor, size: Int64) -> Int64? {
        guard let (tagEnd, window, offset, first) = firstMPEGFrame(cursor, size: size) else { return nil }
        let view = ByteView(window)
        guard !frameTableStatesFrames(view, at: offset, first) else { return nil }
        let end = size - trailingTagBytes(cursor, size: size)
        // A table that states no count is still no audio.
        var position = tagEnd + Int64(offset) + (frameTable(view, at: offset, first) == nil ? 0 : Int64(first.length))
        var walk = MPEGFrameWalk(cursor: cursor, end: end, first: first)
        var samples: Int64 = 0
        var synced = true
        while position + 4 <= end {
            guard let frame = walk.header(at: position) else { return nil }
            let next = position + Int64(frame.map(\.length) ?? 0)
            // Out of sync (junk between frames), a header counts only when the next frame's
            // follows it, as decoders resync.
            if let frame, next <= end, synced || next + 4 > end || walk.header(at: next).map({ $0 != nil }) == true {
                samples += Int64(frame.samples)
                position = next
                synced = true
            } else {
                guard let sync = walk.nextSyncByte(after: position) else { return nil }
                position = sync
                synced = false
            }
        }
        return samples > 0 ? samples : nil
    }
}

/// The frame headers of an MPEG audio stream, read a window at a time through a cursor.
private struct MPEGFrameWalk {
    let cursor: FileCursor
    /// Where the audio ends (the tags behind it excluded).
    let end: Int64
    /// The first frame: a header counts only with its layer and sample rate.
    let first: CompressedLayout.MPEGFrame
    private var bytes: [UInt8] = []
    private var bytesStart: Int64 = 0
    /// Bytes read at a time.
    private static let window = 1 << 20

    init(cursor: FileCursor, end: Int64, first: CompressedLayout.MPEGFrame) {
        self.cursor = cursor
        self.end = end
        self.first = first
    }

    /// Makes the window hold the 4 bytes at `at` (`at + 4 <= end`); false when a read fails or
    /// comes back short.
    private mutating func load(_ at: Int64) -> Bool {
        if at >= bytesStart && at + 4 <= bytesStart + Int64(bytes.count) { return true }
        let upTo = min(end, at + Int64(Self.window))
        guard let read = try? cursor.bytes(in: at..<upTo), read.count == Int(upTo - at) else { return false }
        (bytes, bytesStart) = (read, at)
        return true
    }

    /// The frame whose header is at `at`: `.some(nil)` where there is none of the first frame's
    /// layer and rate, nil where the bytes cannot be read.
    mutating func header(at: Int64) -> CompressedLayout.MPEGFrame?? {
        guard load(at) else { return nil }
        let frame = CompressedLayout.MPEGFrame(bytes[Int(at - bytesStart)...])
        return .some(frame.flatMap { $0.layer == first.layer && $0.sampleRate == first.sampleRate ? $0 : nil })
    }

    /// Where the next 0xFF after `position` lies (a header's first byte), or the end of the audio;
    /// nil where the bytes cannot be read.
    mutating func nextSyncByte(after position: Int64) -> Int64? {
        var from = position + 1
        while from + 4 <= end {
            guard load(from) else { return nil }
            if let index = bytes[Int(from - bytesStart)...].firstIndex(of: 0xFF) { return bytesStart + Int64(index) }
            from = bytesStart + Int64(bytes.count)
        }
        return end
    }
}
