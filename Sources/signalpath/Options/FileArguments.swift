import ArgumentParser

/// The audio files a command works on.
struct FileArguments: ParsableArguments {
    @Argument(help: "Audio files; `-` reads standard input.")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one file (or `-` for standard input).") }
        guard files.filter({ $0 == "-" }).count <= 1 else { throw ValidationError("Standard input (`-`) can be read only once.") }
    }
}
