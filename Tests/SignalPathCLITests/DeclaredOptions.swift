import Foundation
import Testing
import SignalPathTestSupport

/// An option as the binary declares it in `--experimental-dump-help` (swift-argument-parser's
/// description of a command), so that tests about every option of every command follow the
/// commands as they are rather than a list kept by hand.
struct DeclaredOption {
    var long: [String]
    var short: [String]
    var takesValue: Bool
    var help: String
    /// The value when parsing is `.unconditional` (a negative level such as `-90` is the value).
    var takesAnyValue: Bool
}

/// The commands the root lists (`help` left out).
func declaredCommands() throws -> [String] {
    let dump = try dumpHelp([])
    let subcommands = try #require(dump["subcommands"] as? [[String: Any]])
    return subcommands.compactMap { $0["commandName"] as? String }.filter { $0 != "help" }
}

/// The options and flags of `command`, in the order of its help.
func declaredOptions(_ command: String) throws -> [DeclaredOption] {
    let arguments = try #require(try dumpHelp([command])["arguments"] as? [[String: Any]])
    return arguments.compactMap { argument in
        guard let kind = argument["kind"] as? String, kind != "positional" else { return nil }
        let names = argument["names"] as? [[String: String]] ?? []
        return DeclaredOption(
            long: names.filter { $0["kind"] == "long" }.compactMap { $0["name"] }, short: names.filter { $0["kind"] == "short" }.compactMap { $0["name"] },
            takesValue: kind == "option", help: argument["abstract"] as? String ?? "", takesAnyValue: argument["parsingStrategy"] as? String == "unconditional")
    }
}

private func dumpHelp(_ command: [String]) throws -> [String: Any] {
    let result = try signalpath(command + ["--experimental-dump-help"])
    try #require(result.status == 0, "\(command): \(result.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    return try #require(document["command"] as? [String: Any])
}
