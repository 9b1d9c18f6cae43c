import ArgumentParser
import SignalPathKit

/// `signalpath analyze -` typed at a terminal would otherwise wait in silence for audio that is
/// not coming: say what it is waiting for, and how to give it or to stop. `record --input -`
/// from a terminal is refused: it would store the keys typed as samples, under a full screen
/// that hides any message.
struct StandardInputNotice {
    let line: String
    /// A usage error (exit 64) rather than a notice before going on.
    let refuses: Bool

    /// The notice for `command` when it will read audio from standard input and that is a terminal.
    init?(for command: ParsableCommand) {
        guard isatty(0) == 1 else { return nil }
        let name = type(of: command)._commandName
        if let record = command as? Record {
            guard record.input == "-" else { return nil }
            line =
                "signalpath: -: standard input is this terminal, not raw audio: pipe the audio in "
                + "(arecord -t raw -f S16_LE -r 48000 -c 2 | signalpath record \(MistypedCommand.quoted(record.output)) --input - --raw s16le)"
            refuses = true
            return
        }
        // Every command that takes files has them in a FileArguments group, whatever its name.
        let files = Mirror(reflecting: command).children.flatMap { child in (child.value as? OptionGroup<FileArguments>)?.wrappedValue.files ?? [] }
        guard files.contains("-") else { return nil }
        line =
            "signalpath: -: reading audio from standard input, which is this terminal: pipe or redirect a file into it "
            + "(signalpath \(name) - < take.wav), or press Ctrl-D to end"
        refuses = false
    }
}
