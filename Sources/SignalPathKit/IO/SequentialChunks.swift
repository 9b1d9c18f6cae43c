/// An in-order pass over a byte range in fixed-size chunks, with further chunks already being read.
///
/// Made by `FileReader.chunks(in:chunkSize:readAhead:)`. Not shareable between threads: one consumer
/// calls `next()` until it returns nil.
public final class SequentialChunks {
    private let reader: FileReader
    private let chunkSize: Int64
    private let readAhead: Int
    private let end: Int64
    private var nextOffsetToRequest: Int64
    /// Reads in flight, oldest first: at most `readAhead + 1`, so delivered chunks are released.
    private var inFlight: [PendingRead] = []

    init(reader: FileReader, range: Range<Int64>, chunkSize: Int, readAhead: Int) {
        precondition(chunkSize > 0 && readAhead >= 0)
        self.reader = reader
        self.chunkSize = Int64(chunkSize)
        self.readAhead = readAhead
        self.end = range.upperBound
        self.nextOffsetToRequest = range.lowerBound
    }

    /// The next chunk, or nil at the end of the range or of the file.
    public func next() throws(SignalPathError) -> FileBytes? {
        while inFlight.count < readAhead + 1, nextOffsetToRequest < end {
            let upper = min(nextOffsetToRequest + chunkSize, end)
            inFlight.append(reader.startRead(nextOffsetToRequest..<upper))
            nextOffsetToRequest = upper
        }
        guard !inFlight.isEmpty else { return nil }
        let chunk = try inFlight.removeFirst().wait().get()
        if chunk.isEmpty {
            // End of file came before the end of the range: stop requesting.
            nextOffsetToRequest = end
            return nil
        }
        return chunk
    }
}
