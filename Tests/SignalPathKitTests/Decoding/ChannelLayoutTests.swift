import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

@Suite("Channel layouts: masks, maps and names")
struct ChannelLayoutTests {
    let scratch = ScratchDirectory("channel-layout")

    /// A file of `channels` channels whose channel c carries a sine of 300 + 100·c Hz.
    func tones(_ builder: PCMFileBuilder, _ name: String) -> String {
        let frequencies = (0..<builder.channels).map { 300 + 100 * Double($0) }
        return scratch.write(name, builder.file(samples: Signals.sines(frequencies: frequencies, amplitude: 0.2, sampleRate: 48_000, frames: 4800)))
    }

    /// Masks and the names Microsoft's WAVE_FORMAT_EXTENSIBLE rules give them (bit order FL FR FC
    /// LFE BL BR FLC FRC BC SL SR TC TFL TFC TFR TBL TBC TBR; extra channels have no position,
    /// extra bits do not count).
    static let maskCases: [(mask: UInt32, channels: Int, names: [String])] = [
        (0x3F, 6, ["FL", "FR", "FC", "LFE", "BL", "BR"]),
        (0x60F, 6, ["FL", "FR", "FC", "LFE", "SL", "SR"]),
        (0x63F, 8, ["FL", "FR", "FC", "LFE", "BL", "BR", "SL", "SR"]),
        (0x33, 4, ["FL", "FR", "BL", "BR"]),
        (0x107, 4, ["FL", "FR", "FC", "BC"]),
        (0x2D60F, 10, ["FL", "FR", "FC", "LFE", "SL", "SR", "TFL", "TFR", "TBL", "TBR"]),
        (0x800 | 0xC0, 3, ["FLC", "FRC", "TC"]),
        (0x4, 1, ["mono"]),
        (0x1, 1, ["FL"]),
        (0x3, 2, ["left", "right"]),
        (0x7, 5, ["FL", "FR", "FC", "ch4", "ch5"]),
        (0x3F, 4, ["FL", "FR", "FC", "LFE"]),
    ]

    @Test("WAVE_FORMAT_EXTENSIBLE masks laid out by PCMFileBuilder name the channels as the specification assigns them")
    func masks() throws {
        for (index, entry) in Self.maskCases.enumerated() {
            for container in [PCMFileBuilder.Container.wavExtensible, .rf64, .w64] {
                let builder = PCMFileBuilder(container: container, encoding: .signed16, channels: entry.channels, sampleRate: 48_000, channelMask: entry.mask)
                let path = tones(builder, "mask\(index)-\(container).wav")
                let direct = try AudioFile.open(path)
                #expect(direct.usesDirectPCM)
                #expect(direct.format.channelLayout.names == entry.names, "mask \(String(entry.mask, radix: 16)) in \(container)")
                #expect(direct.format.channelLayout.source == .channelMask)
                // libsndfile reads the same mask into its channel map.
                let mapped = try AudioFile.open(path, decoding: .libsndfile)
                #expect(mapped.format.channelLayout.names == entry.names, "libsndfile: mask \(String(entry.mask, radix: 16)) in \(container)")
            }
        }
    }

    @Test("a mask's reserved bits give channels no position; a mask of 0 states nothing, so the count's usual layout applies")
    func reservedAndEmptyMasks() throws {
        let reserved = PCMFileBuilder(container: .wavExtensible, encoding: .signed16, channels: 3, sampleRate: 48_000, channelMask: 0x8000_0003)
        #expect(try AudioFile.open(tones(reserved, "reserved.wav")).format.channelLayout.names == ["FL", "FR", "ch3"])
        let empty = PCMFileBuilder(container: .wavExtensible, encoding: .signed16, channels: 6, sampleRate: 48_000, channelMask: 0)
        let layout = try AudioFile.open(tones(empty, "empty.wav")).format.channelLayout
        #expect(layout.source == .assumed && layout.names == ["FL", "FR", "FC", "LFE", "BL", "BR"])
    }

    @Test("files without a layout: ffmpeg's default for the count, mono and left/right for one and two channels, numbers past eight")
    func assumedLayouts() throws {
        let expected: [Int: [String]] = [
            1: ["mono"], 2: ["left", "right"], 3: ["FL", "FR", "LFE"], 4: ["FL", "FR", "FC", "BC"], 5: ["FL", "FR", "FC", "BL", "BR"],
            6: ["FL", "FR", "FC", "LFE", "BL", "BR"], 7: ["FL", "FR", "FC", "LFE", "BC", "SL", "SR"], 8: ["FL", "FR", "FC", "LFE", "BL", "BR", "SL", "SR"],
            9: (1...9).map { "ch\($0)" },
        ]
        for (channels, names) in expected {
            let path = tones(PCMFileBuilder(container: .wav, encoding: .signed16, channels: channels, sampleRate: 48_000), "plain\(channels).wav")
            #expect(try AudioFile.open(path).format.channelLayout.names == names, "\(channels) channels")
        }
    }

    @Test("positions parse in any case; numbers, left, right and mix as before; a position the file lacks is refused with its channels")
    func selection() throws {
        #expect(ChannelSelection(parsing: "LFE") == .position(.lowFrequency))
        #expect(ChannelSelection(parsing: "sl") == .position(.sideLeft))
        #expect(ChannelSelection(parsing: "Tbr") == .position(.topBackRight))
        #expect(ChannelSelection(parsing: "3") == .single(2) && ChannelSelection(parsing: "left") == .single(0))
        #expect(ChannelSelection(parsing: "mix") == .mix && ChannelSelection(parsing: "XL") == nil)
        let layout = try #require(ChannelLayout(channelMask: 0x60F, channels: 6))
        #expect(try ChannelSelection.position(.lowFrequency).sourceChannels(in: layout, path: "f") == [3])
        #expect(ChannelSelection.position(.sideRight).names(in: layout) == ["SR"])
        #expect(throws: SignalPathError.invalidRequest(path: "f", reason: "has no BL channel (its channels: FL FR FC LFE SL SR)")) {
            try ChannelSelection.position(.backLeft).sourceChannels(in: layout, path: "f")
        }
        let stereo = try #require(ChannelLayout(channelMask: 0x3, channels: 2))
        #expect(ChannelSelection.position(.frontRight).names(in: stereo) == ["right"])
    }
}

/// Files that ffmpeg and sox write, checked against what ffprobe reports; ffmpeg's also against
/// their content: position k of the layout (as `ffmpeg -layouts` lists it) carries a tone of 300 + 200·k
/// Hz, and the LFE 60 Hz. (Not CAF surrounds: ffmpeg writes 5.1 and quad with Apple's surround
/// labels and reads them back as side channels, libsndfile as back channels, as they were written.)
@Suite("Channel layouts of files made by ffmpeg and sox")
struct FFmpegChannelLayoutTests {
    let scratch = ScratchDirectory("ffmpeg-layout")

    /// `ffmpeg -layouts`: layout name → positions.
    static func standardLayouts() throws -> [String: [String]] {
        let listing = try run(try #require(which("ffmpeg")), ["-hide_banner", "-layouts"])
        var layouts: [String: [String]] = [:]
        var inTable = false
        for line in (listing.stdout + listing.stderr).split(separator: "\n") {
            if line.hasPrefix("Standard channel layouts") {
                inTable = true
            } else if inTable {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count == 2, fields[0] != "NAME" { layouts[String(fields[0])] = fields[1].split(separator: "+").map(String.init) }
            }
        }
        return layouts
    }

    static func frequency(of position: String, in positions: [String]) -> Double {
        position == "LFE" ? 60 : 300 + 200 * Double(positions.firstIndex(of: position)!)
    }

    @Test(
        "names, order and layout name agree with ffprobe and with each channel's tone",
        arguments: [
            ("5.1(side)", "wav"), ("5.1", "wav"), ("7.1", "wav"), ("quad", "wav"), ("6.1", "wav"), ("5.0(side)", "w64"), ("3.0", "w64"),
            ("7.1(wide-side)", "wav"), ("3.0", "caf"), ("7.1", "caf"), ("5.1(side)", "flac"), ("7.1", "flac"), ("3.0", "flac"),
            ("5.1", "ogg"), ("6.1", "ogg"), ("3.0", "ogg"), ("quad", "ogg"),
        ])
    func againstFFprobe(layout: String, container: String) async throws {
        let positions = try #require(try Self.standardLayouts()[layout], "ffmpeg knows \(layout)")
        let path = scratch.file("\(layout).\(container)")
        var arguments = ["-v", "error", "-y"]
        for position in positions { arguments += ["-f", "lavfi", "-i", "sine=f=\(Self.frequency(of: position, in: positions)):d=1:sample_rate=48000"] }
        let map = positions.enumerated().map { "\($0.offset).0-\($0.element)" }.joined(separator: "|")
        let inputs = positions.indices.map { "[\($0):a]" }.joined()
        arguments += ["-filter_complex", "\(inputs)join=inputs=\(positions.count):channel_layout=\(layout):map=\(map)[out]", "-map", "[out]"]
        if container == "ogg" { arguments += ["-c:a", "libvorbis", "-q:a", "6"] }
        let made = try run(try #require(which("ffmpeg")), arguments + [path])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        let probe = try run(try #require(which("ffprobe")), ["-v", "error", "-show_entries", "stream=channel_layout", "-of", "csv=p=0", path])
        let reported = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let file = try AudioFile.open(path)
        let ours = file.format.channelLayout
        #expect(ours.name == reported, "ffprobe: \(reported), signalpath: \(ours.name ?? "none") (\(ours.names))")
        let names = ours.positions.map { $0?.abbreviation ?? "?" }
        #expect(Set(names) == Set(positions), "positions \(names) against ffprobe's \(positions)")
        // The names follow the content: each channel carries its position's tone.
        let analysis = try await SignalAnalyzer(file: file, frames: 0..<file.format.frames!).run()
        for (channel, name) in names.enumerated() where name != "?" {
            let tone = try #require(analysis.channels[channel].spectral.tones.first, "\(name) has a tone")
            #expect(abs(tone.frequency - Self.frequency(of: name, in: positions)) < 2, "channel \(channel + 1) (\(name)) carries \(tone.frequency) Hz")
        }
    }

    @Test("sox's multichannel WAV files: the masks it writes (4, 6, 8 channels) read as ffprobe reads them; with none, ffmpeg's default")
    func soxFiles() throws {
        let layouts = try Self.standardLayouts()
        for channels in 3...8 {
            let path = scratch.file("sox\(channels).wav")
            let made = try run(try #require(which("sox")), ["-n", "-r", "48000", "-c", String(channels), "-b", "16", path, "synth", "0.1", "sine", "440"])
            try #require(made.status == 0, "sox: \(made.stderr)")
            let probe = try run(try #require(which("ffprobe")), ["-v", "error", "-show_entries", "stream=channel_layout", "-of", "csv=p=0", path])
            let reported = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let layout = try AudioFile.open(path).format.channelLayout
            if let positions = layouts[reported] {
                #expect(layout.source == .channelMask && layout.positions.map { $0?.abbreviation } == positions, "\(channels) channels: ffprobe \(reported)")
            } else {
                // No mask: ffprobe says "unknown", and ffmpeg itself assumes its default layout.
                #expect(layout.source == .assumed, "\(channels) channels: ffprobe \(reported), signalpath \(layout.names)")
            }
        }
    }
}
