import Foundation
import Testing
import SignalPathTestSupport

/// `info`'s bit rates against ffprobe and soxi, on files made by ffmpeg's encoders: the stated
/// rate is what ffprobe reads from the same headers; the measured rate is the stream's coded bytes
/// (the sum of ffprobe's packet sizes) × 8 over the decoded duration; PCM's is exact.
@Suite("info: bit rates")
struct InfoBitRateCLITests {
    let scratch = ScratchDirectory("bit-rate")

    /// 30 s of a 440 Hz tone and seeded noise, 44.1 kHz stereo, as 16-bit WAV.
    func source() throws -> String {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        let path = scratch.file("source.wav")
        let made = try run(
            ffmpeg,
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:duration=30:sample_rate=44100", "-f", "lavfi", "-i",
                "anoisesrc=duration=30:amplitude=0.1:seed=7:sample_rate=44100", "-filter_complex", "[0:a][1:a]amerge=inputs=2", path,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    /// `source` encoded by ffmpeg with `options` into `name`.
    func encode(_ source: String, _ name: String, _ options: [String]) throws -> String {
        let path = scratch.file(name)
        let made = try run(try #require(which("ffmpeg")), ["-v", "error", "-nostdin", "-i", source] + options + [path])
        try #require(made.status == 0, "\(name): \(made.stderr)")
        return path
    }

    /// ffprobe's stream `bit_rate` of the first audio stream (nil for N/A), its format `bit_rate` (8 × the
    /// file's size over its duration) and the sum of the stream's packets' sizes.
    func ffprobe(_ path: String) throws -> (streamBitRate: Double?, formatBitRate: Double?, packetBytes: Double) {
        let probe = try #require(which("ffprobe"), "ffprobe is missing: run `make setup`")
        let stream = try run(probe, ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=bit_rate", "-of", "csv=p=0", path])
        let format = try run(probe, ["-v", "error", "-show_entries", "format=bit_rate", "-of", "csv=p=0", path])
        let packets = try run(probe, ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
        // A packet with side data (the encoder's delay, its padding) is written `1044,`.
        let bytes = packets.stdout.split(separator: "\n").compactMap { line in line.split(separator: ",").first.flatMap { Double($0) } }.reduce(0, +)
        return (
            Double(stream.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), Double(format.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
            bytes
        )
    }

    /// soxi's "Bit Rate" (8 × the file's size over its duration, three significant figures: `672k`, `1.41M`).
    func soxiBitRate(_ path: String) throws -> Double? {
        guard let soxi = which("soxi") else { return nil }
        let line = try run(soxi, [path]).stdout.split(separator: "\n").first { $0.hasPrefix("Bit Rate") }
        guard let text = line?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces), let unit = text.last else { return nil }
        let scale: Double = unit == "k" ? 1e3 : unit == "M" ? 1e6 : 1
        return Double(scale == 1 ? text : String(text.dropLast())).map { $0 * scale }
    }

    /// The bytes of an Ogg file's audio pages: those of granule position other than 0 (the pages
    /// holding only the codec's headers have 0: Vorbis I §A.2, RFC 7845 §3), read page by page.
    func oggAudioPageBytes(_ path: String) throws -> Double {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 0, audio = 0
        while offset + 27 <= bytes.count {
            try #require(bytes[offset..<offset + 4].elementsEqual("OggS".utf8), "no page at \(offset)")
            let granule = bytes[offset + 6..<offset + 14].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let segments = Int(bytes[offset + 26])
            let size = 27 + segments + bytes[offset + 27..<offset + 27 + segments].reduce(0) { $0 + Int($1) }
            if granule != 0 { audio += size }
            offset += size
        }
        return Double(audio)
    }

    struct Reading {
        var stated: Double?
        var measured: Double?
        var seconds: Double
        var text: String
    }

    func info(_ path: String) throws -> Reading {
        let result = try signalpath("info", path, "--format", "json")
        let file = try #require((try json(result)["files"] as? [[String: Any]])?.first, "\(result.stderr)")
        let text = try signalpath("info", path).stdout
        return Reading(
            stated: (file["bit_rate"] as? NSNumber)?.doubleValue, measured: (file["measured_bit_rate"] as? NSNumber)?.doubleValue,
            seconds: try #require(file["duration_s"] as? Double), text: text)
    }

    @Test("stated as ffprobe reads it; measured from ffprobe's packets over the decoded duration; PCM exact")
    func againstFFprobe() throws {
        let source = try source()
        let cover = scratch.file("cover.ppm")
        FileManager.default.createFile(atPath: cover, contents: Data(Array("P6\n16 16\n255\n".utf8) + [UInt8](repeating: 200, count: 16 * 16 * 3)))
        // Exact: the bytes between the headers and the closing tags are the packets, to the byte
        // (a bit per second of rounding either way).
        let exact: [(name: String, options: [String])] = [
            // CBR with cover art in its ID3v2 tag and an ID3v1 tag at the end: neither is audio.
            ("cbr.mp3", ["-i", cover, "-map", "0:a", "-map", "1:v", "-c:v", "png", "-c:a", "libmp3lame", "-b:a", "128k", "-metadata", "title=Tone", "-write_id3v1", "1"]),
            ("vbr.mp3", ["-c:a", "libmp3lame", "-q:a", "4"]),
            ("aac.m4a", ["-c:a", "aac", "-b:a", "160k"]),
            ("lossless.flac", ["-c:a", "flac"]),
        ]
        for (name, options) in exact {
            let path = try encode(source, name, options)
            let ours = try info(path), theirs = try ffprobe(path)
            let reference = theirs.packetBytes * 8 / ours.seconds
            let measured = try #require(ours.measured, "\(name): \(ours.text)")
            #expect(abs(measured - reference) <= 1, "\(name): measured \(measured), packets \(reference)")
            // ffprobe's stream bit rate is FFmpeg's reading of the headers: MP3's first frame (CBR)
            // or Xing average (VBR), the M4A's (FFmpeg's own sum of its sample table); FLAC states none.
            #expect(ours.stated.map { $0.rounded() } == theirs.streamBitRate, "\(name): stated \(ours.stated ?? -1), ffprobe \(theirs.streamBitRate ?? -1)")
            #expect(ours.text.contains(" kb/s"), "\(name): \(ours.text)")
            try expectNearFormatRate(name, measured, theirs.formatBitRate)
        }
        // Ogg: the audio pages, whose 27-byte headers and lacing values are 0.5–1 % of the packets.
        for (name, options) in [("speech.opus", ["-c:a", "libopus", "-b:a", "96k"]), ("music.ogg", ["-c:a", "libvorbis", "-q:a", "4"])] {
            let path = try encode(source, name, options)
            let ours = try info(path), theirs = try ffprobe(path)
            let measured = try #require(ours.measured, "\(name): \(ours.text)")
            #expect(abs(measured - (try oggAudioPageBytes(path)) * 8 / ours.seconds) <= 1, "\(name): not the audio pages' bytes")
            let framing = measured / (theirs.packetBytes * 8 / ours.seconds) - 1
            #expect(framing > 0.002 && framing < 0.015, "\(name): pages \(framing * 100) % above the packets")
            // Vorbis states its nominal rate (-q 4: 128 kb/s), Opus none.
            #expect(ours.stated.map { $0.rounded() } == theirs.streamBitRate, "\(name): stated \(ours.stated ?? -1), ffprobe \(theirs.streamBitRate ?? -1)")
            try expectNearFormatRate(name, measured, theirs.formatBitRate)
        }
        // PCM: rate × channels × bits, exactly; said so.
        let wav = try info(source)
        #expect(wav.stated == 1_411_200 && wav.measured == 1_411_200)
        #expect(wav.text.contains("bit rate       1411.2 kb/s, exact (PCM: 44100 Hz, 2 channels, 16 bits)"), "\(wav.text)")
        #expect(try ffprobe(source).streamBitRate == 1_411_200)
    }

    /// ffprobe's format bit rate counts every byte of the file over its own duration: the MP4's
    /// index (1.1 % of the 30 s M4A), Vorbis's setup header (1.1 %), FLAC's metadata (0.3 %), and
    /// for MP3 the encoder's delay and padding (30.041 s against the 30.000 s decoded: 0.14 %).
    func expectNearFormatRate(_ name: String, _ measured: Double, _ format: Double?) throws {
        let format = try #require(format, "\(name): ffprobe has no format bit rate")
        #expect(abs(measured / format - 1) < 0.015, "\(name): measured \(measured), ffprobe's format \(format)")
    }

    @Test("soxi's bit rate counts the whole file: within its rounding and the headers of ours")
    func againstSoxi() throws {
        let source = try source()
        let flac = try encode(source, "lossless.flac", ["-c:a", "flac"])
        for (path, tolerance) in [(source, 0.004), (flac, 0.01)] {
            guard let soxi = try soxiBitRate(path) else { return }
            let ours = try #require(try info(path).measured)
            // soxi rounds to three figures (at most 0.4 % here) and counts the headers as well
            // (44 bytes of the WAV; STREAMINFO, seek table and tags of the FLAC: 0.3 %).
            #expect(abs(ours - soxi) / soxi < tolerance, "\(path): ours \(ours), soxi \(soxi)")
        }
    }

    @Test("tags appended to an MP3 (APEv2, ID3v1) change its size, not its measured bit rate")
    func appendedTags() throws {
        let path = try encode(try source(), "plain.mp3", ["-c:a", "libmp3lame", "-b:a", "96k"])
        let plain = try #require(try info(path).measured)
        // An APEv2 tag with a header (flag bit 31), one item, then an ID3v1 tag.
        func apeBlock(size: UInt32, isHeader: Bool) -> [UInt8] {
            func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
            return Array("APETAGEX".utf8) + le(2000) + le(size) + le(1) + le(1 << 31 | (isHeader ? 1 << 29 : 0)) + [UInt8](repeating: 0, count: 8)
        }
        let item: [UInt8] = [5, 0, 0, 0, 0, 0, 0, 0] + Array("Title".utf8) + [0] + Array("Hello".utf8)
        let ape = apeBlock(size: UInt32(item.count + 32), isHeader: true) + item + apeBlock(size: UInt32(item.count + 32), isHeader: false)
        let id3v1 = Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125)
        let tagged = scratch.write("tagged.mp3", [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) + ape + id3v1)
        let reading = try info(tagged)
        #expect(reading.measured == plain, "\(reading.text)")
    }
}
