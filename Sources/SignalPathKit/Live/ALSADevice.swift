import CALSA

/// A PCM device of ALSA, for playing or capturing interleaved frames: the only file that talks to
/// libasound.
///
/// Opened blocking, as 32-bit float or 16-bit integer interleaved (`plug` layers convert for the
/// hardware). Not Sendable: one thread owns a device; `close()` (or deinit) releases it.
public final class ALSADevice {
    public enum Direction: Sendable {
        case playback, capture
    }

    public enum SampleType: Sendable {
        case float32, int16
    }

    public let name: String
    public let direction: Direction
    public let sampleRate: Int
    public let channels: Int
    public let sampleType: SampleType
    private var handle: OpaquePointer?

    /// Opens `name` (`default`, `null`, `hw:0`, …) with `channels` at `sampleRate` and about
    /// `latency` seconds of buffer.
    /// - Throws: `SignalPathError.device` with ALSA's message.
    public init(
        name: String, direction: Direction, sampleRate: Int, channels: Int, sampleType: SampleType = .float32,
        latency: Double = 0.1
    ) throws(SignalPathError) {
        self.name = name
        self.direction = direction
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleType = sampleType
        signalpath_alsa_quiet()
        var pcm: OpaquePointer?
        let stream = direction == .playback ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE
        let opened = snd_pcm_open(&pcm, name, stream, 0)
        if opened == -ENOENT || opened == -ENODEV {
            // What alsa-lib says when there is no sound card, or no such device: say where to look.
            let lister = direction == .playback ? "aplay -L" : "arecord -L"
            throw .device(name: name, reason: "cannot open: \(String(cString: snd_strerror(opened))) (no sound card? list devices with \(lister))")
        }
        try Self.check(opened, name: name, doing: "open")
        handle = pcm
        let format = sampleType == .float32 ? SND_PCM_FORMAT_FLOAT_LE : SND_PCM_FORMAT_S16_LE
        let status = snd_pcm_set_params(
            pcm, format, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(sampleRate),
            1, UInt32(max(10_000, latency * 1_000_000)))
        if status < 0 {
            snd_pcm_close(pcm)
            handle = nil
            try Self.check(status, name: name, doing: "configure (\(channels) channels at \(sampleRate) Hz)")
        }
    }

    deinit { close() }

    /// Plays `frames` frames of `samples` (interleaved Float); waits while the device's buffer is
    /// full, so the audio clock paces the caller. Recovers from an underrun once.
    public func play(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(SignalPathError) {
        precondition(direction == .playback && sampleType == .float32 && samples.count >= frames * channels)
        var done = 0
        while done < frames, let handle {
            let written = snd_pcm_writei(handle, samples.baseAddress! + done * channels, snd_pcm_uframes_t(frames - done))
            if written < 0 {
                try Self.check(Int32(snd_pcm_recover(handle, Int32(written), 1)), name: name, doing: "play")
                continue
            }
            done += written
        }
    }

    /// Captures up to `frames` frames into `buffer` (raw interleaved samples of `sampleType`);
    /// returns how many arrived.
    public func capture(into buffer: UnsafeMutableRawBufferPointer, frames: Int) throws(SignalPathError) -> Int {
        precondition(direction == .capture)
        guard let handle else { return 0 }
        while true {
            let read = snd_pcm_readi(handle, buffer.baseAddress, snd_pcm_uframes_t(frames))
            if read >= 0 { return read }
            try Self.check(Int32(snd_pcm_recover(handle, Int32(read), 1)), name: name, doing: "capture")
        }
    }

    /// Frames queued for playback but not yet heard: how far the audio clock lags what was written.
    public var delayFrames: Int {
        guard let handle else { return 0 }
        var delay = snd_pcm_sframes_t(0)
        return snd_pcm_delay(handle, &delay) == 0 ? max(0, delay) : 0
    }

    /// Stops at once, dropping what is queued (seeking, pausing, quitting).
    public func drop() {
        if let handle {
            snd_pcm_drop(handle)
            snd_pcm_prepare(handle)
        }
    }

    public func close() {
        if let handle { snd_pcm_close(handle) }
        handle = nil
    }

    private static func check(_ status: Int32, name: String, doing: String) throws(SignalPathError) {
        guard status < 0 else { return }
        throw .device(name: name, reason: "cannot \(doing): \(String(cString: snd_strerror(status)))")
    }
}
