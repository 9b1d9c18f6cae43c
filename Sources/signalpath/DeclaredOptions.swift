import ArgumentParser
import SignalPathKit

/// The options a command declares, as swift-argument-parser describes them: the document of
/// `--experimental-dump-help`, which `_dumpHelp()` returns (its one public description of a
/// command's arguments). Read only when a command line has failed, to say what went wrong.
struct DeclaredOptions {
    struct Option {
        var longNames: [String] = []
        var shortNames: [Character] = []
        /// False for a flag.
        var takesValue = false
        /// The value is the next argument whatever it looks like (`--floor -90`: `.unconditional`).
        var takesAnyValue = false
    }

    private(set) var options: [Option]

    /// `command`'s options; with `versioned`, the `--version` flag that ArgumentParser gives every
    /// command under a root with a version, which the command's own description leaves out.
    init(_ command: ParsableCommand.Type, versioned: Bool) {
        self.init(dump: command._dumpHelp())
        if versioned && option(long: "version") == nil { options.append(Option(longNames: ["version"])) }
    }

    /// Options of the document's command (`command.arguments`, positional ones left out).
    init(dump: String) {
        let arguments = JSONValue(parsing: dump)?["command"]?["arguments"]?.arrayValue ?? []
        options = arguments.compactMap { argument in
            let kind = argument["kind"]?.stringValue
            guard kind == "option" || kind == "flag" else { return nil }
            var option = Option(takesValue: kind == "option", takesAnyValue: argument["parsingStrategy"]?.stringValue == "unconditional")
            for name in argument["names"]?.arrayValue ?? [] {
                guard let text = name["name"]?.stringValue else { continue }
                switch name["kind"]?.stringValue {
                case "long": option.longNames.append(text)
                case "short": option.shortNames += text.prefix(1)
                default: break
                }
            }
            return option
        }
    }

    func option(long name: String) -> Option? { options.first { $0.longNames.contains(name) } }

    func option(short name: Character) -> Option? { options.first { $0.shortNames.contains(name) } }

    /// Every long name, in the order of `--help`.
    var longNames: [String] { options.flatMap(\.longNames) }
}
