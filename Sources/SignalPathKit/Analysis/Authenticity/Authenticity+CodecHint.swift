extension Authenticity {
    /// An encoder setting's low-pass, as the decoded files of the large corpus show it: the median
    /// `cutoff_hz` per setting and rate (docs/AUTHENTICITY.md, "Codec hints", has the table and
    /// the command that measures it). LAME 3.100, FFmpeg's native AAC, libvorbis 1.3.7 and
    /// libopus 1.3.1 as Debian 12 ships them; other encoders and versions cut elsewhere.
    struct EncoderCutoff {
        var codec: String
        var setting: String
        /// Hz, at 44.1 kHz and at 48 kHz (nil where the corpus has none).
        var at44100: Double?
        var at48000: Double?
    }

    static let encoderCutoffs = [
        EncoderCutoff(codec: "mp3", setting: "96k", at44100: 15_369, at48000: 15_223),
        EncoderCutoff(codec: "mp3", setting: "128k", at44100: 16_753, at48000: 16_734),
        EncoderCutoff(codec: "mp3", setting: "192k", at44100: 18_815, at48000: 18_967),
        EncoderCutoff(codec: "mp3", setting: "256k", at44100: 19_488, at48000: 19_717),
        EncoderCutoff(codec: "mp3", setting: "320k", at44100: 20_209, at48000: 20_479),
        EncoderCutoff(codec: "mp3", setting: "V2", at44100: 18_809, at48000: 18_234),
        EncoderCutoff(codec: "aac", setting: "96k", at44100: 16_651, at48000: 18_123),
        EncoderCutoff(codec: "aac", setting: "128k", at44100: 17_275, at48000: 18_123),
        EncoderCutoff(codec: "aac", setting: "192k", at44100: 19_396, at48000: 21_117),
        EncoderCutoff(codec: "vorbis", setting: "q2", at44100: 16_710, at48000: 16_699),
        EncoderCutoff(codec: "vorbis", setting: "q4", at44100: 19_461, at48000: 19_699),
        EncoderCutoff(codec: "opus", setting: "64-192k", at44100: nil, at48000: 20_300),
    ]

    /// Settings whose known cut-off lies within 1.5 % of the shelf (Opus's moves by ±150 Hz
    /// with the material), as "mp3 128k or vorbis q2"; nil when none does or the rate is neither
    /// 44.1 nor 48 kHz.
    static func codecHint(cutoff: Double, sampleRate: Int) -> String? {
        let matches = encoderCutoffs.filter { encoder in
            guard let known = sampleRate == 44100 ? encoder.at44100 : sampleRate == 48000 ? encoder.at48000 : nil else { return false }
            return abs(cutoff - known) <= 0.015 * known
        }
        return matches.isEmpty ? nil : matches.map { "\($0.codec) \($0.setting)" }.joined(separator: " or ")
    }
}
