import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// Every container/encoding pair the builder can write.
let pcmCases: [(PCMFileBuilder.Container, PCMFileBuilder.Encoding)] = PCMFileBuilder.Container.allCases.flatMap { container in
    PCMFileBuilder.Encoding.allCases.map { (container, $0) }
}.filter { PCMFileBuilder(container: $0.0, encoding: $0.1, channels: 1, sampleRate: 8000).isValid }

extension PCMFileBuilder.Container {
    var expectedContainer: Container {
        switch self {
        case .wav: return .wav
        case .wavExtensible: return .wavex
        case .rf64: return .rf64
        case .w64: return .w64
        case .aiff, .aifcSowt: return .aiff
        }
    }
}

extension PCMFileBuilder.Encoding {
    var expectedSampleFormat: SampleFormat {
        switch self {
        case .unsigned8: return .pcm(bits: 8, signed: false)
        case .signed8: return .pcm(bits: 8, signed: true)
        case .signed16: return .pcm(bits: 16, signed: true)
        case .signed24: return .pcm(bits: 24, signed: true)
        case .signed32: return .pcm(bits: 32, signed: true)
        case .float32: return .float(bits: 32)
        case .float64: return .float(bits: 64)
        }
    }
}

/// A test signal touching the extremes: a stereo sine pair, seeded noise, and full-scale values.
func testSignal(channels: Int, frames: Int, sampleRate: Int) -> [Double] {
    var samples = Signals.sines(
        frequencies: [440, 1000, 3000].prefix(channels).map { $0 }, amplitude: 0.5,
        sampleRate: sampleRate, frames: frames)
    let noise = Signals.noise(count: samples.count, amplitude: 0.25, seed: 3)
    for index in samples.indices { samples[index] += noise[index] }
    for index in 0..<min(channels * 4, samples.count) { samples[index] = [-1.0, 0.999_999, -0.5, 0][index % 4] }
    return samples
}

@Suite("Decoding")
struct DecodingTests {
    let scratch = ScratchDirectory("decoding")

    @Test(
        "each PCM container and encoding decodes to the exact sample values, with both decoders",
        arguments: pcmCases.map { "\($0.0)/\($0.1)" })
    func pcmExactValues(name: String) throws {
        let (container, encoding) = pcmCases.first { "\($0.0)/\($0.1)" == name }!
        for channels in [1, 2, 3] {
            let builder = PCMFileBuilder(container: container, encoding: encoding, channels: channels, sampleRate: 44_100)
            let frames = 10_007
            let signal = testSignal(channels: channels, frames: frames, sampleRate: 44_100)
            let path = scratch.write("\(container)-\(encoding)-\(channels).bin", builder.file(samples: signal))
            let expected = signal.map(builder.expectedSample(for:))
            for decoding in [AudioFile.Decoding.automatic, .libsndfile] {
                let file = try AudioFile.open(path, decoding: decoding)
                #expect(file.format.container == container.expectedContainer)
                #expect(file.format.sampleFormat == encoding.expectedSampleFormat)
                #expect(file.format.sampleRate == 44_100)
                #expect(file.format.channels == channels)
                #expect(file.format.frames == Int64(frames))
                #expect(file.usesDirectPCM == (decoding == .automatic), "direct PCM applies to \(name)")
                let decoded = try file.readFrames(0..<Int64(frames))
                let difference = firstBitDifference(decoded, expected)
                #expect(difference == nil, "\(name) \(channels) ch \(decoding)")
            }
        }
    }

    @Test(
        "direct PCM conversion is bit-identical to libsndfile on random bit patterns",
        arguments: pcmCases.map { "\($0.0)/\($0.1)" })
    func directEqualsLibsndfile(name: String) throws {
        let (container, encoding) = pcmCases.first { "\($0.0)/\($0.1)" == name }!
        let builder = PCMFileBuilder(container: container, encoding: encoding, channels: 2, sampleRate: 48_000)
        var random = SeededGenerator(seed: 77)
        var data: [UInt8] = []
        for _ in 0..<(2 * 30_000) { builder.appendRaw(random.next(), to: &data) }
        let path = scratch.write("raw-\(container)-\(encoding).bin", builder.file(encodedData: data))
        let direct = try AudioFile.open(path, decoding: .directPCM)
        let reference = try AudioFile.open(path, decoding: .libsndfile)
        let a = try direct.readFrames(0..<30_000), b = try reference.readFrames(0..<30_000)
        #expect(a.count == 60_000)
        let difference = firstBitDifference(a, b)
        #expect(difference == nil)
    }

    @Test("frames that straddle cache blocks decode exactly", arguments: pcmCases.map { "\($0.0)/\($0.1)" })
    func straddlingFrames(name: String) throws {
        let (container, encoding) = pcmCases.first { "\($0.0)/\($0.1)" == name }!
        let builder = PCMFileBuilder(container: container, encoding: encoding, channels: 3, sampleRate: 8000)
        let signal = testSignal(channels: 3, frames: 5000, sampleRate: 8000)
        let path = scratch.write("straddle-\(container)-\(encoding).bin", builder.file(samples: signal))
        // 1000-byte blocks: no frame size here divides it, so frames keep crossing block edges.
        let file = try AudioFile(file: CachedFile(path: path, cacheBytes: 8000, blockSize: 1000), decoding: .directPCM)
        let reader = try file.makeReader()
        var decoded: [Float] = []
        var buffer = [Float](repeating: 0, count: 777 * 3)
        while case let count = try reader.read(into: &buffer, frames: 777), count > 0 { decoded += buffer[0..<count * 3] }
        #expect(firstBitDifference(decoded, signal.map(builder.expectedSample(for:))) == nil)
    }

    @Test("random frame ranges read the same as the whole file, with both decoders")
    func randomRanges() throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed24, channels: 2, sampleRate: 48_000)
        let frames = 200_000
        let signal = testSignal(channels: 2, frames: frames, sampleRate: 48_000)
        let path = scratch.write("ranges.wav", builder.file(samples: signal))
        let expected = signal.map(builder.expectedSample(for:))
        var random = SeededGenerator(seed: 8)
        for decoding in [AudioFile.Decoding.directPCM, .libsndfile] {
            let file = try AudioFile.open(path, decoding: decoding).makeReader()
            for _ in 0..<200 {
                let start = Int.random(in: 0...frames, using: &random)
                let count = Int.random(in: 0...30_000, using: &random)
                let got = try file.readFrames(Int64(start)..<Int64(start + count))
                let end = min(start + count, frames)
                let difference = firstDifference(got, Array(expected[start * 2..<end * 2]))
                #expect(difference == nil, "\(decoding) \(start)..<\(start + count)")
            }
        }
    }

    @Test("a data chunk claiming more bytes than the file holds reads the frames that are there")
    func truncatedData() throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: 8000)
        let signal = testSignal(channels: 2, frames: 1000, sampleRate: 8000)
        let whole = builder.file(samples: signal)
        let path = scratch.write("truncated.wav", Array(whole.prefix(whole.count - 401)))  // cut mid-frame
        for decoding in [AudioFile.Decoding.automatic, .libsndfile] {
            let file = try AudioFile.open(path, decoding: decoding)
            let frames = try #require(file.format.frames)
            #expect(frames == 899, "\(decoding)")
            let got = try file.readFrames(0..<1000)
            let difference = firstDifference(got, signal.prefix(Int(frames) * 2).map(builder.expectedSample(for:)))
            #expect(difference == nil)
        }
    }

    @Test("tags are read, as the file has them")
    func metadata() throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 8000)
        let tags = PCMFileBuilder.infoChunk([("INAM", "Take 3 — ♪ A4"), ("IART", "Quartet"), ("ICMT", "bell \u{1B}[31m red")])
        let path = scratch.write("tagged.wav", builder.file(samples: [0, 0.5, -0.5, 0]) + tags)
        let file = try AudioFile.open(path)
        #expect(file.metadata.first { $0.key == "title" }?.value == "Take 3 — ♪ A4")
        #expect(file.metadata.first { $0.key == "artist" }?.value == "Quartet")
        #expect(file.metadata.first { $0.key == "comment" }?.value == "bell \u{1B}[31m red")
        #expect(
            FileInfo(path: path, format: file.format, metadata: file.metadata, fileSize: nil, decoder: "").text
                .contains("bell \\e[31m red"))
    }

    @Test("a WAV or RF64 of plain PCM and nothing else opens without libsndfile as libsndfile reads it; tags, a trailing chunk, a cut or Wave64 go to libsndfile")
    func plainFilesWithoutLibsndfile() throws {
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing: run `make setup`")
        // (file, made by, opened by this parser alone)
        var cases: [(String, [String], Bool)] = []
        for (name, options) in [("s16", ["-b", "16"]), ("s24", ["-b", "24"]), ("u8", ["-b", "8"]), ("f64", ["-e", "floating-point", "-b", "64"])] {
            cases.append(("sox-\(name).wav", [sox, "-n", "-r", "44100", "-c", "2"] + options + [scratch.file("sox-\(name).wav"), "synth", "0.5", "sine", "440"], true))
        }
        let lavfi = ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=1000:d=0.5"]
        cases += [
            ("ffmpeg-6ch.wav", [ffmpeg] + lavfi + ["-ac", "6", "-fflags", "+bitexact", scratch.file("ffmpeg-6ch.wav")], true),
            ("ffmpeg-f32.wav", [ffmpeg] + lavfi + ["-ac", "2", "-c:a", "pcm_f32le", "-fflags", "+bitexact", scratch.file("ffmpeg-f32.wav")], true),
            ("ffmpeg.rf64", [ffmpeg] + lavfi + ["-ac", "2", "-fflags", "+bitexact", "-rf64", "always", "-f", "wav", scratch.file("ffmpeg.rf64")], true),
            // ffmpeg's own LIST/INFO (ISFT "Lavf…") before the samples.
            ("ffmpeg-tagged.wav", [ffmpeg] + lavfi + ["-ac", "2", "-metadata", "title=Take 3", scratch.file("ffmpeg-tagged.wav")], false),
            ("ffmpeg.w64", [ffmpeg] + lavfi + ["-ac", "2", "-f", "w64", scratch.file("ffmpeg.w64")], false),
        ]
        for (name, command, _) in cases {
            #expect(try run(command[0], Array(command.dropFirst())).status == 0, "\(name)")
        }
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: 8000)
        let plain = builder.file(samples: testSignal(channels: 2, frames: 4000, sampleRate: 8000))
        _ = scratch.write("trailing-tags.wav", plain + PCMFileBuilder.infoChunk([("INAM", "after the samples")]))
        _ = scratch.write("cut.wav", Array(plain.dropLast(1001)))
        cases += [("trailing-tags.wav", [], false), ("cut.wav", [], false)]

        for (name, _, alone) in cases {
            let path = scratch.file(name)
            let file = try AudioFile.open(path)
            let reference = try AudioFile.open(path, decoding: .libsndfile)
            #expect((file.layout?.holdsNothingElse ?? false) == alone, "\(name)")
            let format = file.format, stated = reference.format
            #expect(format.container == stated.container && format.sampleFormat == stated.sampleFormat, "\(name)")
            #expect(format.sampleRate == stated.sampleRate && format.channels == stated.channels, "\(name)")
            #expect(format.frames == stated.frames && format.framesPromised == stated.framesPromised, "\(name)")
            #expect(format.channelLayout.positions == stated.channelLayout.positions, "\(name)")
            #expect(file.metadata == reference.metadata, "\(name)")
            let frames = try #require(format.frames)
            #expect(firstBitDifference(try file.readFrames(0..<frames), try reference.readFrames(0..<frames)) == nil, "\(name)")
        }
    }

    @Test("reopened decoders share the cache and read independently on several threads")
    func reopenedInParallel() throws {
        let builder = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 2, sampleRate: 48_000)
        let frames = 400_000
        let signal = testSignal(channels: 2, frames: frames, sampleRate: 48_000)
        let path = scratch.write("parallel.wav", builder.file(samples: signal))
        let expected = signal.map(builder.expectedSample(for:))
        for decoding in [AudioFile.Decoding.directPCM, .libsndfile] {
            let file = try AudioFile.open(path, decoding: decoding)
            let failures = Counter()
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                guard let own = try? file.makeReader() else { return failures.increment() }
                let range = worker * 100_000..<(worker + 1) * 100_000
                let got = try? own.readFrames(Int64(range.lowerBound)..<Int64(range.upperBound))
                if got != Array(expected[range.lowerBound * 2..<range.upperBound * 2]) { failures.increment() }
            }
            #expect(failures.value == 0)
        }
    }

    /// Opens `bytes` through a named pipe, as a stream, and decodes everything.
    func decodeThroughPipe(_ bytes: [UInt8], name: String) throws -> (AudioFile, [Float]) {
        let fifo = scratch.file(name)
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)!
            handle.write(Data(bytes))
            handle.closeFile()
        }
        writer.start()
        let file = try AudioFile.open(fifo)
        let reader = try file.makeReader()
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096 * file.format.channels)
        while case let count = try reader.read(into: &buffer, frames: 4096), count > 0 {
            samples += buffer[0..<count * file.format.channels]
        }
        return (file, samples)
    }

    @Test(
        "PCM streams decode as they arrive, with real or placeholder sizes in the header",
        arguments: [PCMFileBuilder.Container.wav, .wavExtensible, .rf64, .w64, .aiff, .aifcSowt])
    func pcmStream(container: PCMFileBuilder.Container) throws {
        let builder = PCMFileBuilder(container: container, encoding: .signed16, channels: 2, sampleRate: 16_000)
        let signal = testSignal(channels: 2, frames: 150_000, sampleRate: 16_000)
        let expected = signal.map(builder.expectedSample(for:))
        var placeholder = builder.file(samples: signal)
        // What a writer to a pipe does: it cannot go back to fill in the sizes.
        switch container {
        case .wav, .wavExtensible:
            placeholder.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
            placeholder.replaceSubrange(
                builder.header(dataBytes: 0).count - 4..<builder.header(dataBytes: 0).count,
                with: [0xFF, 0xFF, 0xFF, 0xFF])
        case .w64:
            let header = builder.header(dataBytes: 0).count
            placeholder.replaceSubrange(header - 8..<header, with: [UInt8](repeating: 0xFF, count: 8))
        default:
            break
        }
        let hasPlaceholder = [.wav, .wavExtensible, .w64].contains(container)
        // Four bytes after the data: a sized stream stops before them; with a placeholder they are
        // one more frame (the header cannot say where the samples end).
        let trailing: [UInt8] = [1, 2, 3, 4]
        let extraFrame: [Float] = [Float(0x0201) / 32768, Float(0x0403) / 32768]
        for (name, bytes, wanted) in [
            ("sized", builder.file(samples: signal) + trailing, expected),
            ("placeholder", placeholder + trailing, hasPlaceholder ? expected + extraFrame : expected),
        ] {
            let fifo = "\(container)-\(name)"
            let (file, samples) = try decodeThroughPipe(bytes, name: fifo)
            #expect(!file.isSeekable && file.usesDirectPCM)
            #expect(file.format.frames == nil, "a stream's length is known once it is read")
            #expect(file.format.container == container.expectedContainer)
            #expect(firstDifference(samples, wanted) == nil, "\(container) \(name)")
            #expect(throws: SignalPathError.notSeekable(path: scratch.file(fifo))) { try file.makeReader() }
        }
    }

    @Test("compressed streams are spooled to a temporary file and decoded by libsndfile")
    func flacStream() throws {
        let (wav, expected) = try {
            let builder = PCMFileBuilder(container: .wav, encoding: .signed24, channels: 1, sampleRate: 48_000)
            let signal = testSignal(channels: 1, frames: 70_000, sampleRate: 48_000)
            return (scratch.write("for-flac.wav", builder.file(samples: signal)), signal.map(builder.expectedSample(for:)))
        }()
        let flac = scratch.file("stream.flac")
        let sox = try #require(which("sox"), "sox is missing: run `make setup`")
        #expect(try run(sox, [wav, flac]).status == 0)
        let (file, samples) = try decodeThroughPipe(Array(try Data(contentsOf: URL(fileURLWithPath: flac))), name: "flac-pipe")
        #expect(file.format.container == .flac && file.format.frames == 70_000)
        #expect(firstBitDifference(samples, expected) == nil)
    }

    @Test("files that are not audio are rejected with a reason")
    func notAudio() throws {
        let text = scratch.write("notes.txt", Array("just some text, not audio at all\n".utf8))
        #expect(throws: SignalPathError.unrecognizedFormat(path: text, reason: "not a recognised audio format")) {
            try AudioFile.open(text)
        }
        let empty = scratch.write("empty.wav", [])
        #expect(throws: SignalPathError.self) { try AudioFile.open(empty) }
        let header = PCMFileBuilder(container: .wav, encoding: .signed16, channels: 1, sampleRate: 8000).header(dataBytes: 0)
        let cut = scratch.write("cut.wav", Array(header.prefix(20)))
        #expect(throws: SignalPathError.self) { try AudioFile.open(cut) }
    }
}
