// swift-tools-version: 6.0
// libFuzzer targets, in their own package: built with -sanitize=fuzzer,address by `make fuzz`.
import PackageDescription

let package = Package(
    name: "SignalPathFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Through a symlink named after the package (see Benchmarks/Package.swift).
        .package(path: "Dependencies/signalpath")
    ],
    targets: [
        .executableTarget(name: "FuzzAudio", dependencies: [.product(name: "SignalPathKit", package: "signalpath")]),
        .executableTarget(name: "FuzzFFmpeg", dependencies: [.product(name: "SignalPathKit", package: "signalpath")]),
        .executableTarget(name: "FuzzRange", dependencies: [.product(name: "SignalPathKit", package: "signalpath")]),
    ],
    swiftLanguageModes: [.v6]
)
