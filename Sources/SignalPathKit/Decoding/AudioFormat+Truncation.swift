extension AudioFormat {
    /// The words every command uses for a file cut short (sox: "premature EOF"): `truncated: the
    /// header promises 96 000 frames, 250 are present`. `sayingNone` words 0 as "none", for the
    /// commands that refuse a file without frames.
    public static func truncationNote(framesPromised: Int64, framesPresent: Int64, sayingNone: Bool = false) -> String {
        let present = framesPresent == 0 && sayingNone ? "none are" : "\(UnitFormat.grouped(framesPresent)) \(framesPresent == 1 ? "is" : "are")"
        return "truncated: the header promises \(UnitFormat.grouped(framesPromised)) frames, \(present) present"
    }
}
