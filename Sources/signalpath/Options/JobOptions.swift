import ArgumentParser
import SignalPathKit

/// How much to do in parallel.
struct JobOptions: ParsableArguments {
    @Option(name: [.customShort("j"), .long], help: ArgumentHelp("Worker threads for long ranges and for files side by side (default: one per core).", valueName: "n"))
    var jobs: Int?

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs takes 1 to 256.") }
    }

    var workers: Int { jobs ?? onlineProcessorCount }
}
