// swift-tools-version: 6.0
import PackageDescription

import class Foundation.ProcessInfo

// SIGNALPATH_OPTIMIZED_TESTS=1 (set by `make test`) optimises the library (-O) in the debug build
// the tests run: a longer build, much shorter tests (docs/DECISIONS.md#optimized-tests).
let optimizedTests = ProcessInfo.processInfo.environment["SIGNALPATH_OPTIMIZED_TESTS"] != nil

// Linux only: ALSA, glibc and /proc are used directly (Sources/SignalPathKit/Support/Platform.swift).
let package = Package(
    name: "signalpath",
    products: [
        .executable(name: "signalpath", targets: ["signalpath"]),
        .library(name: "SignalPathKit", targets: ["SignalPathKit"]),
        // TagLib behind a few C functions, opened with dlopen by `replaygain` (Tagging/TagLibrary.swift).
        .library(name: "SignalPathTagLib", type: .dynamic, targets: ["SignalPathTagLib"]),
    ],
    dependencies: [.package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")],
    targets: [
        // Declarations only: libsndfile is opened when a file first needs it (Decoding/SndFile.swift).
        .systemLibrary(
            name: "CSndFile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        // Declarations only: SignalPathKit links FFTW's static archive (below).
        .systemLibrary(
            name: "CFFTW",
            providers: [.apt(["libfftw3-dev"])]
        ),
        // Declarations only: libasound is opened by the commands that play or capture (Live/ALSADevice.swift).
        .systemLibrary(
            name: "CALSA",
            providers: [.apt(["libasound2-dev"])]
        ),
        // Declarations only: libcairo is opened on a chart's first use (Rendering/CairoSurface.swift).
        .systemLibrary(
            name: "CCairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        // Declarations only: libz is opened when a PNG is first written (Support/Deflate.swift).
        .systemLibrary(
            name: "CZLib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // FFmpeg's headers only: FFmpeg.swift loads the libraries with dlopen on first use (linking
        // them would add ~130 shared libraries to every start-up; see FFmpeg.swift).
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev"])]
        ),
        // Declarations only: libcrypto is opened on the first digest (Support/MessageDigest.swift).
        .systemLibrary(
            name: "CLibCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Declarations only: libchromaprint is opened on the first fingerprint (Analysis/Identity/Chromaprint.swift).
        .systemLibrary(
            name: "CChromaprint",
            providers: [.apt(["libchromaprint-dev"])]
        ),
        // Declarations only: libsqlite3 is opened by the commands that keep a database (Archive/SQLite.swift).
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Declarations only: libsoxr is opened when compare first resamples (Analysis/Compare/Resampler.swift).
        .systemLibrary(
            name: "CSoxr",
            providers: [.apt(["libsoxr-dev"])]
        ),
        // The TagLib shim's declarations only: `replaygain` opens libSignalPathTagLib.so on first use.
        .systemLibrary(
            name: "CTagLib",
            providers: [.apt(["libtag1-dev"])]
        ),
        // C++ over TagLib: sets and reads named fields in each container's tag (its header says why C++).
        .target(
            name: "SignalPathTagLib",
            linkerSettings: [.linkedLibrary("tag")]
        ),
        // Kernels compiled for x86-64-v3 (AVX2), called only where the processor has it
        // (SignalPathKit's ProcessorFeatures); everything else stays at the x86-64 baseline.
        .target(
            name: "SignalPathAVX2",
            // -O with the library under SIGNALPATH_OPTIMIZED_TESTS: the tests' analyses run these
            // kernels, which at -Onone are far slower than the baseline ones they stand in for.
            swiftSettings: [.unsafeFlags(["-target-cpu", "haswell"] + (optimizedTests ? ["-O"] : []))]
        ),
        .target(
            name: "SignalPathKit",
            dependencies: [
                "SignalPathAVX2", "CSndFile", "CFFTW", "CALSA", "CCairo", "CZLib", "CFFmpeg", "CSQLite", "CTagLib", "CSoxr", "CLibCrypto", "CChromaprint",
            ],
            swiftSettings: optimizedTests ? [.unsafeFlags(["-O"])] : [],
            // FFTW linked from its static archive (libfftw3-dev ships it): the shared library's
            // loading and symbol binding cost every start, commands without spectra too
            // (docs/DECISIONS.md#static-fftw). lld resolves archives in any order.
            linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libfftw3f.a"])]
        ),
        .executableTarget(
            name: "signalpath",
            dependencies: [
                "SignalPathKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Relative relocations packed (DT_RELR, glibc 2.36+; lld, which the Swift toolchain
            // ships): the pointers the loader fixes at every start are described in a table a
            // hundredth the size of gold's, and every command starts sooner (docs/DECISIONS.md#packed-relocations).
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]
        ),
        .target(
            name: "SignalPathTestSupport",
            path: "Tests/SignalPathTestSupport"
        ),
        .testTarget(
            name: "SignalPathKitTests",
            dependencies: ["SignalPathKit", "SignalPathTestSupport"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "SignalPathCLITests",
            // Depending on the executable makes `swift test` build it; the tests run the binary.
            dependencies: ["signalpath", "SignalPathTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
