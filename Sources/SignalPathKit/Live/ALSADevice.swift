import CALSA

/// A PCM device of ALSA, for playing or capturing interleaved frames: the only file that talks to
/// libasound, which is opened with `dlopen` when the first device is (only `replay` and `record`
/// need it; linked, every start of every command would pay for it: docs/DECISIONS.md#libraries-on-first-use).
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
    private let alsa: ALSA

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
        let alsa = try ALSA.library()
        self.alsa = alsa
        var pcm: OpaquePointer?
        let stream = direction == .playback ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE
        let opened = alsa.open(&pcm, name, stream, 0)
        if opened == -ENOENT || opened == -ENODEV {
            // What alsa-lib says when there is no sound card, or no such device: say where to look.
            let lister = direction == .playback ? "aplay -L" : "arecord -L"
            throw .device(name: name, reason: "cannot open: \(alsa.message(opened)) (no sound card? list devices with \(lister))")
        }
        try check(opened, doing: "open")
        handle = pcm
        let format = sampleType == .float32 ? SND_PCM_FORMAT_FLOAT_LE : SND_PCM_FORMAT_S16_LE
        let status = alsa.setParameters(
            pcm, format, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(sampleRate),
            1, UInt32(max(10_000, latency * 1_000_000)))
        if status < 0 {
            alsa.close(pcm)
            handle = nil
            try check(status, doing: "configure (\(channels) channels at \(sampleRate) Hz)")
        }
    }

    deinit { close() }

    /// Plays `frames` frames of `samples` (interleaved Float); waits while the device's buffer is
    /// full, so the audio clock paces the caller. Recovers from an underrun once.
    public func play(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(SignalPathError) {
        precondition(direction == .playback && sampleType == .float32 && samples.count >= frames * channels)
        var done = 0
        while done < frames, let handle {
            let written = alsa.writei(handle, samples.baseAddress! + done * channels, snd_pcm_uframes_t(frames - done))
            if written < 0 {
                try check(Int32(alsa.recover(handle, Int32(written), 1)), doing: "play")
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
            let read = alsa.readi(handle, buffer.baseAddress, snd_pcm_uframes_t(frames))
            if read >= 0 { return read }
            try check(Int32(alsa.recover(handle, Int32(read), 1)), doing: "capture")
        }
    }

    /// Frames queued for playback but not yet heard: how far the audio clock lags what was written.
    public var delayFrames: Int {
        guard let handle else { return 0 }
        var delay = snd_pcm_sframes_t(0)
        return alsa.delay(handle, &delay) == 0 ? max(0, delay) : 0
    }

    /// Stops at once, dropping what is queued (seeking, pausing, quitting).
    public func drop() {
        if let handle {
            alsa.drop(handle)
            alsa.prepare(handle)
        }
    }

    public func close() {
        if let handle { alsa.close(handle) }
        handle = nil
    }

    private func check(_ status: Int32, doing: String) throws(SignalPathError) {
        guard status < 0 else { return }
        throw .device(name: name, reason: "cannot \(doing): \(alsa.message(status))")
    }
}

/// libasound's functions, looked up once with `dlsym` after one `dlopen`.
private struct ALSA: LazyLibrary, @unchecked Sendable {
    // @unchecked: C function pointers, immutable after loading; each device is used by one thread.
    let open: sp_snd_pcm_open_fn
    let setParameters: sp_snd_pcm_set_params_fn
    let close: sp_snd_pcm_close_fn
    let writei: sp_snd_pcm_writei_fn
    let readi: sp_snd_pcm_readi_fn
    let recover: sp_snd_pcm_recover_fn
    let delay: sp_snd_pcm_delay_fn
    let drop: sp_snd_pcm_drop_fn
    let prepare: sp_snd_pcm_prepare_fn
    let strerror: sp_snd_strerror_fn

    /// alsa-lib's text for a negative status.
    func message(_ status: Int32) -> String {
        strerror(status).map { String(cString: $0) } ?? "error \(status)"
    }

    static let libraryName = "libasound.so.2"
    static let need = "playing and recording need ALSA (Debian: apt-get install libasound2)"
    /// Opened on the first device; a failure is kept and reported to every later attempt.
    static let loaded = load()

    init(_ library: SharedLibrary) throws(SignalPathError) {
        signalpath_alsa_quiet(try library.function("snd_lib_error_set_handler", sp_snd_lib_error_set_handler_fn.self))
        open = try library.function("snd_pcm_open", sp_snd_pcm_open_fn.self)
        setParameters = try library.function("snd_pcm_set_params", sp_snd_pcm_set_params_fn.self)
        close = try library.function("snd_pcm_close", sp_snd_pcm_close_fn.self)
        writei = try library.function("snd_pcm_writei", sp_snd_pcm_writei_fn.self)
        readi = try library.function("snd_pcm_readi", sp_snd_pcm_readi_fn.self)
        recover = try library.function("snd_pcm_recover", sp_snd_pcm_recover_fn.self)
        delay = try library.function("snd_pcm_delay", sp_snd_pcm_delay_fn.self)
        drop = try library.function("snd_pcm_drop", sp_snd_pcm_drop_fn.self)
        prepare = try library.function("snd_pcm_prepare", sp_snd_pcm_prepare_fn.self)
        strerror = try library.function("snd_strerror", sp_snd_strerror_fn.self)
    }
}
