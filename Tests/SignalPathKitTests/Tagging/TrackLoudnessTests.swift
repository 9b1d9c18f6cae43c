import Foundation
import Testing
import SignalPathTestSupport
@testable import SignalPathKit

/// An album's loudness is its tracks' gating blocks gated as one programme (ReplayGain 2.0), with
/// answers from EBU Tech 3341's fact that a steady stereo 1 kHz sine at L dBFS reads L LUFS.
@Suite("Tagging: track and album loudness")
struct TrackLoudnessTests {
    let scratch = ScratchDirectory("tagging-loudness")

    func measure(_ name: String, level: Double?, seconds: Double) async throws -> TrackLoudness {
        let samples = level.map { sine(1000, dbfs: $0, seconds: seconds) } ?? [Double](repeating: 0, count: Int(seconds * 48_000))
        return try await TrackLoudness.measure(try AudioFile.open(floatWAV(scratch, name, stereo(samples), channels: 2)), workers: 2)
    }

    @Test("tracks at -20 and -30 LUFS of equal length: the album is their mean energy, -22.60 LUFS, not their mean level, -25")
    func albumIsPooledEnergy() async throws {
        let loud = try await measure("loud.wav", level: -20, seconds: 10), quiet = try await measure("quiet.wav", level: -30, seconds: 10)
        #expect(abs(loud.integrated! - -20) <= 0.1 && abs(quiet.integrated! - -30) <= 0.1)
        // Both pass the relative gate (10 LU under -22.6): 10·log10((10^-2 + 10^-3) / 2).
        let album = try #require(TrackLoudness.albumLoudness([loud, quiet]))
        #expect(abs(album - (10 * log10((pow(10, -2) + pow(10, -3)) / 2))) <= 0.1, "\(album)")
        #expect(abs(loud.samplePeak - pow(10, -20.0 / 20)) <= 1e-4 && loud.truePeak >= loud.samplePeak)
    }

    @Test("a silent track and a track far under the album's relative gate add nothing to the album's loudness")
    func gatedTracksLeaveTheAlbum() async throws {
        let loud = try await measure("steady.wav", level: -20, seconds: 10)
        let silent = try await measure("silent.wav", level: nil, seconds: 10), faint = try await measure("faint.wav", level: -45, seconds: 10)
        #expect(silent.integrated == nil)
        let album = try #require(TrackLoudness.albumLoudness([loud, silent, faint]))
        #expect(abs(album - loud.integrated!) <= 0.01, "\(album) against \(loud.integrated!)")
    }

    @Test("the fields: two decimals in dB, six-decimal peaks, Q7.8 R128 gains, MP4's lower-case atoms; the reference loudness")
    func fields() {
        let flac = ReplayGain(path: "a.flac", container: .flac, trackLoudness: -14.17, trackPeak: 0.9123456, album: (-13.9, 0.98))
        #expect(flac.fields.map(\.key) == ["REPLAYGAIN_TRACK_GAIN", "REPLAYGAIN_TRACK_PEAK", "REPLAYGAIN_ALBUM_GAIN", "REPLAYGAIN_ALBUM_PEAK", "REPLAYGAIN_REFERENCE_LOUDNESS"])
        #expect(flac.fields.map(\.value) == ["-3.83 dB", "0.912346", "-4.10 dB", "0.980000", "-18.00 LUFS"])
        let mp4 = ReplayGain(path: "a.m4a", container: .mp4, trackLoudness: -18, trackPeak: 1, album: nil)
        #expect(
            mp4.fields.map(\.key) == [
                "----:com.apple.iTunes:replaygain_track_gain", "----:com.apple.iTunes:replaygain_track_peak", "----:com.apple.iTunes:replaygain_reference_loudness",
            ])
        #expect(mp4.fields[0].value == "0.00 dB")
        // -21.23 LUFS: -1.77 dB to -23 LUFS, -453.12 in Q7.8 (loudgain writes -453 for it).
        let opus = ReplayGain(path: "a.opus", container: .oggOpus, trackLoudness: -21.23, trackPeak: 1, album: (-200, 1))
        #expect(opus.fields.map(\.key) == ["R128_TRACK_GAIN", "R128_ALBUM_GAIN"])
        #expect(opus.fields.map(\.value) == ["-453", "32767"])
        #expect(ReplayGain.managedKeys(.oggOpus).contains("REPLAYGAIN_TRACK_GAIN"))
    }
}
