/// A loudspeaker position, in the order of the WAVE_FORMAT_EXTENSIBLE channel-mask bits (bit 0 is
/// front left … bit 17 top back right), abbreviated as ffmpeg and SMPTE name them.
public enum ChannelPosition: Int, CaseIterable, Sendable {
    case frontLeft, frontRight, frontCenter, lowFrequency, backLeft, backRight
    case frontLeftOfCenter, frontRightOfCenter, backCenter, sideLeft, sideRight
    case topCenter, topFrontLeft, topFrontCenter, topFrontRight, topBackLeft, topBackCenter, topBackRight

    /// `FL`, `FR`, `FC`, `LFE`, … as `ffmpeg -layouts` lists them.
    public var abbreviation: String {
        Self.abbreviations[rawValue]
    }

    private static let abbreviations = [
        "FL", "FR", "FC", "LFE", "BL", "BR", "FLC", "FRC", "BC", "SL", "SR", "TC", "TFL", "TFC", "TFR", "TBL", "TBC", "TBR",
    ]

    /// The position with `abbreviation`, in any case (`lfe`, `SL`).
    public init?(abbreviation: String) {
        guard let index = Self.abbreviations.firstIndex(of: abbreviation.uppercased()) else { return nil }
        self.init(rawValue: index)
    }

    /// Its bit in a WAVE_FORMAT_EXTENSIBLE `dwChannelMask`.
    public var maskBit: UInt32 { 1 << UInt32(rawValue) }

}
