// swift-tools-version: 6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, so find the name of the folder
// this repository was cloned into.
let rootPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// The benchmarks live in their own package so the main package's build and test
// command never compile package-benchmark and its malloc interposer.
let package = Package(
    name: "SwiftBLEBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "Workloads",
            dependencies: [.product(name: "BLEWire", package: rootPackage)],
            path: "Workloads"
        ),
        .executableTarget(
            name: "WorldSpeed",
            dependencies: [
                .product(name: "BLEWorld", package: rootPackage),
                .product(name: "BLEController", package: rootPackage),
                .product(name: "BLEWire", package: rootPackage),
            ],
            path: "WorldSpeed"
        ),
        .executableTarget(
            name: "CitySpeed",
            dependencies: [
                .product(name: "BLEScenarios", package: rootPackage),
                .product(name: "BLEWorld", package: rootPackage),
            ],
            path: "CitySpeed"
        ),
        // How fast a scenario file loads (issue 31, item 3).
        .executableTarget(
            name: "LoadSpeed",
            dependencies: [.product(name: "BLEWorld", package: rootPackage)],
            path: "LoadSpeed"
        ),
        .executableTarget(
            name: "DecodeRate",
            dependencies: ["Workloads", .product(name: "BLEWire", package: rootPackage)],
            path: "DecodeRate"
        ),
        .executableTarget(
            name: "WireCodecs",
            dependencies: [
                "Workloads",
                .product(name: "BLEWire", package: rootPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "WireCodecs",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "HostThroughput",
            dependencies: [
                .product(name: "BLEBench", package: rootPackage),
                .product(name: "BLEWire", package: rootPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "HostThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
