import ArgumentParser
import SignalPathKit

/// What identifies a file's audio whatever its container or tags: the audio MD5 (and the
/// checksums files carry, checked against it) and the Chromaprint fingerprint.
struct IdentityOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: """
            The audio MD5 as FLAC defines it (equal to `metaflac --show-md5sum` for the same samples, \
            in any container), checked against the MD5 a FLAC or BWF file carries (docs/FIXITY.md).
            """)
    var md5 = false

    @Flag(name: .long, help: "The Chromaprint fingerprint of the file's start, as fpcalc computes it (docs/DUPLICATES.md).")
    var fingerprint = false

    @Option(
        name: .long, help: ArgumentHelp("With --fingerprint: seconds from the start to fingerprint (fpcalc's -length; default: 120).", valueName: "seconds"))
    var fingerprintLength: Double?

    func validate() throws {
        if let fingerprintLength {
            guard fingerprint else { throw ValidationError("--fingerprint-length applies to --fingerprint; there is no fingerprint.") }
            guard fingerprintLength.isFinite, (1...86_400).contains(fingerprintLength) else {
                throw ValidationError("--fingerprint-length takes 1 to 86400 seconds.")
            }
        }
    }

    /// `settings` with what these options ask for.
    func apply(to settings: inout AnalysisSettings) {
        settings.computesAudioMD5 = md5
        settings.fingerprintSeconds = fingerprint ? fingerprintLength ?? AudioFingerprint.defaultSeconds : nil
    }
}
