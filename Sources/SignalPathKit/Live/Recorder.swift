/// Records interleaved PCM from standard input or an ALSA capture device into a file, showing
/// live frames as it goes. Every block is written as it arrives, and the file's header is rewritten
/// after each write, so the file is valid at every moment; stopping (end of input, --duration, a
/// signal, a failed write) closes it properly.
public final class Recorder {
    /// Raw sample formats of the input.
    public enum RawFormat: String, Sendable, CaseIterable {
        case s16le, s24le, s32le, f32le

        public var bytesPerSample: Int { self == .s16le ? 2 : self == .s24le ? 3 : 4 }

        /// How the file stores them: exactly, sample for sample.
        /// What the file stores, as analyze will read it.
        public var sampleFormat: SampleFormat { self == .f32le ? .float(bits: 32) : .pcm(bits: bytesPerSample * 8, signed: true) }

        public var encoding: SoundFileWriter.Encoding {
            switch self {
            case .s16le: return .pcm16
            case .s24le: return .pcm24
            case .s32le: return .pcm32
            case .f32le: return .float32
            }
        }
    }

    public enum Source: Sendable {
        case standardInput
        /// Raw PCM from an open descriptor (a pipe or a file), read to its end; not closed here.
        case descriptor(Int32)
        case device(String)
    }

    /// What was recorded.
    public struct Summary: Sendable {
        public var frames: Int64
        public var seconds: Double
        public var bytes: Int64
        public var statistics: [LevelStatistics]
        /// Why recording stopped: "end of input", "duration reached", a signal name.
        public var stoppedBy: String

        /// `take.wav: recorded 12.300 s (590 400 frames, 2.25 MiB), peak -3.21 dBFS, 0 clipped samples; stopped by SIGINT`:
        /// clipped samples as analyze counts them in the file written (runs of at least 3 at full scale).
        public func line(path: String) -> String {
            let peak = statistics.map(\.peak).max() ?? 0
            let clipped = statistics.reduce(0) { $0 + $1.clippedSamples }
            return "\(TerminalText.sanitized(path)): recorded \(UnitFormat.time(seconds)) (\(UnitFormat.grouped(frames)) frames, "
                + "\(UnitFormat.bytes(bytes))), peak " + (peak > 0 ? UnitFormat.fixed(20 * log10(Double(peak)), 2) : "-inf")
                + " dBFS, \(UnitFormat.grouped(clipped)) clipped sample\(clipped == 1 ? "" : "s"); stopped by \(stoppedBy)"
        }
    }

    public let path: String
    public let source: Source
    public let format: RawFormat
    public let sampleRate: Int
    public let channels: Int
    public let analyzer: LiveAnalyzer
    /// The channels' positions: the default layout for the count (capture says nothing of them).
    private let layout: ChannelLayout
    private let writer: SoundFileWriter
    private let device: ALSADevice?

    public init(
        path: String, source: Source, format: RawFormat, sampleRate: Int, channels: Int, overwrite: Bool,
        fftSize: Int, bands: Int?
    ) throws(SignalPathError) {
        self.path = path
        self.source = source
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        // Before a device is opened: a wrong name is the first thing to say.
        _ = try SoundFileWriter.containerExtension(of: path)
        if case .device(let name) = source {
            guard format == .s16le || format == .f32le else {
                throw .invalidRequest(path: name, reason: "capture from a device takes --raw s16le or f32le")
            }
            device = try ALSADevice(
                name: name, direction: .capture, sampleRate: sampleRate, channels: channels,
                sampleType: format == .s16le ? .int16 : .float32)
        } else {
            device = nil
        }
        writer = try SoundFileWriter(
            path: path, sampleRate: sampleRate, channels: channels, encoding: format.encoding,
            overwrite: overwrite)
        // Capture says nothing of positions: the names are those of the default layout for the count.
        layout = ChannelLayout.assumed(channels: channels, container: .wav, sampleFormat: .float(bits: 32))
        analyzer = LiveAnalyzer(sampleRate: sampleRate, layout: layout, sampleFormat: format.sampleFormat, fftSize: fftSize, bands: bands)
    }

    /// Records until the input ends, `duration` seconds are recorded, a stop signal arrives or
    /// `onFrame` returns false; calls `onFrame` `framesPerSecond` times per second of audio with
    /// the live frame, the frames written and the samples clipped so far (the summary's count).
    public func run(
        duration: Double?, framesPerSecond: Double,
        onFrame: (LiveFrame, _ written: Int64, _ clipped: Int64) -> Bool
    ) throws(SignalPathError) -> Summary {
        let block = max(1, Int(Double(sampleRate) / framesPerSecond))
        let limit = duration.map { Int64(($0 * Double(sampleRate)).rounded()) }
        let bytesPerFrame = format.bytesPerSample * channels
        var raw = [UInt8](repeating: 0, count: block * bytesPerFrame)
        var stored = [UInt8](repeating: 0, count: block * channels * format.encoding.bytesPerSample)
        var floats = [Float](repeating: 0, count: block * channels)
        var meters = Meters(block: block, channels: channels, windowSize: analyzer.windowSize, sampleRate: sampleRate, layout: layout, analyzer: analyzer)
        var stoppedBy = "end of input"
        var failure: SignalPathError?
        recording: while true {
            if StopSignals.stopRequested {
                stoppedBy = Self.name(of: StopSignals.received!)
                break
            }
            var wanted = block
            if let limit { wanted = Int(min(Int64(block), limit - writer.framesWritten)) }
            guard wanted > 0 else {
                stoppedBy = "duration reached"
                break
            }
            let frames: Int
            do throws(SignalPathError) {
                frames = try read(into: &raw, frames: wanted, bytesPerFrame: bytesPerFrame)
            } catch {
                failure = error
                break
            }
            if frames == 0 {
                if StopSignals.stopRequested { continue recording }
                break
            }
            convert(raw, frames: frames, stored: &stored, floats: &floats)
            let written = stored.withUnsafeBytes { bytes in
                Result { () throws(SignalPathError) in try writer.write(bytes, frames: frames) }
            }
            if case .failure(let error) = written {
                failure = error
                break
            }
            let frame = measure(floats, frames: frames, meters: &meters)
            if !onFrame(frame, writer.framesWritten, meters.statistics.reduce(0) { $0 + $1.clippedSamples }) {
                stoppedBy = "stopped"
                break
            }
        }
        return try finish(statistics: meters.statistics, stoppedBy: stoppedBy, failure: failure)
    }

    /// What the live view and the summary keep across blocks: the spectrum's window (the latest
    /// `windowSize` frames), a channel's column of the block, the loudness meter and the levels.
    private struct Meters {
        var window: [Float]
        var column: [Float]
        var loudness: LoudnessMeter
        var statistics: [LevelStatistics]
        /// analyze's rule for the file written: its full scale, its shortest clipping run.
        let rules: LevelStatistics.Rules

        init(block: Int, channels: Int, windowSize: Int, sampleRate: Int, layout: ChannelLayout, analyzer: LiveAnalyzer) {
            window = [Float](repeating: 0, count: windowSize * channels)
            column = [Float](repeating: 0, count: block)
            loudness = LoudnessMeter(sampleRate: sampleRate, layout: layout)
            statistics = [LevelStatistics](repeating: LevelStatistics(), count: channels)
            rules = LevelStatistics.Rules(fullScale: analyzer.fullScale, minimumClipRun: analyzer.minimumClipRun, silenceThreshold: 0.001)
        }
    }

    /// A block just written (`frames` interleaved frames of `floats`): the levels for the summary,
    /// the spectrum's window, the loudness, and its live frame.
    private func measure(_ floats: [Float], frames: Int, meters: inout Meters) -> LiveFrame {
        for channel in 0..<channels {
            for frame in 0..<frames { meters.column[frame] = floats[frame * channels + channel] }
            meters.column.withUnsafeBufferPointer { column in
                _ = meters.statistics[channel].accumulate(
                    UnsafeBufferPointer(rebasing: column[0..<frames]),
                    firstFrame: writer.framesWritten - Int64(frames), rules: meters.rules)
            }
        }
        let windowSize = analyzer.windowSize
        let kept = max(0, windowSize - frames)
        meters.window.withUnsafeMutableBufferPointer { window in
            let base = window.baseAddress!
            if kept > 0 { base.update(from: base + (windowSize - kept) * channels, count: kept * channels) }
        }
        let copied = min(frames, windowSize)
        for index in 0..<copied * channels { meters.window[kept * channels + index] = floats[(frames - copied) * channels + index] }
        floats.withUnsafeBufferPointer { floats in meters.loudness.feed(UnsafeBufferPointer(rebasing: floats[0..<frames * channels])) }
        var frame = floats.withUnsafeBufferPointer { floats in
            meters.window.withUnsafeBufferPointer { window in
                analyzer.frame(
                    time: Double(writer.framesWritten) / Double(sampleRate),
                    recent: UnsafeBufferPointer(rebasing: floats[0..<frames * channels]), window: window)
            }
        }
        frame.momentary = meters.loudness.momentary
        frame.shortTerm = meters.loudness.shortTerm
        return frame
    }

    /// Closes the device and the file and sums up; throws the first failure (a read's or a
    /// write's, else closing's).
    private func finish(statistics: [LevelStatistics], stoppedBy: String, failure: SignalPathError?) throws(SignalPathError) -> Summary {
        device?.close()
        // Closing writes the final header; after a failed write it still leaves a valid file of
        // everything written before.
        let closing: SignalPathError?
        do throws(SignalPathError) {
            try writer.close()
            closing = nil
        } catch { closing = error }
        if let failure = failure ?? closing { throw failure }
        var info = stat()
        let bytes = stat(path, &info) == 0 ? Int64(info.st_size) : 0
        return Summary(
            frames: writer.framesWritten, seconds: Double(writer.framesWritten) / Double(sampleRate), bytes: bytes,
            statistics: statistics, stoppedBy: stoppedBy)
    }

    /// Reads up to `frames` whole frames; 0 at the end of the input (or when a signal interrupts).
    private func read(into raw: inout [UInt8], frames: Int, bytesPerFrame: Int) throws(SignalPathError) -> Int {
        if let device {
            return try raw.withUnsafeMutableBytes { buffer in
                Result { () throws(SignalPathError) in try device.capture(into: buffer, frames: frames) }
            }.get()
        }
        let wanted = frames * bytesPerFrame
        var filled = 0
        let descriptor: Int32 = if case .descriptor(let number) = source { number } else { 0 }
        while filled < wanted {
            let count = raw.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, wanted - filled) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR {
                    if StopSignals.stopRequested { break }
                    continue
                }
                throw .io(path: "-", errno: errno, offset: nil)
            }
            filled += count
        }
        return filled / bytesPerFrame  // a partial frame at the very end is dropped
    }

    /// Raw input → the file's sample type (exactly) and Floats for the live view.
    private func convert(_ raw: [UInt8], frames: Int, stored: inout [UInt8], floats: inout [Float]) {
        let count = frames * channels
        raw.withUnsafeBytes { input in
            stored.withUnsafeMutableBytes { output in
                switch format {
                case .s16le:
                    for index in 0..<count {
                        let value = Int16(littleEndian: input.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))
                        output.storeBytes(of: value, toByteOffset: index * 2, as: Int16.self)
                        floats[index] = Float(value) / 32768
                    }
                case .s24le:
                    for index in 0..<count {
                        let value = Int32(bitPattern: UInt32(input[index * 3]) << 8 | UInt32(input[index * 3 + 1]) << 16 | UInt32(input[index * 3 + 2]) << 24)
                        output.storeBytes(of: value, toByteOffset: index * 4, as: Int32.self)
                        floats[index] = Float(value) / 2_147_483_648
                    }
                case .s32le:
                    for index in 0..<count {
                        let value = Int32(littleEndian: input.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
                        output.storeBytes(of: value, toByteOffset: index * 4, as: Int32.self)
                        floats[index] = Float(value) / 2_147_483_648
                    }
                case .f32le:
                    for index in 0..<count {
                        let value = Float(bitPattern: UInt32(littleEndian: input.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
                        output.storeBytes(of: value, toByteOffset: index * 4, as: Float.self)
                        floats[index] = value
                    }
                }
            }
        }
    }

    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }
}
