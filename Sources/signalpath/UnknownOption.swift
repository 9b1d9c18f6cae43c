import ArgumentParser
import SignalPathKit

/// An option the command does not have (`check --profle podcast`), named, with the options it
/// probably meant. ArgumentParser reports one only after the command's `validate()` has passed,
/// so a misspelt `--profile` was reported as a missing one ("Name a --profile"), and its guess
/// goes by edit distance alone (`--fft` → `--a4`). `SignalPath.main` asks for this first when a
/// command line fails.
struct UnknownOption {
    /// The one stderr line: `signalpath: --fft: unknown option of spectrum; did you mean '--fft-size'?`
    let message: String

    /// The first argument `command` does not have as an option, nil when there is none. The
    /// arguments are the command's (its name left out); after `--` they are all operands, and an
    /// option that takes any value (`--floor -90`) has its value skipped.
    init?(arguments: [String], command: String, declared: DeclaredOptions) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return nil }
            let option: DeclaredOptions.Option?
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2).prefix { $0 != "=" })
                guard let known = declared.option(long: name) else {
                    message = Self.unknownLong("--" + name, command: command, declared: declared)
                    return
                }
                option = argument.contains("=") ? nil : known
            } else if argument.count == 2, argument.hasPrefix("-"), let letter = argument.last, letter != "-" {
                guard let known = declared.option(short: letter) else {
                    message = Self.unknownShort(argument, command: command, declared: declared)
                    return
                }
                option = known
            } else {
                option = nil
            }
            if option?.takesAnyValue == true { index += 1 }
        }
        return nil
    }

    private static func unknownLong(_ option: String, command: String, declared: DeclaredOptions) -> String {
        let start = "signalpath: \(TerminalText.sanitized(option)): unknown option of \(command)"
        let meant = Suggestion.nearestOptions(to: String(option.dropFirst(2)), among: declared.longNames)
        guard !meant.isEmpty else { return start + " (see 'signalpath \(command) --help')" }
        return start + "; did you mean " + meant.map { "'--\($0)'" }.joined(separator: " or ") + "?"
    }

    /// One letter says too little to guess from: the line lists the command's short options.
    private static func unknownShort(_ option: String, command: String, declared: DeclaredOptions) -> String {
        let short = declared.options.flatMap { option in option.shortNames.map { (letter: $0, long: option.longNames.first ?? "") } }
            .sorted { $0.letter < $1.letter }
        return "signalpath: \(TerminalText.sanitized(option)): unknown option of \(command); its short options are "
            + short.map { "-\($0.letter) (--\($0.long))" }.joined(separator: ", ")
    }
}
