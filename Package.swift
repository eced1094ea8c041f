// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SwiftBLE",
    products: [
        .library(name: "BLEWire", targets: ["BLEWire"]),
        .library(name: "BLECrypto", targets: ["BLECrypto"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
    ],
    targets: [
        .target(name: "BLEWire"),
        .target(
            name: "BLECrypto",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "BLEWireTests", dependencies: ["BLEWire"], exclude: ["Fixtures"]),
        .testTarget(name: "BLECryptoTests", dependencies: ["BLECrypto"]),
    ],
    swiftLanguageModes: [.v6]
)
