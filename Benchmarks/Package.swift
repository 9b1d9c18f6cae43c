// swift-tools-version: 6.0
// Benchmarks live in their own package so that nothing they need reaches the library's users.
import PackageDescription

let package = Package(
    name: "SignalPathBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Through a symlink named after the package: a path dependency takes its identity from the
        // folder name, which for the repository itself depends on where it was cloned.
        .package(path: "Dependencies/signalpath")
    ],
    targets: [
        .executableTarget(
            name: "Micro",
            dependencies: [.product(name: "SignalPathKit", package: "signalpath")]
        ),
        .executableTarget(
            name: "ReaderThroughput",
            dependencies: [.product(name: "SignalPathKit", package: "signalpath")],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
