/// A loudness delivery specification's published limits (`signalpath check --profile`): the
/// integrated loudness target with its tolerance and the maximum true peak, with the document,
/// version and year they come from. The documents' words are in docs/CHECK.md.
public struct DeliveryProfile: Sendable, Equatable {
    /// The name `--profile` takes.
    public let name: String
    /// Integrated loudness target, LUFS (= LKFS).
    public let target: Double
    /// The target for files of one channel, where the profile has one of its own; nil: `target`.
    public let monoTarget: Double?
    /// Allowed deviation from the target, ± LU.
    public let tolerance: Double
    /// Maximum true peak, dBTP.
    public let maximumTruePeak: Double
    /// The measurement tolerance the document allows on the true peak, dB: a reading up to
    /// `maximumTruePeak` + this passes.
    public let truePeakTolerance: Double
    /// The document, version and year the limits implement.
    public let document: String
    /// The limits as the document states them.
    public let source: String

    init(
        name: String, target: Double, monoTarget: Double? = nil, tolerance: Double, maximumTruePeak: Double, truePeakTolerance: Double = 0,
        document: String, source: String
    ) {
        self.name = name
        self.target = target
        self.monoTarget = monoTarget
        self.tolerance = tolerance
        self.maximumTruePeak = maximumTruePeak
        self.truePeakTolerance = truePeakTolerance
        self.document = document
        self.source = source
    }

    /// R 128 v4.0 read as quality control does: the target with item i's measurement tolerance,
    /// and item m's true-peak limit with its measurement tolerance.
    public static let ebuR128 = DeliveryProfile(
        name: "ebu-r128", target: -23, tolerance: 0.2, maximumTruePeak: -1, truePeakTolerance: 0.3,
        document: "EBU R 128 v4.0 (August 2020), quality control",
        source:
            "EBU R 128 v4.0 (2020): Programme Loudness normalised to a Target Level of -23.0 LUFS (item h), +-0.2 LU allowed in loudness workflows such as Quality Control for measurement errors (item i); True Peak Level not above -1 dBTP, measurement tolerance +-0.3 dB for signals band-limited to 20 kHz (item m)"
    )
    public static let ebuR128Production = DeliveryProfile(
        name: "ebu-r128-production", target: -23, tolerance: 1, maximumTruePeak: -1,
        document: "EBU R 128 v4.0 (August 2020), production",
        source:
            "EBU R 128 v4.0 (2020): Target Level -23.0 LUFS, +-1.0 LU permitted where attaining it is not achievable practically, such as live programmes (item h); True Peak Level not above -1 dBTP during production (item m)"
    )
    /// v3.0's live programmes and v4.0's item h have the same limits: the name is kept for the
    /// calls that use it.
    public static let ebuR128Live = DeliveryProfile(
        name: "ebu-r128-live", target: -23, tolerance: 1, maximumTruePeak: -1,
        document: "EBU R 128 v4.0 (August 2020), live programmes: the limits of ebu-r128-production",
        source:
            "EBU R 128 v4.0 (2020): +-1.0 LU where attaining the Target Level of -23.0 LUFS is not achievable practically, live programmes for one (item h; v3.0 of 2014 gave live programmes the same +-1.0 LU); True Peak Level not above -1 dBTP (item m)"
    )
    public static let ebuR128Version3 = DeliveryProfile(
        name: "ebu-r128-v3", target: -23, tolerance: 0.5, maximumTruePeak: -1,
        document: "EBU R 128 v3.0 (June 2014)",
        source: "EBU R 128 v3.0 (2014): Programme Loudness Target Level -23.0 LUFS, deviation +-0.5 LU; Maximum Permitted True Peak Level -1 dBTP"
    )
    public static let atscA85 = DeliveryProfile(
        name: "atsc-a85", target: -24, tolerance: 2, maximumTruePeak: -2,
        document: "ATSC A/85:2013",
        source: "ATSC A/85:2013 (Recommended Practice): Target Loudness -24 LKFS, +-2 dB; maximum true peak -2 dBTP")
    /// Mono at -19 LUFS: a mono file plays from both loudspeakers, 3 dB louder than the same
    /// BS.1770 reading from a stereo file.
    public static let podcast = DeliveryProfile(
        name: "podcast", target: -16, monoTarget: -19, tolerance: 1, maximumTruePeak: -1,
        document: "Apple Podcasts audio requirements (web page, undated) and AES TD1004.1.15-10 (October 2015); mono -19 LUFS: the podcast convention (P. Figgiani, 2016)",
        source:
            "Apple Podcasts audio requirements: -16 LKFS +-1 dB, true peak at most -1 dBFS (AES TD1004.1.15-10 recommends -16 LUFS and -1 dBTP too); files of one channel at -19 LUFS, the -16 stereo / -19 mono convention of podcast production (P. Figgiani, \"Podcast Loudness: Mono vs. Stereo Perception\", 2016)"
    )
    public static let streaming = DeliveryProfile(
        name: "streaming", target: -14, tolerance: 1, maximumTruePeak: -1,
        document: "Spotify for Artists, loudness normalization (web page, undated)",
        source: "Spotify for Artists, loudness normalization: -14 LUFS reference level, masters at most -1 dBTP true peak")

    public static let all: [DeliveryProfile] = [ebuR128, ebuR128Production, ebuR128Live, ebuR128Version3, atscA85, podcast, streaming]

    /// The profile named `name` (any case), or nil.
    public static func named(_ name: String) -> DeliveryProfile? {
        all.first { $0.name == name.lowercased() }
    }

    /// The limits in one line, for `--help`.
    public var limits: String {
        let mono = monoTarget.map { " (mono " + UnitFormat.shortest($0) + ")" } ?? ""
        let peakTolerance = truePeakTolerance > 0 ? " +" + UnitFormat.shortest(truePeakTolerance) + " dB" : ""
        return UnitFormat.shortest(target) + " LUFS" + mono + " +-" + UnitFormat.fixed(tolerance, 1) + " LU, true peak <= "
            + UnitFormat.shortest(maximumTruePeak) + " dBTP" + peakTolerance
    }
}
