import SignalPathKit

extension AudioFile {
    /// Opens `path` as every command does, and says on standard error, in one line, what the user
    /// should know about a file that opens but is not whole: a file shorter than its header
    /// promises (sox: "premature EOF") is used as far as it goes, with exit status 0.
    /// `use` says what the command does with the frames that are there ("analysing those").
    static func openNoting(_ path: String, use: String? = "analysing those") throws(SignalPathError) -> AudioFile {
        let file = try AudioFile.open(path)
        noteTruncation(of: file, use: use)
        return file
    }

    /// The line for a truncated file: `signalpath: FILE: truncated: the header promises 96 000
    /// frames, 250 are present; analysing those`.
    static func noteTruncation(of file: AudioFile, use: String?) {
        guard let promised = file.format.framesPromised, let present = file.format.frames else { return }
        StandardError.writeLine(
            "signalpath: \(TerminalText.sanitized(file.path)): truncated: the header promises \(UnitFormat.grouped(promised)) frames, "
                + "\(UnitFormat.grouped(present)) \(present == 1 ? "is" : "are") present" + (use.map { "; " + $0 } ?? ""))
    }
}
