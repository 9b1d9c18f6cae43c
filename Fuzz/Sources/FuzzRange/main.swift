// Arbitrary text through everything that parses options: ranges, times, windows, channels, and
// the conversion of a parsed range to frames of a file of arbitrary length and rate.
import SignalPathKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRange(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = TimeRange.seconds(text)
    _ = Window(name: text)
    _ = ChannelSelection(parsing: text)
    _ = TerminalText.sanitized(text)
    if let range = TimeRange(parsing: text) {
        _ = range.description
        let rate = size > 0 ? Int(data[0]) * 997 + 1 : 48_000
        let frames: Int64? = size > 1 ? Int64(data[1]) * 1_000_003 : nil
        _ = try? range.frames(in: "fuzz", sampleRate: rate, frames: frames)
    }
    return 0
}
