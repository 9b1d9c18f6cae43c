import SignalPathKit

/// A first argument that is not a command: a file named without one (`signalpath take.wav`), a
/// misspelt command (`signalpath analyse take.wav`), or an unknown one (`signalpath help nosuch`).
/// Found before ArgumentParser sees the arguments, whose own message ("2 unexpected arguments")
/// does not say which command was meant.
struct MistypedCommand {
    /// The one stderr line: `signalpath: analyse: unknown command; did you mean 'signalpath analyze take.wav'?`
    let message: String

    /// Words people try for a command, with the command that does it.
    static let synonyms: [String: String] = [
        "analysis": "analyze", "levels": "analyze", "stats": "analyze", "lufs": "loudness",
        "probe": "info", "show": "info", "soxi": "info", "format": "info",
        "play": "replay", "playback": "replay", "live": "replay", "monitor": "replay",
        "capture": "record", "rec": "record",
        "fft": "spectrum", "psd": "spectrum", "spectra": "spectrum",
        "sonogram": "spectrogram", "stft": "spectrogram", "waterfall": "spectrogram",
    ]

    /// Extensions of audio (and audio-in-video) files, readable or not: a first argument ending
    /// in one is a file named without a command, even when it does not exist.
    static let audioExtensions: Set<String> = [
        "wav", "wave", "rf64", "w64", "bwf", "aif", "aiff", "aifc", "caf", "flac", "ogg", "oga", "opus", "mp3", "au", "snd",
        "m4a", "mp4", "mov", "aac", "mkv", "mka", "webm", "wma", "ac3", "wv", "ape", "raw", "pcm",
    ]

    /// Nil when the arguments start with a command, an option or nothing.
    init?(arguments: [String], commands: [String]) {
        guard let first = arguments.first, !first.hasPrefix("-") || first == "-" else { return nil }
        if first == "help" {
            guard let topic = arguments.dropFirst().first, !topic.hasPrefix("-"), !commands.contains(topic) else { return nil }
            message = Self.unknown(topic, commands: commands) { "signalpath help \($0)" }
            return
        }
        guard !commands.contains(first) else { return nil }
        let rest = arguments.dropFirst().map(Self.quoted)
        if Self.looksLikeFile(first) {
            let files = ([Self.quoted(first)] + rest).joined(separator: " ")
            message = "signalpath: \(TerminalText.sanitized(first)): a command comes first; did you mean 'signalpath info \(files)' or 'signalpath analyze \(files)'?"
        } else {
            message = Self.unknown(first, commands: commands) { (["signalpath", $0] + rest).joined(separator: " ") }
        }
    }

    /// The line for an unknown command `word`: the commands it probably meant, shown as `example`
    /// makes them, or the list of commands.
    private static func unknown(_ word: String, commands: [String], example: (String) -> String) -> String {
        var meant = Suggestion.nearest(to: word, among: commands)
        if meant.isEmpty, let synonym = synonyms[word.lowercased()] { meant = [synonym] }
        let start = "signalpath: \(TerminalText.sanitized(word)): unknown command; "
        guard !meant.isEmpty else { return start + "the commands are \(commands.joined(separator: ", ")) (see 'signalpath --help')" }
        return start + "did you mean " + meant.map { "'\(example($0))'" }.joined(separator: " or ") + "?"
    }

    /// An existing file (not a directory), standard input, or a name with an audio extension.
    static func looksLikeFile(_ argument: String) -> Bool {
        if argument == "-" { return true }
        var status = stat()
        if stat(argument, &status) == 0 { return status.st_mode & S_IFMT != S_IFDIR }
        guard let dot = argument.lastIndex(of: "."), !argument[dot...].contains("/") else { return false }
        return audioExtensions.contains(argument[argument.index(after: dot)...].lowercased())
    }

    /// An argument as a shell would need it to stay one word (double quotes when it has spaces or quotes).
    static func quoted(_ argument: String) -> String {
        let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy { !" \t'\"$`\\;&|<>()*?[]{}!#~".unicodeScalars.contains($0) }
        return plain ? TerminalText.sanitized(argument) : "\"" + TerminalText.sanitized(argument).replacing("\"", with: "\\\"") + "\""
    }
}
