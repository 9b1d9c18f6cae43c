import Foundation
import Testing

@testable import SignalPathKit

@Suite("Processor features")
struct ProcessorFeaturesTests {
    /// `make test` runs this suite twice: as is, and with SIGNALPATH_BASELINE_KERNELS=1, where every
    /// kernel must take its baseline path whatever the processor has.
    @Test("SIGNALPATH_BASELINE_KERNELS=1 turns the AVX2 kernels off; without it, the processor's flags decide")
    func baselineSwitch() throws {
        let forced = ProcessInfo.processInfo.environment["SIGNALPATH_BASELINE_KERNELS"] == "1"
        #expect(ProcessorFeatures.baselineKernelsForced == forced)
        #expect(ProcessorFeatures.hasX86_64_v3 == (!forced && ProcessorFeatures.processorHasX86_64_v3))
        // The processor's own answer: x86-64-v3 as the psABI defines it (AVX, AVX2, BMI1, BMI2,
        // F16C, FMA, LZCNT — `abm` in the kernel's list — and MOVBE).
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
        #expect(ProcessorFeatures.processorHasX86_64_v3 == ["avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe"].allSatisfy(flags.contains))
    }
}
