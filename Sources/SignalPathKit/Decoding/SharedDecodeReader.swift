/// One reader's view of a `SharedDecode`: its own position, served from the shared blocks, and
/// its own FFmpeg decoder, opened only when the blocks cannot serve a read (a seek back behind
/// them, or by the index far ahead).
final class SharedDecodeReader: FrameDecoder {
    private let shared: SharedDecode
    private let id: Int
    private let makeOwn: () throws(SignalPathError) -> FFmpeg
    private var own: FFmpeg?
    private var position: Int64 = 0

    init(shared: SharedDecode, makeOwn: @escaping () throws(SignalPathError) -> FFmpeg) {
        self.shared = shared
        self.makeOwn = makeOwn
        id = shared.register()
    }

    deinit {
        shared.unregister(id)
    }

    func seek(toFrame frame: Int64) throws(SignalPathError) {
        position = frame
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) throws(SignalPathError) -> Int {
        let count: Int
        if let result = shared.read(reader: id, position: position, into: buffer, frames: frames) {
            count = try result.get()
        } else {
            let decoder: FFmpeg
            if let own {
                decoder = own
            } else {
                decoder = try makeOwn()
                own = decoder
            }
            try decoder.seek(toFrame: position)
            count = try decoder.read(into: buffer, frames: frames)
        }
        position += Int64(count)
        return count
    }

    /// Compressed data has no fixed byte position per frame: the cursor keeps its read-ahead.
    func limitReadAhead(toFrame frame: Int64) {}
}
