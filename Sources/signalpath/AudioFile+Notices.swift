import SignalPathKit

extension AudioFile {
    /// Opens `path` as every command does, and says on standard error, in one line, what the user
    /// should know about a file that opens but is not whole: a file shorter than its header
    /// promises (sox: "premature EOF") is used as far as it goes, with exit status 0.
    /// `use` says what the command does with the frames that are there ("analysing those"); nil
    /// for `info`, which only describes the file.
    /// `stream` picks an audio stream (`--stream`).
    static func openNoting(
        _ path: String, use: String? = "analysing those", stream: Int? = nil, decoding: Decoding = .automatic
    ) throws(SignalPathError) -> AudioFile {
        let file = try AudioFile.open(path, decoding: decoding, stream: stream)
        try note(file, use: use)
        return file
    }

    /// As `openNoting`, through `AudioFile.load`: for commands that open files in tasks, which
    /// must not block the cooperative pool on I/O.
    static func openNoting(
        _ path: String, use: String? = "analysing those", stream: Int? = nil, decoding: Decoding = .automatic
    ) async throws(SignalPathError) -> AudioFile {
        let file = try await AudioFile.load(path, decoding: decoding, stream: stream)
        try note(file, use: use)
        return file
    }

    /// Writes the line for a truncated file (`signalpath: FILE: truncated: the header promises
    /// 96 000 frames, 250 are present; analysing those`).
    /// - Throws: `malformed` when a command that analyses (`use` non-nil) meets a file that holds
    ///   no frames at all: one line saying so, rather than an error about the range asked for.
    static func note(_ file: AudioFile, use: String?) throws(SignalPathError) {
        guard let present = file.format.frames else { return }  // a stream: its end is found by reading
        guard let promised = file.format.framesPromised else {
            if present == 0, use != nil { throw .malformed(path: file.path, reason: "no audio: the file holds no frames") }
            return
        }
        if present == 0, use != nil {
            throw .malformed(path: file.path, reason: AudioFormat.truncationNote(framesPromised: promised, framesPresent: 0, sayingNone: true))
        }
        StandardError.writeLine(
            "signalpath: \(TerminalText.sanitized(file.path)): \(AudioFormat.truncationNote(framesPromised: promised, framesPresent: present))"
                + (use.map { "; " + $0 } ?? ""))
    }
}
