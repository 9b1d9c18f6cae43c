import ArgumentParser
import SignalPathKit

/// How the true peak is read; shared by the commands that report one (`analyze`, and whichever
/// command measures loudness or checks a true-peak limit).
struct TruePeakOptions: ParsableArguments {
    @Option(
        name: .customLong("true-peak"),
        help: ArgumentHelp(
            "How true peak is read: bs1770 (ITU-R BS.1770-4's 4× FIR; conformant, under-reads peaks near 0.45·fs by up to ~0.5 dB) or accurate (8×, flat to 0.45·fs; within 0.1 dB of the continuous peak).",
            valueName: "mode"))
    var mode = TruePeakMode.bs1770
}
