/// A loudness delivery specification's published limits (`signalpath check --profile`): the
/// integrated loudness target with its tolerance and the maximum true peak. Sources and sections
/// are in docs/CHECK.md and in each profile's `source`.
public struct DeliveryProfile: Sendable, Equatable {
    /// The name `--profile` takes.
    public let name: String
    /// Integrated loudness target, LUFS (= LKFS).
    public let target: Double
    /// Allowed deviation from the target, ± LU.
    public let tolerance: Double
    /// Maximum true peak, dBTP.
    public let maximumTruePeak: Double
    /// The document the limits come from.
    public let source: String

    public static let ebuR128 = DeliveryProfile(
        name: "ebu-r128", target: -23, tolerance: 0.5, maximumTruePeak: -1,
        source: "EBU R 128 v3.0 (2014): Programme Loudness Target Level -23.0 LUFS, deviation +-0.5 LU; Maximum Permitted True Peak Level -1 dBTP")
    public static let ebuR128Live = DeliveryProfile(
        name: "ebu-r128-live", target: -23, tolerance: 1, maximumTruePeak: -1,
        source: "EBU R 128 v3.0 (2014): +-1.0 LU where exact normalisation to the Target Level is not achievable (live programmes); true peak as ebu-r128")
    public static let atscA85 = DeliveryProfile(
        name: "atsc-a85", target: -24, tolerance: 2, maximumTruePeak: -2,
        source: "ATSC A/85:2013 (Recommended Practice): Target Loudness -24 LKFS, +-2 dB; maximum true peak -2 dBTP")
    public static let podcast = DeliveryProfile(
        name: "podcast", target: -16, tolerance: 1, maximumTruePeak: -1,
        source: "Apple Podcasts audio requirements: -16 LKFS +-1 dB, true peak at most -1 dBFS (AES TD1004.1.15-10 recommends -16 LUFS and -1 dBTP too)")
    public static let streaming = DeliveryProfile(
        name: "streaming", target: -14, tolerance: 1, maximumTruePeak: -1,
        source: "Spotify for Artists, loudness normalization: -14 LUFS reference level, masters at most -1 dBTP true peak")

    public static let all: [DeliveryProfile] = [ebuR128, ebuR128Live, atscA85, podcast, streaming]

    /// The profile named `name` (any case), or nil.
    public static func named(_ name: String) -> DeliveryProfile? {
        all.first { $0.name == name.lowercased() }
    }
}
