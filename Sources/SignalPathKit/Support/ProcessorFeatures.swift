/// What the processor offers beyond the x86-64 baseline that the package is compiled for, read
/// once, when first asked, from `/proc/cpuinfo` (Linux lists there only what the kernel also
/// enables, AVX's register state included).
enum ProcessorFeatures {
    /// The environment variable that, set to 1, makes every kernel take its baseline path: what a
    /// processor without AVX2 runs, checked on one that has it (`make test` runs the kernel and
    /// CLI tests so too; docs/PLATFORMS.md).
    static let baselineKernelsVariable = "SIGNALPATH_BASELINE_KERNELS"

    /// True when the processor has x86-64-v3 — AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT (`abm`),
    /// MOVBE — which `SignalPathAVX2` is compiled for, and `SIGNALPATH_BASELINE_KERNELS` is not 1.
    static let hasX86_64_v3: Bool = !baselineKernelsForced && processorHasX86_64_v3

    /// True when `SIGNALPATH_BASELINE_KERNELS=1`.
    static let baselineKernelsForced: Bool = getenv(baselineKernelsVariable).map { String(cString: $0) == "1" } ?? false

    /// The processor's own answer, whatever the environment says.
    static let processorHasX86_64_v3: Bool = {
        let needed: Set<Substring> = ["avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe"]
        guard let file = fopen("/proc/cpuinfo", "r") else { return false }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            guard text.hasPrefix("flags") else { continue }
            // The first processor's flags; the kernel lists the same on every core.
            return needed.isSubset(of: Set(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })))
        }
        return false
    }()
}
