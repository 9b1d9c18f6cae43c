import ArgumentParser
import SignalPathKit

@main
struct SignalPath: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signalpath",
        abstract: "Audio signal analysis for the terminal: levels, loudness, spectra and more.",
        discussion: """
            Reads files of any size: WAV, RF64, Wave64, AIFF, CAF, AU, FLAC, Ogg Vorbis, Opus, MP3 and \
            MP2 itself and through libsndfile; M4A and MP4 (AAC, ALAC), MOV, Matroska (MKV, MKA), \
            WebM, AAC (ADTS), AC-3, E-AC-3, DTS, WMA, WavPack and the soundtrack of a video (MP4, MOV, \
            MKV, WebM) through FFmpeg's libraries; and standard input (`-`). Data goes to standard \
            output, messages to standard error.

            What a pipe gets: a command whose terminal view is a report (info, analyze, check) writes the \
            same report when piped, without colour (compare too); one whose view is a picture (loudness, spectrum, \
            spectrogram, waveform) writes its data as CSV. Programs ask with --format csv, tsv, json or \
            ndjson, or with --output FILE, whose extension picks the format (.txt .csv .tsv .json \
            .ndjson; charts: .png .svg .pdf); a --format that disagrees with it is a usage error.

            Short options, one meaning each in every command that has the option: -f (--format), \
            -o (--output), -r (--range), -j (--jobs), -h (--help).

            Exit codes: 0 success; 64 usage error; 65 a file is not usable audio; 66 a file cannot be \
            opened; 73 an output file cannot be created; 74 a read or write failed. When several \
            files are given, the others are still processed and the exit code is that of the first \
            failure. check exits 1 when every file was read and one does not meet its rules, and \
            compare --max-residual when a residual is above the limit (a failure to read wins over 1).

            Manual pages: man signalpath, and one per command (man signalpath.analyze); shell \
            completions: signalpath --generate-completion-script bash|zsh|fish. make install puts \
            both in place.
            """,
        version: signalPathVersion,
        // Each command spells its commandName: deriving it from the type name costs a scan of every
        // protocol conformance in the binary per command (String(describing:); docs/DECISIONS.md#info-costs).
        subcommands: [
            Info.self, Analyze.self, LoudnessCommand.self, Check.self, Compare.self, Events.self, Spectrum.self, Spectrogram.self, Waveform.self, Scan.self, Export.self,
            Merge.self, Duplicates.self, Replay.self, Record.self, ReplayGainCommand.self,
        ]
    )

    /// ArgumentParser's own main, with four additions: a first argument that is not a command
    /// gets a suggestion (one line, exit 64) before the rest is parsed, a command named first is
    /// parsed on its own (`parse`), a command line that fails with an option the command does not
    /// have is answered by naming that option, and a command about to read audio from a terminal
    /// says so.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let commands = configuration.subcommands.map { $0._commandName }
        if let mistake = MistypedCommand(arguments: arguments, commands: commands) {
            StandardError.writeLine(mistake.message)
            exit(withError: ExitCode(ExitStatus.usage))
        }
        var command: ParsableCommand
        do {
            command = try await parse(arguments)
        } catch {
            // Whatever failed (a `validate()` included), an unknown option is the first thing to
            // fix; help and --version, which also arrive as errors, are left alone.
            if exitCode(for: error) != .success, let name = arguments.first, let named = configuration.subcommands.first(where: { $0._commandName == name }),
                let unknown = UnknownOption(arguments: Array(arguments.dropFirst()), command: name, declared: DeclaredOptions(named, versioned: !configuration.version.isEmpty))
            {
                StandardError.writeLine(unknown.message)
                exit(withError: ExitCode(ExitStatus.usage))
            }
            exit(withError: error)
        }
        do {
            if let notice = StandardInputNotice(for: command) {
                StandardError.writeLine(notice.line)
                if notice.refuses { throw ExitCode(ExitStatus.usage) }
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// The command `arguments` ask for. A command named first is parsed on its own, as a root:
    /// ArgumentParser's parse from the real root reflected the root command and parsed its built-in
    /// completion commands too (docs/DECISIONS.md#command-parsed-as-root). Whatever that parse does
    /// not turn into the command itself (an error, a request for help, which it answers with its
    /// own help command) is parsed again from the root, so that messages, help and exit codes are
    /// the root's. Each command's configuration names `signalpath` as its `_superCommandName`,
    /// which spares this parse ArgumentParser's search of the arguments for
    /// `--generate-completion-script`; the real root, which names none, still answers it.
    private static func parse(_ arguments: [String]) async throws -> ParsableCommand {
        if let name = arguments.first, let named = configuration.subcommands.first(where: { $0._commandName == name }),
            let command = try? named.parseAsRoot(Array(arguments.dropFirst())), type(of: command) == named
        {
            return command
        }
        return try await asyncParseAsRoot(arguments)
    }
}
