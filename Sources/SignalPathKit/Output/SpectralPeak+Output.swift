extension SpectralPeak {
    /// frequency_hz (to 1 mHz), level_dbfs (to 0.01 dB), note, cents (to 0.1); with `channel` first
    /// when given.
    func jsonValue(channel: String? = nil) -> JSONValue {
        .object(
            (channel.map { [JSONValue.Member("channel", .string($0))] } ?? []) + [
                .init("frequency_hz", .number((frequency * 1000).rounded() / 1000)),
                .init("level_dbfs", .number((level * 100).rounded() / 100)),
                .init("note", note.map { .string($0.name) } ?? .null),
                .init("cents", note.map { .number(($0.cents * 10).rounded() / 10) } ?? .null),
            ])
    }

    /// `1000.0 Hz   -6.02 dBFS  B5 +12 cents` for people (ASCII, so `grep` and `awk` read it).
    var text: String {
        let note =
            self.note.map { note -> String in
                let cents = note.cents.rounded()
                return "  \(note.name) \(cents >= 0 ? "+" : "")\(UnitFormat.fixed(cents, 0)) cents"
            } ?? ""
        let frequency = UnitFormat.fixed(frequency, 1) + " Hz"
        return String(repeating: " ", count: max(0, 11 - frequency.count)) + frequency + "   " + UnitFormat.fixed(level, 2) + " dBFS" + note
    }
}
