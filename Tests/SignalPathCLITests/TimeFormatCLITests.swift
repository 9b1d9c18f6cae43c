import Foundation
import Testing
import SignalPathTestSupport

/// One time format for people (docs/ARCHITECTURE.md, "Times for people"), read through the real
/// binary on a file longer than an hour.
@Suite("times for people read alike in every command")
struct TimeFormatCLITests {
    let scratch = ScratchDirectory("time-format-cli")

    static let rate = 8000
    /// 1:02:05.750 of 16-bit mono silence at 8 kHz, with a run of four full-scale samples at
    /// 1:02:03.500 (frame 29 788 000).
    static let frames: Int64 = 29_806_000, clipFrame: Int64 = 29_788_000

    /// The file, written as a header, a seek and the four samples: sparse, so its 60 MB cost no disk.
    func longFile() throws -> String {
        let path = scratch.file("long.wav")
        let dataBytes = UInt32(Self.frames * 2)
        var header: [UInt8] = []
        func tag(_ text: String) { header += Array(text.utf8) }
        func u32(_ value: UInt32) { header += withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        func u16(_ value: UInt16) { header += withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        tag("RIFF")
        u32(36 + dataBytes)
        tag("WAVE")
        tag("fmt ")
        u32(16)
        u16(1)
        u16(1)
        u32(UInt32(Self.rate))
        u32(UInt32(Self.rate * 2))
        u16(2)
        u16(16)
        tag("data")
        u32(dataBytes)
        try Data(header).write(to: URL(fileURLWithPath: path))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(44 + Self.clipFrame * 2))
        try handle.write(contentsOf: Data((0..<4).flatMap { _ in withUnsafeBytes(of: Int16.max.littleEndian) { Array($0) } }))
        try handle.truncate(atOffset: UInt64(44) + UInt64(dataBytes))
        return path
    }

    @Test(
        "past an hour the file's end reads 1:02:05.750 and the clipping 1:02:03.500 in info, analyze, events, loudness and waveform; axes in h:mm:ss; --range takes what they print"
    )
    func longFileReadsAlike() throws {
        let path = try longFile()
        let end = "1:02:05.750", range = "0:00:00.000 .. 1:02:05.750", titleRange = "0:00:00.000–1:02:05.750", clip = "1:02:03.500"

        let info = try signalpath("info", path)
        #expect(info.status == 0 && info.stdout.contains("\(end) (29 806 000 frames)"), "\(info.stdout)")

        let analyze = try signalpath("analyze", path)
        #expect(analyze.status == 0, "\(analyze.stderr)")
        #expect(analyze.stdout.contains("\(end) (\(range))"), "\(analyze.stdout)")
        let peakAt = analyze.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("at ") }
        #expect(peakAt?.hasSuffix(clip) == true, "\(peakAt ?? "no peak time")")

        let events = try signalpath("events", path)
        #expect(events.status == 0, "\(events.stderr)")
        let eventLines = events.stdout.split(separator: "\n")
        #expect(eventLines.first?.contains("(\(range), 8000 Hz, 1 ch)") == true, "\(events.stdout)")
        let clipping = eventLines.first { $0.hasPrefix("clipping") }?.split(separator: " ", omittingEmptySubsequences: true)
        #expect(clipping?.dropFirst(2).first.map(String.init) == clip, "\(events.stdout)")
        // The silences before and after it, in the shape of the column: h:mm:ss.mmm for every start.
        let starts = eventLines.filter { $0.hasPrefix("silence") || $0.hasPrefix("clipping") }.compactMap { $0.split(separator: " ").dropFirst(2).first }
        #expect(!starts.isEmpty && starts.allSatisfy { $0.wholeMatch(of: /\d+:\d\d:\d\d\.\d{3}/) != nil }, "\(starts)")

        let loudness = try signalpath("loudness", path, "--format", "plot", "--width", "160", "--height", "24", "--color", "never")
        #expect(loudness.status == 0, "\(loudness.stderr)")
        let loudnessLines = loudness.stdout.split(separator: "\n")
        #expect(loudnessLines.first?.contains(titleRange) == true, "\(loudness.stdout)")
        #expect(loudness.stdout.contains(/True peak -?\d+\.\d dBTP at 1:02:03\.50\d/), "\(loudness.stdout)")
        let ticks = loudnessLines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("0:00:00 ") }
        #expect(ticks?.contains("1:00:00") == true && ticks?.contains(/(^|\s)\d{1,2}:\d\d(\s|$)/) == false, "the axis: \(ticks ?? "none")")

        let waveform = try signalpath("waveform", path, "--format", "plot", "--width", "120", "--height", "10", "--color", "never")
        #expect(waveform.status == 0, "\(waveform.stderr)")
        let waveformLines = waveform.stdout.split(separator: "\n")
        #expect(waveformLines.first?.contains("\(titleRange) · 8000 Hz") == true && waveformLines.first?.hasSuffix("· 4 clipped samples") == true, "\(waveform.stdout)")
        #expect(waveformLines.last { $0.contains("0:00:00") }?.contains("1:02:05.75") == true, "\(waveform.stdout)")

        // What the reports print is what --range reads.
        let second = try signalpath("analyze", path, "--range", "1:02:03.000..1:02:04.000")
        #expect(second.status == 0 && second.stdout.contains("1.000 s (1:02:03.000 .. 1:02:04.000)"), "\(second.stdout)\(second.stderr)")
        let json = try signalpath("analyze", path, "--range", "\(clip)..\(end)", "--format", "json")
        let format = try #require(((try self.json(json)["files"] as? [[String: Any]])?.first ?? [:])["range"] as? [String: Any], "\(json.stdout)")
        #expect(format["start_s"] as? Double == 3723.5 && format["end_s"] as? Double == 3725.75, "\(format)")
        let short = try signalpath("analyze", path, "--range", "1.500 s..2.250 s", "--format", "json")
        let shortRange = try #require(((try self.json(short)["files"] as? [[String: Any]])?.first ?? [:])["range"] as? [String: Any], "\(short.stdout)\(short.stderr)")
        #expect(shortRange["start_s"] as? Double == 1.5 && shortRange["end_s"] as? Double == 2.25, "\(shortRange)")
    }

    func json(_ result: ProcessResult) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "not JSON: \(result.stdout)")
    }
}
