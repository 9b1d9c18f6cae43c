import ArgumentParser
import SignalPathKit

@main
struct SignalPath: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signalpath",
        abstract: "Audio signal analysis for the terminal: levels, loudness, spectra and more.",
        discussion: """
            Reads WAV, RF64, Wave64, AIFF, CAF, FLAC, Ogg Vorbis, Opus and MP3 files of any size, and \
            standard input (`-`). Data goes to standard output, messages to standard error.

            What a pipe gets: a command whose terminal view is a report (info, analyze) writes the \
            same report when piped, without colour; one whose view is a picture (spectrum, \
            spectrogram) writes its data as CSV. Programs ask with --format csv, tsv, json or \
            ndjson, or with --output FILE, whose extension picks the format (.txt .csv .tsv .json \
            .ndjson .svg); a --format that disagrees with it is a usage error.

            Exit codes: 0 success; 64 usage error; 65 a file is not usable audio; 66 a file cannot be \
            opened; 73 an output file cannot be created; 74 a read or write failed. When several \
            files are given, the others are still processed and the exit code is that of the first \
            failure.
            """,
        version: signalPathVersion,
        subcommands: [Info.self, Analyze.self, Spectrum.self, Spectrogram.self, Replay.self, Record.self]
    )

}
