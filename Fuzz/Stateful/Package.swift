// swift-tools-version: 6.1
// The stateful fuzz targets (docs/fuzzing.md): one libFuzzer executable over the host's and
// the controller's sans-IO cores. Its library targets are symlinks to the main package's
// sources, so that they build here with -sanitize=fuzzer,address without touching the main
// package's build; the step drivers are symlinks to the test targets' FuzzDrivers folders,
// where `swift test` replays the committed corpora through the same invariant checks.
// Built and run by scripts/fuzz.sh; never part of the main package.
import PackageDescription

let package = Package(
    name: "SwiftBLEStatefulFuzz",
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(name: "BLEWire"),
        .target(name: "BLETime"),
        .target(name: "BLELogging", dependencies: [.product(name: "Logging", package: "swift-log")]),
        .target(name: "BLECrypto", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        .target(name: "BLEController", dependencies: ["BLEWire", "BLECrypto"]),
        .target(name: "BLEHost", dependencies: ["BLETime", "BLEWire", "BLECrypto", "BLELogging"]),
        .target(name: "LibFuzzerDriver"),
        .executableTarget(name: "StatefulFuzz", dependencies: ["BLEHost", "BLEController", "BLEWire", "BLECrypto", "LibFuzzerDriver"]),
    ],
    swiftLanguageModes: [.v6]
)
