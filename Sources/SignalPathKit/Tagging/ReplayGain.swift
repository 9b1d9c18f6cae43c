/// The loudness fields of one track as ReplayGain 2.0 (EBU R128 loudness, reference −18 LUFS) or,
/// in Opus, RFC 7845's R128 gains (Q7.8 dB relative to −23 LUFS, applied on top of the header's
/// output gain), in the spelling each container's players read (docs/REPLAYGAIN.md).
public struct ReplayGain: Sendable, Equatable {
    public static let referenceLoudness = -18.0
    public static let r128Reference = -23.0

    /// The file the fields are for.
    public var path: String
    public var container: TagContainer
    /// The track's integrated loudness, LUFS.
    public var trackLoudness: Double
    /// The track's peak, linear (1 at full scale): the sample peak, or the true peak.
    public var trackPeak: Double
    /// The album's loudness, LUFS (its tracks' gating blocks gated together), and peak: nil for a track alone.
    public var album: (loudness: Double, peak: Double)?

    public init(path: String, container: TagContainer, trackLoudness: Double, trackPeak: Double, album: (loudness: Double, peak: Double)?) {
        self.path = path
        self.container = container
        self.trackLoudness = trackLoudness
        self.trackPeak = trackPeak
        self.album = album
    }

    public static func == (a: ReplayGain, b: ReplayGain) -> Bool {
        a.path == b.path && a.container == b.container && a.trackLoudness == b.trackLoudness && a.trackPeak == b.trackPeak
            && a.album?.loudness == b.album?.loudness && a.album?.peak == b.album?.peak
    }

    /// The gain that brings the track to −18 LUFS, dB.
    public var trackGain: Double { Self.referenceLoudness - trackLoudness }
    public var albumGain: Double? { album.map { Self.referenceLoudness - $0.loudness } }

    /// Opus's gains: Q7.8 integers to −23 LUFS, clamped to the field's 16 bits.
    public var r128TrackGain: Int { Self.q78(Self.r128Reference - trackLoudness) }
    public var r128AlbumGain: Int? { album.map { Self.q78(Self.r128Reference - $0.loudness) } }

    static func q78(_ decibels: Double) -> Int { Int(max(-32768, min(32767, (decibels * 256).rounded()))) }

    /// The fields written, in order, with their values: "-3.83 dB", "0.912345", "-18.00 LUFS".
    public var fields: [(key: String, value: String)] {
        if container.usesR128 {
            return [(Self.r128TrackKey, String(r128TrackGain))] + (r128AlbumGain.map { [(Self.r128AlbumKey, String($0))] } ?? [])
        }
        var fields = [(Self.key("TRACK_GAIN", container), Self.decibels(trackGain)), (Self.key("TRACK_PEAK", container), Self.peak(trackPeak))]
        if let album {
            fields += [(Self.key("ALBUM_GAIN", container), Self.decibels(Self.referenceLoudness - album.loudness)), (Self.key("ALBUM_PEAK", container), Self.peak(album.peak))]
        }
        fields.append((Self.key("REFERENCE_LOUDNESS", container), UnitFormat.fixed(Self.referenceLoudness, 2) + " LUFS"))
        return fields
    }

    static let r128TrackKey = "R128_TRACK_GAIN", r128AlbumKey = "R128_ALBUM_GAIN"
    static let replayGainNames = ["TRACK_GAIN", "TRACK_PEAK", "ALBUM_GAIN", "ALBUM_PEAK", "REFERENCE_LOUDNESS"]

    /// Every field signalpath manages in `container`, removed before the new ones are set (in any
    /// case: a tagger's lowercase ones too). Opus loses ReplayGain fields, which RFC 7845 forbids there.
    public static func managedKeys(_ container: TagContainer) -> [String] {
        let replayGain = replayGainNames.map { key($0, container) }
        return container.usesR128 ? replayGain + [r128TrackKey, r128AlbumKey] : replayGain
    }

    /// `REPLAYGAIN_NAME` as `container` spells it: MP4 as an iTunes freeform atom in lower case,
    /// as rsgain, foobar2000 and Picard write it; every other container in upper case.
    static func key(_ name: String, _ container: TagContainer) -> String {
        container == .mp4 ? mp4Prefix + "replaygain_" + name.lowercased() : "REPLAYGAIN_" + name
    }

    static let mp4Prefix = "----:com.apple.iTunes:"

    /// A field's key without the MP4 atom's prefix, in upper case: the same name in every container.
    public static func canonicalKey(_ key: String) -> String {
        let upper = key.uppercased()
        return upper.hasPrefix(mp4Prefix.uppercased()) ? String(upper.dropFirst(mp4Prefix.count)) : upper
    }

    static func decibels(_ value: Double) -> String { UnitFormat.fixed(value, 2) + " dB" }
    static func peak(_ value: Double) -> String { UnitFormat.fixed(value, 6) }

    /// Whether `present` (a file's fields, as `TagLibrary.fields` gives them) holds exactly the
    /// keys these values write, among the managed ones: what a rerun with the same settings would
    /// write again, so the file can be left alone (the values themselves depend only on the audio).
    public func isCurrent(in present: [(key: String, value: String)]) -> Bool {
        let managed = Set(Self.managedKeys(container).map(Self.canonicalKey))
        let have = Set(present.map { Self.canonicalKey($0.key) }.filter(managed.contains))
        let want = Set(fields.map { Self.canonicalKey($0.key) })
        guard have == want else { return false }
        let reference = fields.first { Self.canonicalKey($0.key) == "REPLAYGAIN_REFERENCE_LOUDNESS" }
        return reference.map { wanted in present.contains { Self.canonicalKey($0.key) == "REPLAYGAIN_REFERENCE_LOUDNESS" && $0.value == wanted.value } } ?? true
    }
}
